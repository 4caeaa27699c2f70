"""The audit report's figures that the database adds up: a handful of GROUP BY queries,
whatever the number of rounds, each returning a few rows per offering and paytable version.

- ``round_totals``: rounds, distinct players and the rounds' own stake and return totals
  per offering and paytable version; ``distinct_players`` per offering, holder and in all
  (distinct counts do not add up, so each level is counted).
- ``outcome_counts``: rounds per outcome 0–12; ``odd_rng_rounds``: rounds whose RNG method
  is not the OS CSPRNG's (§ 810a.5); ``big_wins``: rounds a player won at least the
  threshold on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Sum

import jinzi
from portal.game.models import Round
from portal.reports.audit_report.scope import Scope
from portal.reports.audit_report.values import GroupKey

ROUNDS_LISTED = 10_000  # rounds listed in full (odd RNG, big wins); a count is always whole


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
    rounds: list[dict]  # the first ROUNDS_LISTED, by id


def odd_rng_rounds(scope: Scope) -> OddRng:
    odd = Round.objects.filter(scope.q()).exclude(rng_method=jinzi.RNG_METHOD)
    listed = list(
        odd.order_by("pk").values(
            "pk", "offering_id", "player_id", "started_at", "rng_method", "rng_raw", "outcome"
        )[:ROUNDS_LISTED]
    )
    count = len(listed) if len(listed) < ROUNDS_LISTED else odd.count()
    return OddRng(count, listed)


def big_wins(scope: Scope, threshold: int) -> list[dict]:
    """Rounds whose player won (returned − staked) at least ``threshold`` minor units: the
    largest ``ROUNDS_LISTED`` (a threshold set very low must not fill the report). A void round's
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
        )[:ROUNDS_LISTED]
    )
