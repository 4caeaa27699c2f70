"""§ 617b.8(d)'s betting layout on a phone (390 px) and at a desk (1280 px): each of the 52 bet
spots is a target of at least 24 × 24 CSS px (WCAG 2.2, 2.5.8), no spot's box overlaps
another's, a tap at a spot's centre lands on that spot, the layout still reads as the table
(0 above four rows of three, each split, corner and street between or beside its numbers),
the page never scrolls sideways, and every spot is reached from the keyboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import jinzi
from portal.game.models import Round
from tests.portal.browser import axe_source, needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
TARGET = 24  # CSS px, WCAG 2.2 success criterion 2.5.8 (Target Size, Minimum)
SLIVER = 0.5  # px two boxes may share at an edge, from rounding, without overlapping

# Each spot of the betting layout: its box in page coordinates and what a tap at its centre,
# scrolled into view, lands on.
SPOTS = """() => {
  const layout = document.querySelector('[role="group"][aria-label="Betting layout"]');
  return [...layout.querySelectorAll("button.spot")].map((spot) => {
    spot.scrollIntoView({block: "center", inline: "center"});
    const r = spot.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const landed = hit && hit.closest("button.spot");
    return {
      spot: spot.dataset.spot, kind: spot.dataset.kind,
      left: r.left + window.scrollX, top: r.top + window.scrollY, width: r.width,
      height: r.height, tapped: landed ? landed.dataset.spot : null,
    };
  });
}"""

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

# axe-core's own Target Size rule (WCAG 2.2 AA; off by default), on the layout alone.
AXE_TARGET_SIZE = """async () => {
  const found = await axe.run(
    {include: [['[role="group"][aria-label="Betting layout"]']]},
    {runOnly: {type: "rule", values: ["target-size"]}, resultTypes: ["violations"]});
  return found.violations.flatMap((rule) => rule.nodes.map((node) => node.target.join(" ")));
}"""


def _centre(box: dict) -> tuple[float, float]:
    return box["left"] + box["width"] / 2, box["top"] + box["height"] / 2


def _overlap(a: dict, b: dict) -> tuple[float, float]:
    across = min(a["left"] + a["width"], b["left"] + b["width"]) - max(a["left"], b["left"])
    down = min(a["top"] + a["height"], b["top"] + b["height"]) - max(a["top"], b["top"])
    return across, down


def _assert_reads_as_the_table(boxes: dict[str, dict]) -> None:
    """The geometry of § 617b.8(d): 0 above four rows of 1–12 in three columns; a split or a
    corner where its numbers meet, a street beside its row, the zero's splits and
    three-number bets between 0 and the first row, each column's box under it, the outside
    bets in a row under all."""

    def number(n: int) -> dict:
        return boxes[f"straight:{n}"]

    def right(box: dict) -> float:
        return box["left"] + box["width"]

    def bottom(box: dict) -> float:
        return box["top"] + box["height"]

    for n in range(1, 13):
        x, y = _centre(number(n))
        if n % 3:  # the next number of the row sits to its right, on the same line
            assert right(number(n)) <= number(n + 1)["left"] + SLIVER
            assert abs(_centre(number(n + 1))[1] - y) < 1
        if n <= 9:  # the number three on sits below it, in the same column
            assert bottom(number(n)) <= number(n + 3)["top"] + SLIVER
            assert abs(_centre(number(n + 3))[0] - x) < 1
    zero = boxes["straight:0"]
    assert bottom(zero) <= number(1)["top"]
    assert zero["left"] <= number(1)["left"] + SLIVER
    assert right(zero) >= right(number(3)) - SLIVER
    for wager in jinzi.legal_wagers():
        box, numbers = boxes[wager.spot], wager.numbers
        x, y = _centre(box)
        if wager.kind in ("split", "three_numbers") and numbers[0] == 0:
            # In the strip between 0 and 1-2-3: over its number, or where two of them meet.
            assert bottom(zero) - SLIVER <= box["top"], wager.spot
            assert bottom(box) <= number(1)["top"] + SLIVER, wager.spot
            beside = [_centre(number(n))[0] for n in numbers[1:]]
            assert abs(x - sum(beside) / len(beside)) < 1, wager.spot
        elif wager.kind in ("split", "corner"):
            # Where its numbers meet: the middle of their centres, between their boxes.
            centres = [_centre(number(n)) for n in numbers]
            assert abs(x - sum(cx for cx, _ in centres) / len(centres)) < 1, wager.spot
            assert abs(y - sum(cy for _, cy in centres) / len(centres)) < 1, wager.spot
        elif wager.kind == "street":
            assert right(box) <= number(numbers[0])["left"] + SLIVER, wager.spot
            assert abs(y - _centre(number(numbers[0]))[1]) < 1, wager.spot
        elif wager.kind == "column":
            last = number(numbers[-1])
            assert bottom(last) <= box["top"] + SLIVER, wager.spot
            assert abs(x - _centre(last)[0]) < 1, wager.spot
    columns = [boxes[f"column:{n}-{n + 3}-{n + 6}-{n + 9}"] for n in (1, 2, 3)]
    outside = [boxes[spot] for spot in ("small", "red", "black", "big")]
    for left, next_one in zip(outside, outside[1:], strict=False):
        assert right(left) <= next_one["left"] + SLIVER
        assert abs(next_one["top"] - left["top"]) < 1
    assert all(bottom(column) <= outside[0]["top"] + SLIVER for column in columns)


def _measure(page, width: str) -> dict[str, dict]:
    """Every spot of the layout, with the checks that hold at any width."""
    found = page.evaluate(SPOTS)
    page.evaluate("window.scrollTo(0, 0)")
    assert len(found) == len(jinzi.legal_wagers()) == 52, f"{len(found)} spots at {width}"
    boxes = {spot["spot"]: spot for spot in found}
    assert set(boxes) == {wager.spot for wager in jinzi.legal_wagers()}
    small = [
        f"{spot['spot']} {spot['width']:.1f}×{spot['height']:.1f}"
        for spot in found
        if spot["width"] < TARGET or spot["height"] < TARGET
    ]
    assert not small, f"spots under {TARGET}×{TARGET} px at {width}: {small}"
    overlapping = [
        f"{a['spot']} and {b['spot']}"
        for i, a in enumerate(found)
        for b in found[i + 1 :]
        if min(_overlap(a, b)) > SLIVER
    ]
    assert not overlapping, f"spots overlapping at {width}: {overlapping}"
    missed = [
        f"{spot['spot']} → {spot['tapped']}" for spot in found if spot["tapped"] != spot["spot"]
    ]
    assert not missed, f"a tap at a spot's centre lands elsewhere at {width}: {missed}"
    _assert_reads_as_the_table(boxes)
    sideways = page.evaluate(SIDEWAYS)
    assert sideways <= 0, f"the page scrolls sideways by {sideways}px at {width}"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    assert page.evaluate(AXE_TARGET_SIZE) == [], f"axe-core's target-size rule at {width}"
    return boxes


def _tap_centre(page, spot) -> None:
    """A tap where a finger lands: the middle of the spot's box, as the page lays it out."""
    spot.scroll_into_view_if_needed()
    box = spot.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


# What it proves is the layout's size; the wagers themselves are proved elsewhere.
@pytest.mark.clause("617b.8(d)", kind="related")
def test_617b8_d_every_bet_spot_is_a_24px_target_at_390px_and_1280px(
    walk, funded_player, live_offering
):
    page = walk.page
    walk.sign_in(funded_player.username)
    page.set_viewport_size(PHONE)
    walk.open(f"/play/{live_offering.pk}/")
    layout = page.get_by_role("group", name="Betting layout")
    expect(layout).to_be_visible()
    page.wait_for_load_state("load")  # table.css in force before anything is measured
    _measure(page, "390 px")
    walk.shot("phone-layout")

    # Two of the spots that were too small to tap: a split and a corner, at their centres.
    page.get_by_role("radio", name="$5.00").check(force=True)
    # Found by the bet they place: a spot's name changes once a chip is on it.
    split = layout.locator('[data-spot="split:1-2"]')
    corner = layout.locator('[data-spot="corner:4-5-7-8"]')
    expect(split).to_have_accessible_name("Split 1-2")
    expect(corner).to_have_accessible_name("Corner 4-5-7-8")
    _tap_centre(page, split)
    _tap_centre(page, corner)
    expect(split).to_have_accessible_name("Split 1-2, $5.00 staked")
    expect(split.locator(".stake")).to_have_text("$5.00")
    expect(corner).to_have_accessible_name("Corner 4-5-7-8, $5.00 staked")
    expect(corner.locator(".stake")).to_have_text("$5.00")
    expect(page.get_by_text(re.compile(r"^Total staked:"))).to_contain_text("$10.00")
    walk.shot("phone-split-and-corner-staked")

    # Every spot is reached from the keyboard, in turn, and a key places a chip on one.
    layout.get_by_role("button", name="Straight up 0", exact=True).focus()
    reached = [page.evaluate("document.activeElement.dataset.spot")]
    for _ in range(51):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.dataset.spot"))
    assert sorted(reached) == sorted(wager.spot for wager in jinzi.legal_wagers())
    street = layout.locator('[data-spot="street:10-11-12"]')
    street.focus()
    page.keyboard.press("Enter")
    expect(street).to_have_accessible_name("Street 10-11-12, $5.00 staked")

    page.get_by_role("button", name="Confirm bets and spin").click()
    result = page.get_by_role("heading", name=re.compile(r"^Round #\d+: \d+"), level=2)
    expect(result).to_be_visible()
    played = Round.objects.get()
    assert sorted(bet.spot for bet in played.bets.all()) == [
        "corner:4-5-7-8",
        "split:1-2",
        "street:10-11-12",
    ]
    settled = page.locator("#result li")
    expect(settled.filter(has_text="Split 1-2: staked $5.00")).to_have_count(1)
    expect(settled.filter(has_text="Corner 4-5-7-8: staked $5.00")).to_have_count(1)
    walk.shot("phone-settled")

    page.set_viewport_size(DESK)
    _measure(page, "1280 px")
    walk.shot("desk-layout")
