"""How the game is drawn and how a round is named: the table grid, the wheel, the chips,
the records a round was played under and the odds it recorded, and why a table is
closed, in one plain sentence for its players."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from fractions import Fraction

from django.utils import dateformat, timezone

import jinzi
from portal.compliance.models import SUNSET, Offering, OfferingStatus, RecordStatus
from portal.compliance.selectors import Liveness, offering_is_live
from portal.core.padates import day_starts, pa_date
from portal.game.models import Round


@dataclass(frozen=True)
class Cell:
    """One clickable bet spot on the table, placed on a CSS grid."""

    row: int
    col: int
    wager: jinzi.Wager
    text: str
    shape: str  # "number", "zero", "edge" (split/street/three), "corner", "outside"
    colour: str = ""
    span: int = 1

    @property
    def numbers(self) -> str:
        return ",".join(str(n) for n in self.wager.numbers)

    @property
    def place(self) -> str:
        """Its place on the grid as classes of game/table.css (no inline style: the CSP)."""
        return f"r{self.row} c{self.col}" + (f" s{self.span}" if self.span > 1 else "")


def _grid_position(number: int) -> tuple[int, int]:
    """Grid row and column of a number 1–12 (0 sits above, across the three columns)."""
    index = number - 1
    return 3 + 2 * (index // 3), 2 + 2 * (index % 3)


def table_cells(wheel: jinzi.Wheel) -> list[Cell]:
    """Every one of the 52 bet spots, laid out as on the table: 0 above four rows of three
    (§ 617b.8(d)).

    Columns: 1 streets, then number / gap / number / gap / number. Rows: 1 zero,
    2 the edge between 0 and 1-2-3 (splits and three-number bets), 3–9 the four number
    rows with gaps between them (vertical splits and corners), 10 columns, 11 outside.
    """
    cells = [Cell(1, 2, jinzi.Wager("straight", (0,)), "0", "zero", "white", span=5)]
    for number in range(1, 13):
        row, col = _grid_position(number)
        cells.append(
            Cell(
                row,
                col,
                jinzi.Wager("straight", (number,)),
                str(number),
                "number",
                wheel.color(number),
            )
        )
    for wager in jinzi.legal_wagers():
        numbers = wager.numbers
        if wager.kind == "split" and numbers[0] == 0:
            cells.append(Cell(2, _grid_position(numbers[1])[1], wager, "", "edge"))
        elif wager.kind == "three_numbers":
            cells.append(Cell(2, 3 if numbers == (0, 1, 2) else 5, wager, "", "edge"))
        elif wager.kind == "split":
            (row_a, col_a), (row_b, col_b) = map(_grid_position, numbers)
            cells.append(Cell((row_a + row_b) // 2, (col_a + col_b) // 2, wager, "", "edge"))
        elif wager.kind == "corner":
            row, col = _grid_position(numbers[0])
            cells.append(Cell(row + 1, col + 1, wager, "", "corner"))
        elif wager.kind == "street":
            cells.append(Cell(_grid_position(numbers[0])[0], 1, wager, "", "edge"))
        elif wager.kind == "column":
            cells.append(Cell(10, _grid_position(numbers[0])[1], wager, "4 numbers", "outside"))
    outside = (("small", "1–6"), ("red", "Red"), ("black", "Black"), ("big", "7–12"))
    for index, (kind, text) in enumerate(outside):
        colour = kind if kind in ("red", "black") else ""
        # Row 11 is drawn as its own strip of four boxes under the grid.
        cells.append(Cell(11, index + 1, jinzi.Wager(kind), text, "outside", colour))
    return cells


@dataclass(frozen=True)
class Segment:
    number: int
    colour: str
    path: str
    label_x: float
    label_y: float


def wheel_segments(wheel: jinzi.Wheel, radius: float = 100.0) -> list[Segment]:
    """13 equal wedges (§ 617b.8(c)) in the approved clockwise order, 0 at the top."""
    step = 2 * math.pi / jinzi.WHEEL_SIZE
    segments = []
    for position, number in enumerate(wheel.order):
        start = -math.pi / 2 - step / 2 + position * step
        end = start + step
        x0, y0 = radius * math.cos(start), radius * math.sin(start)
        x1, y1 = radius * math.cos(end), radius * math.sin(end)
        middle = start + step / 2
        segments.append(
            Segment(
                number=number,
                colour=str(wheel.color(number)),
                path=f"M0,0 L{x0:.2f},{y0:.2f} A{radius},{radius} 0 0,1 {x1:.2f},{y1:.2f} Z",
                label_x=round(0.72 * radius * math.cos(middle), 2),
                label_y=round(0.72 * radius * math.sin(middle), 2),
            )
        )
    return segments


def chip_values(chip_unit: int, max_wager: int) -> list[int]:
    """The table's chip unit and a few of its multiples, up to the per-spot maximum."""
    return [chip_unit * m for m in (1, 5, 10, 25, 100) if chip_unit * m <= max_wager]


@dataclass(frozen=True)
class RecordName:
    """One approved record a round was played under, as the player pages name it."""

    heading: str  # "Rules submission", "Layout", "Paytable"
    title: str
    version: int  # the version the round recorded
    pk: int


@dataclass(frozen=True)
class Pays:
    """What one kind of bet pays at a table: its odds, and what a stake returns when it wins,
    as paid (rounded up to the cent, reading:round-up)."""

    label: str
    odds: str
    stake: int
    returned: int


def what_bets_pay(paytable: jinzi.Paytable, wheel: jinzi.Wheel, stake: int) -> list[Pays]:
    """Each kind of bet under the table's paytable (§ 617b.8(f)), with what ``stake`` returns
    when it wins, settled by the engine itself."""
    first_of_kind: dict[jinzi.WagerKind, jinzi.Wager] = {}
    for wager in jinzi.legal_wagers():
        first_of_kind.setdefault(wager.kind, wager)
    rows = []
    for kind, odds in paytable.items():
        wager = first_of_kind[kind]
        winning = min(wager.covers(wheel))
        returned = jinzi.settle(wager, stake, winning, paytable=paytable, wheel=wheel)
        rows.append(Pays(kind.label, jinzi.format_odds(odds), stake, returned))
    return rows


def round_records(round_obj: Round) -> list[RecordName]:
    """The rules submission, layout and paytable of ``round_obj`` by title and the version
    the round recorded. Each version is its own row, so its title is the one played under;
    the caller selects the three records with the round (no query each)."""
    return [
        RecordName(heading, record.title_for_display, version, record.pk)
        for heading, record, version in (
            ("Rules submission", round_obj.rules_submission, round_obj.rules_version),
            ("Layout", round_obj.layout, round_obj.layout_version),
            ("Paytable", round_obj.paytable, round_obj.paytable_version),
        )
    ]


def recorded_odds(odds: dict) -> list[tuple[str, str]]:
    """The odds a round recorded, as (wager kind, odds) to show, in the recorded order.

    Read as stored, not through ``Paytable.from_dict``: a later change to the minimums
    must not stop an old round from being shown."""
    return [
        (jinzi.WagerKind(kind).label, jinzi.format_odds(Fraction(odds_value)))
        for kind, odds_value in odds.items()
    ]


# Why a table is closed, as a player reads it: one plain sentence, never the statuses and
# versions of the records behind it (staff read those on the offering's page).
CLOSED_RETIRED = "This table has been retired."
CLOSED_CHECKED = "This table is closed while it is checked."
CLOSED_SUNSET = (
    "This table is closed: Jinzi Roulette is no longer offered in Pennsylvania since {day}."
)
CLOSED_OPENS_ON = "This table opens on {day}."
CLOSED_APPROVAL_ENDED = "This table is closed: its approval has ended."
CLOSED_RULES_CHANGE = "This table is closed for a rules change."


def _day(day: datetime.date) -> str:
    return dateformat.format(day, "j F Y")  # 14 June 2028


def closed_sentence(
    offering: Offering, liveness: Liveness, *, at: datetime.datetime | None = None, listing=None
) -> str:
    """Why ``offering`` takes no bets at ``at``, as one plain sentence for its players ("" when
    ``liveness``, ``offering_is_live``'s answer at ``at``, says it is live). The cause is read
    from the offering's parts, not from the reasons' wording: retired; the rule's sunset
    (a Pennsylvania date); not open yet (the table would be live once its last part, or the
    rule, takes effect: that day is given); an approval that expired or ended; otherwise a
    part that is superseded, withdrawn, not approved or not the one its rules submission
    lists: a rules change. ``listing``: the Jinzi Roulette listing, if read already."""
    if liveness.live:
        return ""
    at = at or timezone.now()
    today = pa_date(at)
    if offering.status == OfferingStatus.SUSPENDED:
        return CLOSED_CHECKED
    if offering.status != OfferingStatus.ACTIVE:
        return CLOSED_RETIRED
    if today >= SUNSET:
        return CLOSED_SUNSET.format(day=_day(SUNSET))
    parts = (offering.rules_submission, offering.layout, offering.paytable)
    starts = [jinzi.EFFECTIVE, *(part.effective_date for part in parts)]
    opens = max((day for day in starts if day is not None and day > today), default=None)
    if opens is not None and opens < SUNSET:
        read = {"listing": listing} if listing is not None else {}
        if offering_is_live(offering, at=day_starts(opens), **read).live:
            return CLOSED_OPENS_ON.format(day=_day(opens))
    ended = any(
        part.status == RecordStatus.EXPIRED
        or (part.expiry_date is not None and today >= part.expiry_date)
        for part in parts
    )
    return CLOSED_APPROVAL_ENDED if ended else CLOSED_RULES_CHANGE
