"""The exact house edge of a stored paytable and its range of hold, as both the pages and
the API show them (§ 617b.8(f), (g)).

reading:round-up: fractional odds round a return up to the cent, so each figure is that of
what is paid, over the stakes allowed: every even stake from 2 cents for a paytable on its
own (``jinzi.EVERY_EVEN_STAKE``), a listing's chip unit and limits where a table lists it.
A kind's lowest edge may so come from a small stake, which the row names.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinzi
from portal.compliance import messages as msg
from portal.compliance.models import Paytable
from portal.compliance.zero_edges import kind_lines


@dataclass(frozen=True)
class EdgeRow:
    kind: str
    label: str
    odds: str  # "11 to 1"
    spots: int
    edge: str  # exact: "1/26", or "1/26 – 1/13" when the kind's spots differ
    edge_percent: str  # "3.846 %" (rounded for display only)
    lowest: Fraction
    highest: Fraction
    flagged: bool  # some spot has an edge of zero or less at some allowed stake
    # "lowest on a 2-cent stake, its return rounded up" where rounding makes the lowest
    # lower than the odds alone would; else "".
    rounding_note: str = ""


@dataclass(frozen=True)
class HoldBand:
    """The edges of one group of wagers: those not covering 0, or those covering 0."""

    key: str  # "not_covering_zero" or "covering_zero", as in jinzi.HoldRange and the API
    label: str
    note: str
    spots: int
    edge: str  # exact: "1/26", or "-1/26 – 1/26" when the group's spots differ
    edge_percent: str
    lowest: Fraction
    highest: Fraction


@dataclass(frozen=True)
class EdgeReport:
    rows: tuple[EdgeRow, ...]
    # reading:expected-win: no single figure, since the hold follows the mix of bets.
    hold_bands: tuple[HoldBand, ...]
    flagged_spots: tuple[str, ...]  # labels, as the API gives them
    # Once per wager kind, the edge as it is and from which stake (``zero_edges``): "Straight
    # up: no house edge (zero) on 12 of its 13 spots, at every stake".
    zero_edge_lines: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.flagged_spots)

    def as_json(self) -> dict:
        return {
            "per_kind": [
                {
                    "kind": row.kind,
                    "label": row.label,
                    "odds": row.odds,
                    "spots": row.spots,
                    "house_edge": row.edge,
                    "house_edge_percent": row.edge_percent,
                    "lowest": str(row.lowest),
                    "highest": str(row.highest),
                    "flagged": row.flagged,
                }
                for row in self.rows
            ],
            "hold_range": {
                band.key: {
                    "label": band.label,
                    "spots": band.spots,
                    "house_edge": band.edge,
                    "house_edge_percent": band.edge_percent,
                    "lowest": str(band.lowest),
                    "highest": str(band.highest),
                }
                for band in self.hold_bands
            },
            "flagged": self.flagged,
            "flagged_spots": list(self.flagged_spots),
        }


def _range(low: Fraction, high: Fraction) -> str:
    return str(low) if low == high else f"{low} – {high}"


def _percent_range(low: Fraction, high: Fraction) -> str:
    if low == high:
        return jinzi.format_percent(low)
    return f"{jinzi.format_percent(low)} – {jinzi.format_percent(high)}"


def _hold_bands(
    domain: jinzi.Paytable, wheel: jinzi.Wheel | None, stakes: jinzi.Stakes
) -> tuple[HoldBand, ...]:
    spans = jinzi.hold_range(domain, wheel, stakes=stakes)
    on_zero = sum(w.covers_zero for w in jinzi.legal_wagers())
    bands = []
    for key, label, note, spots in (
        (
            "not_covering_zero",
            "Wagers not covering 0",
            "half back when 0 comes up (§ 617b.8(g)(2))",
            jinzi.SPOT_COUNT - on_zero,
        ),
        (
            "covering_zero",
            "Wagers covering 0",
            "straight 0, splits 0-1, 0-2, 0-3, three numbers",
            on_zero,
        ),
    ):
        low, high = getattr(spans, key)
        edge, percent = _range(low, high), _percent_range(low, high)
        bands.append(HoldBand(key, label, note, spots, edge, percent, low, high))
    return tuple(bands)


def _rounding_note(row: jinzi.KindEdge, own: jinzi.KindEdge) -> str:
    if row.lowest_stake is None or row.lowest >= own.lowest:
        return ""
    return msg.LOWEST_AT_STAKE.format(stake=msg.cents(row.lowest_stake))


def edge_report(
    paytable: Paytable | jinzi.Paytable,
    wheel: jinzi.Wheel | None = None,
    stakes: jinzi.Stakes = jinzi.EVERY_EVEN_STAKE,
) -> EdgeReport:
    """Per kind: odds and exact house edge over ``stakes`` as paid, returns rounded up
    (from ``jinzi``, reading:round-up); the range of hold; the spots flagged (edge ≤ 0)."""
    domain = paytable.to_domain() if isinstance(paytable, Paytable) else paytable
    own = jinzi.edge_table(domain, wheel)
    rows = tuple(
        EdgeRow(
            kind=row.kind.value,
            label=row.label,
            odds=jinzi.format_odds(row.odds),
            spots=row.spots,
            edge=_range(row.lowest, row.highest),
            edge_percent=_percent_range(row.lowest, row.highest),
            lowest=row.lowest,
            highest=row.highest,
            flagged=row.lowest <= 0,
            rounding_note=_rounding_note(row, before),
        )
        for row, before in zip(jinzi.edge_table(domain, wheel, stakes=stakes), own, strict=True)
    )
    flags = jinzi.paytable_flags(domain, wheel, stakes=stakes)
    return EdgeReport(
        rows=rows,
        hold_bands=_hold_bands(domain, wheel, stakes),
        flagged_spots=tuple(flag.wager.label for flag in flags),
        zero_edge_lines=kind_lines(flags, {row.kind: row.spots for row in own}),
    )
