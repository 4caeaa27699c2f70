"""A layout's schematic (§ 601a.10(a)): its betting layout and its wheel, drawn as vectors
from the wheel order and the grid of § 617b.8(c), (d), for the filing package and the
layout's page.

The betting layout: 0's box across the top of the three columns, the four rows of three
below it (1 2 3 / 4 5 6 / 7 8 9 / 10 11 12), each number's box filled in its wheel colour,
a column box under each column and the outside boxes (Small, Red, Black, Big) beside the
rows. The wheel: 13 equal wedges clockwise from 0 at the top, each in its colour and
labelled with its number.

Text is set in DejaVu Sans (``portal.core.pdf_fonts``), so a PDF embeds it; the same
font's widths centre every label. ``drawing_svg`` writes a drawing as a standalone SVG,
the same bytes each time for the same drawing.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import (
    AttrMap,
    AttrMapValue,
    Circle,
    Drawing,
    Group,
    Rect,
    String,
    Wedge,
    isString,
)
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

import jinzi
from portal.core import pdf_fonts


def _percent(red: int, green: int, blue: int) -> colors.Color:
    """A colour in whole percents, which the SVG writer spells exactly (it drops fractions
    of a percent)."""
    return colors.Color(red / 100, green / 100, blue / 100)


# The page's own colours (site.css: --red #c62828, --black #212121, --ink #1d2330), to the
# nearest whole percent, so the picture matches the wheel listed beside it.
RED = _percent(78, 16, 16)
BLACK = _percent(13, 13, 13)
WHITE = _percent(100, 100, 100)
INK = _percent(11, 14, 19)
LINE = INK
FILLS = {jinzi.Colour.RED: RED, jinzi.Colour.BLACK: BLACK, jinzi.Colour.WHITE: WHITE}
# White text on red and black, ink on white: each readable on its box.
TEXT_ON = {jinzi.Colour.RED: WHITE, jinzi.Colour.BLACK: WHITE, jinzi.Colour.WHITE: INK}

MARGIN = 12.0
CAPTION_SIZE = 12.0
NOTE_SIZE = 10.0
NUMBER_SIZE = 16.0
LABEL_SIZE = 11.0

# The betting layout, in points: 12 + 96 + 3 × 80 + 12 = 360 wide, under a portrait
# page's 540 and a landscape page's 720.
OUTSIDE_WIDTH = 96.0
CELL_WIDTH = 80.0
CELL_HEIGHT = 44.0
ZERO_HEIGHT = 44.0
COLUMN_HEIGHT = 34.0
OUTSIDE = (
    ("Small (1–6)", jinzi.Colour.WHITE),
    ("Red", jinzi.Colour.RED),
    ("Black", jinzi.Colour.BLACK),
    ("Big (7–12)", jinzi.Colour.WHITE),
)

# The wheel, in points: 12 + 2 × 140 + 12 = 304 wide.
WHEEL_RADIUS = 140.0
HUB_RADIUS = 62.0
WEDGE_DEGREES = 360.0 / jinzi.WHEEL_SIZE


class Schematic(Drawing):
    """A ``Drawing`` that carries its own title and description, written into the SVG's
    ``<title>`` and ``<desc>`` (what a screen reader says of the picture on its own)."""

    _attrMap = AttrMap(
        BASE=Drawing,
        title=AttrMapValue(isString, desc="what the picture is, in plain words"),
        description=AttrMapValue(isString, desc="what the picture shows, in plain words"),
    )

    def __init__(self, width: float, height: float, *, title: str, description: str) -> None:
        # Whole points: the SVG writer's view box is written in whole numbers.
        size = math.ceil(width), math.ceil(height)
        super().__init__(*size, initialFontName=pdf_fonts.register()[0])
        self.title = title
        self.description = description


def _fonts() -> tuple[str, str]:
    return pdf_fonts.register()


def _centred(text: str, cx: float, cy: float, font: str, size: float, colour) -> String:
    """``text`` centred on (cx, cy): across by the font's own width, down by its cap
    height (about 0.73 of the size for DejaVu Sans)."""
    x = cx - stringWidth(text, font, size) / 2
    # On half points: the SVG writer flips text about twice its baseline, as a whole number.
    y = round((cy - size * 0.36) * 2) / 2
    return String(x, y, text, fontName=font, fontSize=size, fillColor=colour)


def _box(
    x: float,
    y: float,
    width: float,
    height: float,
    text: str,
    colour: jinzi.Colour,
    font: str,
    size: float = LABEL_SIZE,
) -> Group:
    """A box filled in ``colour`` with ``text`` centred on it, as one group."""
    rect = Rect(x, y, width, height, fillColor=FILLS[colour], strokeColor=LINE, strokeWidth=1)
    label = _centred(text, x + width / 2, y + height / 2, font, size, TEXT_ON[colour])
    return Group(rect, label)


def _caption(drawing: Drawing, lines: list[tuple[str, str, float]], top: float) -> float:
    """Write ``lines`` (text, font, size) centred at the top; return the y below them."""
    y = top
    for text, font, size in lines:
        y -= size * 1.4
        drawing.add(_centred(text, drawing.width / 2, y + size * 0.36, font, size, INK))
    return y


def _colour_words(wheel: jinzi.Wheel) -> str:
    red = ", ".join(str(n) for n in sorted(wheel.red))
    black = ", ".join(str(n) for n in sorted(wheel.black))
    return f"0 is white; red: {red}; black: {black}."


def layout_drawing(wheel: jinzi.Wheel, *, title: str) -> Drawing:
    """The betting layout (§ 617b.8(d)) of ``wheel``: 0 across the top, the numbers 1–12
    in four rows of three each in its wheel colour (§ 617b.8(c)), a column box under each
    column and the Small, Red, Black and Big boxes beside the rows; captioned ``title``."""
    regular, bold = _fonts()
    rows, columns = len(jinzi.LAYOUT_ROWS), len(jinzi.LAYOUT_COLUMNS)
    caption_height = 2 * 1.4 * CAPTION_SIZE + 8
    width = 2 * MARGIN + OUTSIDE_WIDTH + columns * CELL_WIDTH
    height = 2 * MARGIN + caption_height + ZERO_HEIGHT + rows * CELL_HEIGHT + COLUMN_HEIGHT
    drawing = Schematic(
        width,
        height,
        title=f"{title}: betting layout",
        description=(
            "0 across the top; below it 1 2 3, 4 5 6, 7 8 9 and 10 11 12 in four rows of "
            "three; a column box under each column; Small (1–6), Red, Black and Big (7–12) "
            f"beside the rows. {_colour_words(wheel)}"
        ),
    )
    top = _caption(
        drawing,
        [(title, bold, CAPTION_SIZE), ("Betting layout (§ 617b.8(d))", regular, NOTE_SIZE)],
        drawing.height - MARGIN,
    )
    grid_x = MARGIN + OUTSIDE_WIDTH
    zero_y = top - 8 - ZERO_HEIGHT
    zero_width = columns * CELL_WIDTH
    drawing.add(
        _box(grid_x, zero_y, zero_width, ZERO_HEIGHT, "0", wheel.color(0), bold, NUMBER_SIZE)
    )
    for r, row in enumerate(jinzi.LAYOUT_ROWS):
        y = zero_y - (r + 1) * CELL_HEIGHT
        label, colour = OUTSIDE[r]
        drawing.add(_box(MARGIN, y, OUTSIDE_WIDTH, CELL_HEIGHT, label, colour, regular))
        for c, number in enumerate(row):
            x = grid_x + c * CELL_WIDTH
            colour = wheel.color(number)
            drawing.add(_box(x, y, CELL_WIDTH, CELL_HEIGHT, str(number), colour, bold, NUMBER_SIZE))
    column_y = zero_y - rows * CELL_HEIGHT - COLUMN_HEIGHT
    for c in range(columns):
        x = grid_x + c * CELL_WIDTH
        drawing.add(
            _box(
                x,
                column_y,
                CELL_WIDTH,
                COLUMN_HEIGHT,
                f"Column {c + 1}",
                jinzi.Colour.WHITE,
                regular,
            )
        )
    return drawing


def wedge_angle(position: int) -> float:
    """The angle, in degrees anticlockwise from 3 o'clock, of the middle of the wedge at
    clockwise ``position`` from 0 (0 is at the top, 90°)."""
    return 90.0 - position * WEDGE_DEGREES


def wheel_drawing(wheel: jinzi.Wheel, *, title: str) -> Drawing:
    """The wheel (§ 617b.8(c)): 13 equal wedges in ``wheel``'s clockwise order from 0 at
    the top, each in its colour with its number; captioned ``title`` and the colour that
    follows 0."""
    regular, bold = _fonts()
    caption_height = 2 * 1.4 * CAPTION_SIZE + 8
    width = 2 * MARGIN + 2 * WHEEL_RADIUS
    height = 2 * MARGIN + caption_height + 2 * WHEEL_RADIUS
    first = wheel.first.value
    note = f"Wheel (§ 617b.8(c)), clockwise from 0; {first} first"
    order = ", ".join(str(n) for n in wheel.order)
    drawing = Schematic(
        width,
        height,
        title=f"{title}: wheel",
        description=(
            f"13 equal compartments clockwise from 0 at the top: {order}. "
            f"{_colour_words(wheel)} {first.capitalize()} follows 0."
        ),
    )
    top = _caption(
        drawing, [(title, bold, CAPTION_SIZE), (note, regular, NOTE_SIZE)], drawing.height - MARGIN
    )
    cx, cy = width / 2, top - 8 - WHEEL_RADIUS
    label_radius = (WHEEL_RADIUS + HUB_RADIUS) / 2
    for position, number in enumerate(wheel.order):
        colour = wheel.color(number)
        middle = wedge_angle(position)
        wedge = Wedge(
            cx,
            cy,
            WHEEL_RADIUS,
            middle - WEDGE_DEGREES / 2,
            middle + WEDGE_DEGREES / 2,
            fillColor=FILLS[colour],
            strokeColor=LINE,
            strokeWidth=1,
        )
        radians = math.radians(middle)
        lx, ly = cx + label_radius * math.cos(radians), cy + label_radius * math.sin(radians)
        drawing.add(Group(wedge, _centred(str(number), lx, ly, bold, NUMBER_SIZE, TEXT_ON[colour])))
    drawing.add(Circle(cx, cy, HUB_RADIUS, fillColor=WHITE, strokeColor=LINE, strokeWidth=1))
    return drawing


def drawing_svg(drawing: Drawing) -> bytes:
    """``drawing`` as a standalone SVG (UTF-8), its text in DejaVu Sans: the same drawing
    gives the same bytes (ReportLab writes no date and no generated id)."""
    regular, bold = _fonts()
    family = "'DejaVu Sans', sans-serif"
    text = renderSVG.drawToString(
        drawing,
        fontHacks={regular: {"family": family}, bold: {"family": family, "weight": "bold"}},
    )
    for tag, words in (
        ("title", getattr(drawing, "title", "")),
        ("desc", getattr(drawing, "description", "")),
    ):
        placeholder = f"<{tag}>...</{tag}>"
        if text.count(placeholder) != 1:
            raise ValueError(f"the SVG writer no longer writes one {placeholder}")
        text = text.replace(placeholder, f"<{tag}>{escape(words)}</{tag}>")
    return text.encode("utf-8")
