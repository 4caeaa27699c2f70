"""The layout's schematic (§ 601a.10(a)): the betting layout and the wheel drawn from the
wheel order (§ 617b.8(c)) and the grid (§ 617b.8(d)), as shapes and as SVG."""

from __future__ import annotations

import io
import re

import pytest
from defusedxml import ElementTree
from pypdf import PdfReader
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Group, Rect, String, Wedge

import jinzi
from portal.compliance.schematic import (
    BLACK,
    RED,
    WHITE,
    drawing_svg,
    layout_drawing,
    wedge_angle,
    wheel_drawing,
)

SVG = "{http://www.w3.org/2000/svg}"
FILL = {RED: "red", BLACK: "black", WHITE: "white"}
# A wheel whose colours differ from the standard one's at every number but 0 (black first),
# and one in another order: a drawing that ignored the wheel would fail one of them.
WHEELS = [
    jinzi.Wheel.standard(),
    jinzi.Wheel.of(list(jinzi.STANDARD_ORDER), "black"),
    jinzi.Wheel.of([0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
]
NUMBER_TEXT = {str(n) for n in jinzi.NUMBERS}


def _numbered(drawing) -> list[tuple[str, object]]:
    """(number, its box or wedge) for each group of one shape and a number on it."""
    found = []
    for node in drawing.contents:
        if not isinstance(node, Group) or len(node.contents) != 2:
            continue
        shape, label = node.contents
        if isinstance(label, String) and label.text in NUMBER_TEXT:
            found.append((label.text, shape))
    return found


def _svg_fills(svg: bytes) -> dict[str, list[str]]:
    """Each number's text in the SVG with the fill of the shape drawn under it."""
    fills: dict[str, list[str]] = {}
    for group in ElementTree.fromstring(svg).iter(f"{SVG}g"):
        children = list(group)
        if len(children) == 2 and children[1].tag == f"{SVG}text":
            text = children[1].text
            if text in NUMBER_TEXT:
                fill = re.search(r"fill: (rgb\([^)]*\))", children[0].get("style"))
                fills.setdefault(text, []).append(fill.group(1))
    return fills


def _rgb(colour) -> str:
    """How the SVG writer spells ``colour``."""
    red, green, blue = (round(100 * part) for part in colour.rgb())
    return f"rgb({red}%,{green}%,{blue}%)"


@pytest.mark.parametrize("wheel", WHEELS, ids=["standard", "black-first", "reversed"])
def test_601a10_a_schematic_draws_every_number_in_its_wheel_colour(wheel):
    drawing = layout_drawing(wheel, title="Main floor")

    boxes = _numbered(drawing)

    assert sorted(int(number) for number, _ in boxes) == list(jinzi.NUMBERS)
    for number, box in boxes:
        assert isinstance(box, Rect)
        assert FILL[box.fillColor] == wheel.color(int(number)).value, number
    assert drawing.width <= 540


def test_601a10_a_schematic_lays_0_above_four_rows_of_three():
    boxes = dict(_numbered(layout_drawing(jinzi.Wheel.standard(), title="Main floor")))

    zero = boxes["0"]
    for r, row in enumerate(jinzi.LAYOUT_ROWS):
        for c, number in enumerate(row):
            box = boxes[str(number)]
            assert box.y + box.height <= zero.y, number  # below 0
            below = jinzi.LAYOUT_ROWS[r + 1][c] if r + 1 < len(jinzi.LAYOUT_ROWS) else None
            if below is not None:
                assert boxes[str(below)].y < box.y and boxes[str(below)].x == box.x
            if c:
                assert boxes[str(row[c - 1])].x < box.x and boxes[str(row[c - 1])].y == box.y
    # 0 spans the three columns.
    assert zero.x == boxes["1"].x
    assert zero.x + zero.width == boxes["3"].x + boxes["3"].width


def test_617b8_d_schematic_shows_the_column_and_outside_boxes_and_names_the_layout():
    texts = [
        node.text
        for node in layout_drawing(jinzi.Wheel.standard(), title="Lobby layout v2").getContents()
        for node in ([node] if isinstance(node, String) else node.contents)
        if isinstance(node, String)
    ]

    for label in ("Column 1", "Column 2", "Column 3", "Small (1–6)", "Red", "Black"):
        assert texts.count(label) == 1, label
    assert "Big (7–12)" in texts
    assert "Lobby layout v2" in texts


@pytest.mark.parametrize("wheel", WHEELS, ids=["standard", "black-first", "reversed"])
def test_617b8_c_wheel_drawing_has_13_wedges_clockwise_from_0_at_the_top(wheel):
    wedges = _numbered(wheel_drawing(wheel, title="Main floor"))

    assert sorted(int(number) for number, _ in wedges) == list(jinzi.NUMBERS)
    # Clockwise from the top: the angle from 12 o'clock, turning right, of each wedge's middle.
    turned = {
        int(number): (90 - (w.startangledegrees + w.endangledegrees) / 2) % 360
        for number, w in wedges
    }
    assert turned[0] == pytest.approx(0)
    assert sorted(turned, key=turned.get) == list(wheel.order)
    for number, wedge in wedges:
        assert isinstance(wedge, Wedge)
        assert wedge.endangledegrees - wedge.startangledegrees == pytest.approx(360 / 13)
        assert FILL[wedge.fillColor] == wheel.color(int(number)).value, number


def test_wedge_angle_turns_clockwise_from_the_top():
    assert wedge_angle(0) == 90
    assert wedge_angle(1) == pytest.approx(90 - 360 / 13)


@pytest.mark.parametrize(("first", "words"), [("red", "red first"), ("black", "black first")])
def test_617b8_c_wheel_caption_says_clockwise_from_0_and_which_colour_follows(first, words):
    drawing = wheel_drawing(jinzi.Wheel.of(list(jinzi.STANDARD_ORDER), first), title="Lobby")
    texts = [node.text for node in drawing.contents if isinstance(node, String)]

    assert "Lobby" in texts
    assert any(f"clockwise from 0; {words}" in text for text in texts)


@pytest.mark.parametrize("draw", [layout_drawing, wheel_drawing], ids=["layout", "wheel"])
@pytest.mark.parametrize("wheel", WHEELS, ids=["standard", "black-first", "reversed"])
def test_601a10_a_the_svg_holds_every_number_once_in_its_wheel_colour(draw, wheel):
    svg = drawing_svg(draw(wheel, title="Main floor"))

    fills = _svg_fills(svg)

    assert sorted(int(number) for number in fills) == list(jinzi.NUMBERS)
    for number, found in fills.items():
        expected = {"red": RED, "black": BLACK, "white": WHITE}[wheel.color(int(number)).value]
        assert found == [_rgb(expected)], number


def test_601a10_a_the_svg_is_the_same_bytes_each_time_it_is_built():
    wheel = jinzi.Wheel.of(list(jinzi.STANDARD_ORDER), "black")

    for draw in (layout_drawing, wheel_drawing):
        first = drawing_svg(draw(wheel, title="Main floor v3"))
        second = drawing_svg(draw(wheel, title="Main floor v3"))
        assert first == second
        assert first != drawing_svg(draw(wheel, title="Main floor v4"))


def test_the_svg_names_its_picture_and_sets_text_in_dejavu_sans():
    svg = drawing_svg(layout_drawing(jinzi.Wheel.standard(), title="Main floor <v1> & co"))
    root = ElementTree.fromstring(svg)

    assert root.find(f"{SVG}title").text == "Main floor <v1> & co: betting layout"
    description = root.find(f"{SVG}desc").text
    assert "red: 1, 3, 5, 8, 10, 12" in description and "black: 2, 4, 6, 7, 9, 11" in description
    styles = [text.get("style") for text in root.iter(f"{SVG}text")]
    assert styles and all("font-family: 'DejaVu Sans', sans-serif" in s for s in styles)
    assert b"<image" not in svg  # vector only, no picture inside


@pytest.mark.parametrize("draw", [layout_drawing, wheel_drawing], ids=["layout", "wheel"])
def test_601a10_a_the_pictures_embed_dejavu_sans_in_a_pdf(draw):
    pdf = renderPDF.drawToString(draw(jinzi.Wheel.standard(), title="Main floor § v1"))

    fonts = {
        str(font["/BaseFont"]).split("+")[-1]
        for page in PdfReader(io.BytesIO(pdf)).pages
        for font in page["/Resources"]["/Font"].get_object().values()
    }
    assert fonts == {"DejaVuSans", "DejaVuSans-Bold"}
