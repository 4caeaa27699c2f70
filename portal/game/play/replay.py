"""The "last game" replay of § 810a.11(a): a round's whole cycle redrawn from its record.

Everything comes from the stored round (its wheel order, bets, outcome, odds), never
from the offering as it is now: the layout or paytable may have changed since.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinzi
from portal.game import rounds
from portal.game.models import Round
from portal.game.play import presenters

SPIN_TURNS = 3  # whole turns the replayed wheel makes before it stops on the outcome


@dataclass(frozen=True)
class ReplaySpot:
    """A bet spot of the layout as it stood at the end of the round."""

    cell: presenters.Cell
    bet: dict | None  # the round's wager on this spot (from ``round_data``), if any
    won: bool  # the outcome is one of the spot's numbers


def replay_data(round_obj: Round, bets=None) -> dict:
    """``rounds.round_data`` plus the layout, the wheel and where it stopped."""
    data = rounds.round_data(round_obj, bets)
    wheel = jinzi.Wheel.of(round_obj.wheel_order, round_obj.first_colour)
    placed = {wager["spot"]: wager for wager in data["wagers"]}
    winners = set(data["winning_spots"])
    spots = [
        ReplaySpot(cell, placed.get(cell.wager.spot), cell.wager.spot in winners)
        for cell in presenters.table_cells(wheel)
    ]
    # Segments are drawn clockwise from 0 at the top, under the pointer: turning the
    # wheel back by the outcome's position brings the outcome under the pointer.
    stop = -(SPIN_TURNS * 360 + wheel.position(round_obj.outcome) * 360 / jinzi.WHEEL_SIZE)
    return {
        **data,
        # Row 11 (small, red, black, big) is drawn as its own strip, as on the table page;
        # (CSS class of the box, its spots).
        "spot_boxes": [
            ("grid", [s for s in spots if not (s.cell.shape == "outside" and s.cell.row == 11)]),
            ("outside-row", [s for s in spots if s.cell.shape == "outside" and s.cell.row == 11]),
        ],
        "segments": presenters.wheel_segments(wheel),
        "stop_degrees": round(stop, 3),
        # Read as recorded, not through ``Paytable.from_dict``: a later change to the
        # minimums must not stop an old round from being shown.
        "odds_shown": [
            (jinzi.WagerKind(kind).label, jinzi.format_odds(Fraction(odds)))
            for kind, odds in data["paytable"]["odds"].items()
        ],
    }
