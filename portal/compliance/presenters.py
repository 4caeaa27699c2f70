"""The exact house edge of a stored paytable, as both the pages and the API show it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinzi
from portal.compliance.models import Paytable


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
    flagged: bool  # some spot has an edge of zero or less


@dataclass(frozen=True)
class EdgeReport:
    rows: tuple[EdgeRow, ...]
    theoretical_hold: Fraction
    theoretical_hold_percent: str
    flagged_spots: tuple[str, ...]

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
            "theoretical_hold": str(self.theoretical_hold),
            "theoretical_hold_percent": self.theoretical_hold_percent,
            "flagged": self.flagged,
            "flagged_spots": list(self.flagged_spots),
        }


def _range(low: Fraction, high: Fraction) -> str:
    return str(low) if low == high else f"{low} – {high}"


def _percent_range(low: Fraction, high: Fraction) -> str:
    if low == high:
        return jinzi.format_percent(low)
    return f"{jinzi.format_percent(low)} – {jinzi.format_percent(high)}"


def edge_report(paytable: Paytable | jinzi.Paytable, wheel: jinzi.Wheel | None = None):
    """Per kind: odds and exact house edge (from ``jinzi``); the theoretical hold; flags."""
    domain = paytable.to_domain() if isinstance(paytable, Paytable) else paytable
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
        )
        for row in jinzi.edge_table(domain, wheel)
    )
    hold = jinzi.theoretical_hold(domain, wheel)
    flags = tuple(flag.wager.label for flag in jinzi.paytable_flags(domain, wheel))
    return EdgeReport(
        rows=rows,
        theoretical_hold=hold,
        theoretical_hold_percent=jinzi.format_percent(hold),
        flagged_spots=flags,
    )
