"""The audit report's figures that the database adds up: a handful of GROUP BY queries,
whatever the number of rounds, each returning a few rows per offering and paytable version.

- ``spot_totals``: bets, handle and returns per offering, paytable version (with the odds
  the rounds recorded), bet spot and stake. The summary's handle and expected win, and the
  whole by-kind table, come from these rows: E = Σ stake × the exact edge of the spot at
  that stake under the recorded odds, so it follows what players actually bet. The edge is
  that of what the stake is paid, each return rounded up to the cent where fractional odds
  need it (reading:round-up: a 2-cent split at 16 to 3 is paid 13, not 12.67, and its
  expected win is −1/13 of a cent, not the −1/39 the odds alone give); ``Edges`` works it
  out once per distinct (odds, spot, stake) of a run, with ``jinzi.house_edge``.
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


class Edges:
    """The exact house edge of each (recorded odds, spot, stake) a run meets, each worked out
    once: 1 − what that stake is paid over the 13 outcomes / 13 × the stake
    (``jinzi.house_edge``, returns rounded up as ``jinzi.settle`` pays them). Where every even
    stake is paid exactly (whole or half odds: ``jinzi.rounding_period`` is 1) that is the
    odds' own edge, worked out once per odds and spot. The wheel's order does not change an
    edge (red and black each cover six numbers, neither 0)."""

    def __init__(self) -> None:
        self._spots: dict[tuple, tuple[jinzi.Wager, jinzi.Paytable, Fraction, bool]] = {}
        self._edges: dict[tuple, Fraction] = {}

    def of(self, odds: dict, spot: str, stake: int) -> Fraction:
        spot_key = (odds_key(odds), spot)
        known = self._spots.get(spot_key)
        if known is None:
            wager, paytable = jinzi.Wager.parse(spot), jinzi.Paytable.of(odds)
            exact = jinzi.rounding_period(wager, paytable=paytable) == 1
            known = (wager, paytable, jinzi.house_edge(wager, paytable=paytable), exact)
            self._spots[spot_key] = known
        wager, paytable, own, exact = known
        if exact or stake not in jinzi.EVERY_EVEN_STAKE:
            # A stake no table takes (odd, say: a row altered outside the portal) is listed
            # by the re-settlement; the odds' own edge stands in for it here.
            return own
        key = (spot_key, stake)
        edge = self._edges.get(key)
        if edge is None:
            edge = self._edges[key] = jinzi.house_edge(wager, paytable=paytable, stake=stake)
        return edge


@dataclass
class SpotTotal:
    """One spot of one offering and paytable version, over every stake it took."""

    group: GroupKey
    odds: dict
    spot: str
    bets: int = 0
    handle: int = 0
    returned: int = 0
    expected_win: Fraction = Fraction(0)  # Σ handle × edge, stake by stake
    lowest_edge: Fraction | None = None  # the lowest edge of the stakes it took...
    lowest_stake: int | None = None  # ...and the smallest of those stakes with it

    @property
    def wager(self) -> jinzi.Wager:
        return jinzi.Wager.parse(self.spot)

    def add(self, *, stake: int, bets: int, handle: int, returned: int, edge: Fraction) -> None:
        """The bets of one stake: ``handle`` is their stakes' sum, bets × stake."""
        self.bets += bets
        self.handle += handle
        self.returned += returned
        self.expected_win += handle * edge
        if self.lowest_edge is None or (edge, stake) < (self.lowest_edge, self.lowest_stake):
            self.lowest_edge, self.lowest_stake = edge, stake


def spot_totals(scope: Scope, edges: Edges | None = None) -> list[SpotTotal]:
    """The database's sums by offering, paytable version, recorded odds, spot and stake (one
    GROUP BY), as ``spot_totals_of`` makes them: the reference the pass's own sums are
    held to in the tests."""
    rows = (
        Bet.objects.filter(scope.played("round__"))
        .values(
            "round__offering_id",
            "round__paytable_id",
            "round__paytable_version",
            "round__paytable_odds",
            "spot",
            "stake",
        )
        .annotate(bets=Count("pk"), handle=Sum("stake"), returned=Sum("returned"))
        .order_by()
    )
    return spot_totals_of(
        (
            (
                (r["round__offering_id"], r["round__paytable_id"], r["round__paytable_version"]),
                r["round__paytable_odds"], r["spot"], r["stake"], r["bets"], r["handle"],
                r["returned"],
            )
            for r in rows
        ),
        edges,
    )  # fmt: skip


def spot_totals_of(rows, edges: Edges | None = None) -> list[SpotTotal]:
    """One row per offering, paytable version, recorded odds and spot, from sums per stake
    (group, odds, spot, stake, bets, handle, returned): each stake's handle earns its own
    edge (``edges``, the run's; a fresh one when not given). In a fixed order."""
    edges = Edges() if edges is None else edges
    totals: dict[tuple, SpotTotal] = {}
    legal: dict[str, bool] = {}
    for group, odds, spot, stake, bets, handle, returned in rows:
        if spot not in legal:
            legal[spot] = _legal(spot)
        if not legal[spot]:
            # A spot no table takes (a row altered outside the portal): the re-settlement
            # lists its bets, and the handle left out here shows in the reconciliation.
            continue
        key = (group, odds_key(odds), spot)
        total = totals.get(key)
        if total is None:
            total = totals[key] = SpotTotal(group, odds, spot)
        total.add(stake=stake, bets=bets, handle=handle, returned=returned,
                  edge=edges.of(odds, spot, stake))  # fmt: skip
    return [totals[key] for key in sorted(totals)]


def _legal(spot: str) -> bool:
    try:
        jinzi.Wager.parse(spot)
    except jinzi.JinziError:
        return False
    return True


@dataclass
class RoundTotal:
    rounds: int = 0
    players: int = 0
    staked: int = 0
    returned: int = 0


def round_totals(scope: Scope) -> dict[GroupKey, RoundTotal]:
    rows = (
        Round.objects.filter(scope.played())
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
    rounds = Round.objects.filter(scope.played())
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
    """How often each number came up, over every draw of the period: a void round's draw
    was made too, and the RNG's statistics (§ 810a.5) judge every draw."""
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
    largest ``LISTED`` (a threshold set very low must not fill the report). A void round's
    win was taken back: it is listed with the voids instead."""
    return list(
        Round.objects.filter(scope.played())
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
