"""Wagers a decision would leave with a house edge of zero or less, and their
acknowledgement (§ 617b.8(f), reading:edge-acknowledgement).

(f) sets minimum odds; a paytable may pay more, even so much that the house keeps no edge.
That is legal, but **Reading** (reading:edge-acknowledgement, project policy): a decision
that leaves any wager with an edge of zero or less (approving such a paytable, or a rules
submission whose listing pays so at its table's stakes) needs an explicit acknowledgement
of exactly that list, apart from the reason. The page and the API show the list with its
fingerprint and send the fingerprint back; a list that changed since it was shown is
refused (409), as a changed impact is; a reason alone never counts.

The list is said once per wager kind, with the edge as it is (zero, or in the player's
favour), how many of the kind's spots it concerns and from which stake, each return rounded
up to the cent as it is paid (reading:round-up).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import jinzi
from portal.compliance import messages as msg
from portal.compliance.models import Paytable, RulesSubmission
from portal.core.errors import Conflict, ValidationFailed
from portal.core.money import dollars

FIELD = "edge_acknowledged"  # the field a decision sends the fingerprint back in


@dataclass(frozen=True)
class ZeroEdges:
    """What a decision would leave at an edge of zero or less: a line per wager kind (per
    listing, where a rules submission lists its stakes), and their fingerprint."""

    lines: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.lines)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256("\n".join(self.lines).encode()).hexdigest() if self.lines else ""


def edge_words(edge) -> str:
    """An edge of zero or less, as it is: "no house edge (zero)" or "in the player's
    favour (house edge −1.92 %)"."""
    if edge == 0:
        return "no house edge (zero)"
    return f"in the player's favour (house edge {jinzi.format_percent(edge)})"


def kind_lines(flags: Sequence[jinzi.SpotEdge], spots_of: dict) -> tuple[str, ...]:
    """One line per wager kind of ``flags`` (the spots at an edge of zero or less): the
    lowest edge, on how many of the kind's spots, from which stake."""
    by_kind: dict[jinzi.WagerKind, list[jinzi.SpotEdge]] = {}
    for flag in flags:
        by_kind.setdefault(flag.wager.kind, []).append(flag)
    lines = []
    for kind in jinzi.WagerKind:
        found = by_kind.get(kind)
        if not found:
            continue
        lowest = min(flag.edge for flag in found)
        stakes = [f.stake for f in found if f.edge == lowest and f.stake is not None]
        where = f"lowest at a stake of {msg.cents(min(stakes))}" if stakes else "at every stake"
        total, flagged = spots_of[kind], len(found)
        if total == 1:
            count = "its one spot"
        elif flagged == total:
            count = f"all {total} spots"
        else:
            count = f"{flagged} of its {total} spots"
        lines.append(f"{kind.label}: {edge_words(lowest)} on {count}, {where}")
    return tuple(lines)


def _spots_by_kind() -> dict:
    found: dict[jinzi.WagerKind, int] = {}
    for wager in jinzi.legal_wagers():
        found[wager.kind] = found.get(wager.kind, 0) + 1
    return found


def paytable_zero_edges(domain: jinzi.Paytable) -> ZeroEdges:
    """A paytable on its own, over every even stake from 2 cents (reading:even-stakes)."""
    flags = jinzi.paytable_flags(domain, stakes=jinzi.EVERY_EVEN_STAKE)
    return ZeroEdges(kind_lines(flags, _spots_by_kind()))


def listing_flags(listing) -> tuple[jinzi.SpotEdge, ...]:
    """The spots where a listing's paytable gives the house an edge of zero or less at a
    stake the listing allows (a multiple of its chip unit from its minimum to its maximum
    wager), on its wheel, each return rounded up to the cent as it is paid."""
    stakes = jinzi.Stakes(listing.chip_unit, listing.min_wager, listing.max_wager)
    return jinzi.paytable_flags(listing.paytable.to_domain(), listing.layout.wheel(), stakes=stakes)


def listings_zero_edges(listings: Iterable) -> ZeroEdges:
    """Each listing of a rules submission at the stakes its table allows (its chip unit,
    from its minimum to its maximum wager), its paytable on its wheel."""
    lines: list[str] = []
    for listing in listings:
        flags = listing_flags(listing)
        at = msg.LISTING_STAKES.format(
            unit=dollars(listing.chip_unit),
            lowest=dollars(listing.min_wager),
            highest=dollars(listing.max_wager),
        )
        lines += [f"{line} (stakes: {at})" for line in kind_lines(flags, _spots_by_kind())]
    return ZeroEdges(tuple(lines))


def zero_edges_of(record) -> ZeroEdges:
    """What approving ``record`` would leave at an edge of zero or less: a paytable's own
    wagers, or a rules submission's listings at their stakes; nothing for another kind, or
    for a record whose odds or wheel do not read (its approval is refused, saying why)."""
    try:
        if isinstance(record, Paytable):
            return paytable_zero_edges(record.to_domain())
        if isinstance(record, RulesSubmission):
            return listings_zero_edges(record.games.select_related("paytable", "layout"))
    except jinzi.JinziError:
        pass
    return ZeroEdges()


def require_acknowledged(found: ZeroEdges, acknowledged: str | None) -> None:
    """Refuse a decision that leaves ``found`` without its acknowledgement (400), or with
    the acknowledgement of another list than the one there is now (409)."""
    if not found:
        return
    given = (acknowledged or "").strip()
    if not given:
        raise ValidationFailed.on(
            FIELD, msg.EDGE_ACKNOWLEDGEMENT_REQUIRED.format(wagers="; ".join(found.lines))
        )
    if given != found.fingerprint:
        raise ZeroEdgesChanged()


class ZeroEdgesChanged(Conflict):
    """The wagers left at an edge of zero or less are no longer those acknowledged."""

    def __init__(self, message: str = msg.EDGE_ACKNOWLEDGEMENT_CHANGED):
        super().__init__(message)
