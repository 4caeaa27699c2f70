"""The audit report's figures that the database adds up: a handful of GROUP BY queries,
whatever the number of rounds, each returning a few rows per offering and paytable version.

- ``spot_totals``: bets, handle and returns per offering, paytable version (with the odds
  the rounds recorded) and bet spot. The summary's handle and expected win, and the whole
  by-kind table, come from these rows: E = Σ stake × the exact edge of the spot under the
  recorded odds (``jinzi.spot_edges``), so it follows what players actually bet.
- ``round_totals``: rounds, distinct players and the rounds' own stake and return totals
  per offering and paytable version; ``distinct_players`` per offering, holder and in all
  (distinct counts do not add up, so each level is counted).
- ``outcome_counts``: rounds per outcome 0–12; ``odd_rng_rounds``: rounds whose RNG method
  is not the OS CSPRNG's (§ 810a.5); ``big_wins``: rounds a player won at least the
  threshold on.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, F, Sum

import jinzi
from portal.game.models import Bet, Round
from portal.reports.audit_report.scope import Scope

GroupKey = tuple[int, int, int]  # offering pk, paytable pk, paytable version
LISTED = 10_000  # rounds listed in full (odd RNG, big wins); a count is always whole


def odds_key(odds: dict) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(kind), str(value)) for kind, value in odds.items()))


_EDGES: dict[tuple, dict[str, Fraction]] = {}


def spot_edge(odds: dict, spot: str) -> Fraction:
    """The exact house edge of ``spot`` under ``odds`` (wheel order does not change an
    edge: red and black each cover six numbers, neither 0)."""
    key = odds_key(odds)
    if key not in _EDGES:
        _EDGES[key] = {e.wager.spot: e.edge for e in jinzi.spot_edges(jinzi.Paytable.of(odds))}
    return _EDGES[key][spot]


@dataclass
class SpotTotal:
    group: GroupKey
    odds: dict
    spot: str
    bets: int
    handle: int
    returned: int

    @property
    def wager(self) -> jinzi.Wager:
        return jinzi.Wager.parse(self.spot)

    @property
    def expected_win(self) -> Fraction:
        return self.handle * spot_edge(self.odds, self.spot)


def spot_totals(scope: Scope) -> list[SpotTotal]:
    rows = (
        Bet.objects.filter(scope.q("round__"))
        .values(
            "round__offering_id",
            "round__paytable_id",
            "round__paytable_version",
            "round__paytable_odds",
            "spot",
        )
        .annotate(bets=Count("pk"), handle=Sum("stake"), returned=Sum("returned"))
        .order_by()
    )
    return [
        SpotTotal(
            (r["round__offering_id"], r["round__paytable_id"], r["round__paytable_version"]),
            r["round__paytable_odds"],
            r["spot"],
            r["bets"],
            r["handle"],
            r["returned"],
        )
        for r in rows
    ]


@dataclass
class RoundTotal:
    rounds: int = 0
    players: int = 0
    staked: int = 0
    returned: int = 0


def round_totals(scope: Scope) -> dict[GroupKey, RoundTotal]:
    rows = (
        Round.objects.filter(scope.q())
        .values("offering_id", "paytable_id", "paytable_version")
        .annotate(
            rounds=Count("pk"),
            players=Count("player_id", distinct=True),
            staked=Sum("total_staked"),
            returned=Sum("total_returned"),
        )
        .order_by()
    )
    return {
        (r["offering_id"], r["paytable_id"], r["paytable_version"]): RoundTotal(
            r["rounds"], r["players"], r["staked"], r["returned"]
        )
        for r in rows
    }


@dataclass
class Players:
    by_offering: dict[int, int]
    by_holder: dict[int, int]
    total: int


def distinct_players(scope: Scope) -> Players:
    rounds = Round.objects.filter(scope.q())
    by_offering = dict(
        rounds.values("offering_id")
        .annotate(n=Count("player_id", distinct=True))
        .order_by()
        .values_list("offering_id", "n")
    )
    by_holder = dict(
        rounds.values("offering__holder_id")
        .annotate(n=Count("player_id", distinct=True))
        .order_by()
        .values_list("offering__holder_id", "n")
    )
    total = rounds.aggregate(n=Count("player_id", distinct=True))["n"]
    return Players(by_offering, by_holder, total)


def outcome_counts(scope: Scope) -> list[int]:
    counts = [0] * jinzi.WHEEL_SIZE
    rows = Round.objects.filter(scope.q()).values("outcome").annotate(n=Count("pk")).order_by()
    for row in rows:
        counts[row["outcome"]] = row["n"]
    return counts


@dataclass
class OddRng:
    count: int
    rounds: list[dict]  # the first LISTED, by id


def odd_rng_rounds(scope: Scope) -> OddRng:
    odd = Round.objects.filter(scope.q()).exclude(rng_method=jinzi.RNG_METHOD)
    listed = list(
        odd.order_by("pk").values(
            "pk", "offering_id", "player_id", "started_at", "rng_method", "rng_raw", "outcome"
        )[:LISTED]
    )
    count = len(listed) if len(listed) < LISTED else odd.count()
    return OddRng(count, listed)


def big_wins(scope: Scope, threshold: int) -> list[dict]:
    """Rounds whose player won (returned − staked) at least ``threshold`` minor units: the
    largest ``LISTED`` (a threshold set very low must not fill the report)."""
    return list(
        Round.objects.filter(scope.q())
        .annotate(won=F("total_returned") - F("total_staked"))
        .filter(won__gte=threshold)
        .order_by("-won", "pk")
        .values(
            "pk",
            "offering_id",
            "player_id",
            "sequence",
            "started_at",
            "outcome",
            "total_staked",
            "total_returned",
            "won",
        )[:LISTED]
    )


def by_group(spots: list[SpotTotal]) -> dict[GroupKey, list[SpotTotal]]:
    grouped: dict[GroupKey, list[SpotTotal]] = defaultdict(list)
    for spot in spots:
        grouped[spot.group].append(spot)
    return grouped
