"""What a decision changes for the players at each table it moves (reading:supersede):
the versions the table runs, its stakes, and each wager kind's odds with its house edge as
paid before and after (§ 617b.8(f), reading:round-up), an edge of zero or less marked.

Approving a rules submission amendment moves the tables of its earlier versions onto it
and onto the layout and paytable it lists; nothing else changes what a live table pays. So
a step's table changes are those of the tables its plan moves (``selectors.StepPlan``),
read from the same projection the impact is.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinzi
from portal.compliance.models import Game, ListedGame, Offering
from portal.compliance.workflow import titled_version
from portal.core.money import dollars


@dataclass(frozen=True)
class KindChange:
    """One wager kind at a table, before and after: its odds and its house edge as paid
    over the table's stakes (lowest – highest over its spots)."""

    label: str
    odds_before: str
    odds_after: str
    edge_before: str
    edge_after: str
    no_edge_after: bool  # some spot leaves the house an edge of zero or less after


@dataclass(frozen=True)
class TableChange:
    offering: Offering
    parts: tuple[tuple[str, str, str], ...]  # (what, before, after), those that change
    kinds: tuple[KindChange, ...]  # the kinds whose odds or edge as paid change

    @property
    def table(self) -> str:
        return f"{self.offering.name} ({self.offering.holder.name})"

    @property
    def no_edge_after(self) -> bool:
        return any(kind.no_edge_after for kind in self.kinds)


def _listing_of(offering: Offering) -> ListedGame | None:
    """The table's Jinzi Roulette listing in its rules submission (prefetched)."""
    return next(
        (g for g in offering.rules_submission.games.all() if g.game == Game.JINZI_ROULETTE),
        None,
    )


def _stakes_text(listing: ListedGame) -> str:
    return (
        f"chips of {dollars(listing.chip_unit)}, {dollars(listing.min_wager)} to "
        f"{dollars(listing.max_wager)} a spot"
    )


def _edges(listing: ListedGame) -> dict[jinzi.WagerKind, tuple[Fraction, Fraction, Fraction]]:
    """Per kind: (odds, lowest edge, highest edge) as paid over the listing's stakes."""
    stakes = jinzi.Stakes(listing.chip_unit, listing.min_wager, listing.max_wager)
    rows = jinzi.edge_table(listing.paytable.to_domain(), listing.layout.wheel(), stakes=stakes)
    return {row.kind: (row.odds, row.lowest, row.highest) for row in rows}


def _edge_text(low: Fraction, high: Fraction) -> str:
    if low == high:
        return jinzi.format_percent(low)
    return f"{jinzi.format_percent(low)} – {jinzi.format_percent(high)}"


def table_change(offering: Offering, after: ListedGame, rules_after) -> TableChange | None:
    """What moving ``offering`` onto the listing ``after`` (of ``rules_after``) changes for
    its players; None when it does not read (the approval says why elsewhere)."""
    before = _listing_of(offering)
    if before is None:
        return None
    parts = []
    for what, old, new in (
        ("Rules submission", offering.rules_submission, rules_after),
        ("Layout", offering.layout, after.layout),
        ("Paytable", offering.paytable, after.paytable),
    ):
        if old.pk != new.pk:
            parts.append((what, titled_version(old), titled_version(new)))
    old_stakes, new_stakes = _stakes_text(before), _stakes_text(after)
    if old_stakes != new_stakes:
        parts.append(("Stakes", old_stakes, new_stakes))
    try:
        was, will = _edges(before), _edges(after)
    except jinzi.JinziError:
        return TableChange(offering, tuple(parts), ())
    kinds = []
    for kind in jinzi.WagerKind:
        (odds_a, low_a, high_a), (odds_b, low_b, high_b) = was[kind], will[kind]
        if (odds_a, low_a, high_a) == (odds_b, low_b, high_b) and low_b > 0:
            continue
        kinds.append(
            KindChange(
                label=kind.label,
                odds_before=jinzi.format_odds(odds_a),
                odds_after=jinzi.format_odds(odds_b),
                edge_before=_edge_text(low_a, high_a),
                edge_after=_edge_text(low_b, high_b),
                no_edge_after=low_b <= 0,
            )
        )
    return TableChange(offering, tuple(parts), tuple(kinds))
