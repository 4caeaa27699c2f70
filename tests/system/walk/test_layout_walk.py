"""Phone and desk: at phone width (375 px) the header's menu is folded behind its "Menu"
button and opens on a click; at desk width (1280 px) the sections sit on one line; a
player's table keeps each cell's label on the rows a spin adds at phone width; and a
replay never puts a stake over a spot's label, at either width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.game.models import Round
from tests.portal.browser import needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

PHONE = {"width": 375, "height": 812}
DESK = {"width": 1280, "height": 900}

# The rectangles of the visible stakes and labels on a replay's layout, and how many of the
# stakes overlap a label.
OVERLAPS = """() => {
  const boxes = (css) => [...document.querySelectorAll(css)]
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
  const stakes = boxes(".replay .spot .stake");
  const labels = boxes(".replay .spot .label");
  const apart = (a, b) => a.right - 0.5 <= b.left || b.right - 0.5 <= a.left
    || a.bottom - 0.5 <= b.top || b.bottom - 0.5 <= a.top;
  const hits = stakes.filter((a) => labels.some((b) => !apart(a, b)));
  return {stakes: stakes.length, labels: labels.length, hits: hits.length};
}"""


def _menu(page):
    return page.get_by_role("button", name="Menu")


def test_the_menu_folds_at_phone_width_and_the_sections_keep_one_line_at_desk_width(
    walk, axe, officer, manager_a, live_offering
):
    page = walk.page
    page.set_viewport_size(DESK)
    walk.sign_in(officer.username)
    walk.open("/regulation/")
    nav = page.get_by_role("navigation", name="Main")
    links = page.locator(".nav-links a")
    expect(_menu(page)).to_be_hidden()  # nothing to fold at desk width
    tops = {round(box["y"]) for box in (links.nth(i).bounding_box() for i in range(links.count()))}
    one_line = links.first.bounding_box()["height"]
    assert len(tops) == 1, f"the sections take {len(tops)} lines at 1280 px"
    assert page.locator(".nav-links").bounding_box()["height"] < 2 * one_line
    walk.shot("desk-one-line")
    axe.check("desk")

    page.set_viewport_size(PHONE)
    expect(_menu(page)).to_be_visible()
    expect(_menu(page)).to_have_attribute("aria-expanded", "false")
    expect(nav).to_be_hidden()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at phone width"
    walk.shot("phone-menu-folded")

    _menu(page).click()
    expect(_menu(page)).to_have_attribute("aria-expanded", "true")
    expect(nav).to_be_visible()
    expect(nav.get_by_role("link", name="Regulation")).to_be_visible()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    walk.shot("phone-menu-open")
    axe.check("phone-menu-open")

    page.keyboard.press("Escape")  # closes it, the focus back on its button
    expect(_menu(page)).to_have_attribute("aria-expanded", "false")
    expect(_menu(page)).to_be_focused()
    _menu(page).click()
    nav.get_by_role("link", name="Layouts").click()
    expect(page.get_by_role("heading", name="Layouts", level=1)).to_be_visible()
    expect(nav).to_be_hidden()  # a new page starts with it folded

    # The manager's sections fit one line at desk width too.
    page.set_viewport_size(DESK)
    walk.sign_out()
    walk.sign_in(manager_a.username)
    links = page.locator(".nav-links a")
    tops = {round(box["y"]) for box in (links.nth(i).bounding_box() for i in range(links.count()))}
    assert len(tops) == 1
    walk.shot("desk-manager")
    axe.assert_no_serious_violations()


def test_a_players_new_rows_keep_their_labels_at_phone_width_and_the_replay_no_chip_over_a_label(
    walk, funded_player, live_offering
):
    page = walk.page
    walk.sign_in(funded_player.username)
    page.set_viewport_size(PHONE)
    walk.open(f"/play/{live_offering.pk}/")
    page.locator('input[name="chip"]').last.check(force=True)  # the largest chip
    layout = page.get_by_role("group", name="Betting layout")
    for spot in (".spot.number", ".spot.outside", ".spot.edge", ".spot.corner"):
        layout.locator(spot).first.click()
    walk.shot("phone-bets")

    page.get_by_role("button", name="Confirm bets and spin").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Round #\d+: \d+"), level=2)
    ).to_be_visible()
    played = Round.objects.get()
    row = page.locator(".recent table.rounds tbody tr").first
    expect(row).to_contain_text(f"#{played.pk}")
    labels = row.locator("td").evaluate_all(
        """cells => cells.map(td => [td.dataset.label || "",
            getComputedStyle(td, '::before').content, td.textContent.trim()])"""
    )
    headers = ["Round", "Ended", "Outcome", "Staked", "Returned", "Balance after"]
    assert [label for label, _, _ in labels[: len(headers)]] == headers
    assert [shown for _, shown, _ in labels[: len(headers)]] == [f'"{h}"' for h in headers]
    older = page.locator(".recent table.rounds tbody tr").nth(1)
    assert older.count() == 0  # the first game: the row is the script's, not the page's
    walk.shot("phone-new-row-labelled")

    row.get_by_role("link", name=f"Replay game #{played.pk}").click()
    expect(page.get_by_text("not a new game")).to_be_visible()
    # The text shows before the replay's stylesheet has arrived from a busy server: measure
    # only once its rules are in force, or the stakes are measured where no rule placed them.
    page.wait_for_load_state("load")
    page.wait_for_function(
        "[...document.styleSheets].some((s) => (s.href || '').includes('/replay')"
        " && s.cssRules.length > 0)"
    )
    for width, viewport in (("phone", PHONE), ("desk", DESK)):
        page.set_viewport_size(viewport)
        found = page.evaluate(OVERLAPS)
        assert found["stakes"] >= 2 and found["labels"] >= 13, found
        assert found["hits"] == 0, f"a stake covers a label at {width} width: {found}"
        walk.shot(f"replay-{width}")
    placed = page.locator(".replay .spot.placed")
    expect(placed).to_have_count(len(played.bets.all()))
