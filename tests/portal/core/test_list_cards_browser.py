"""In a real Chromium: at phone width a list's rows become cards that fit the screen, each
cell named by its column; at desk width they stay a table. A header click sorts the list."""

from __future__ import annotations

import pytest

from tests.portal.browser import needs_chromium
from tests.portal.factories import PASSWORD, make_layout

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def _sign_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")


@pytest.fixture
def layouts(manager_a, holder_a):
    # Alpha first: the list's own order (newest change first) puts Bravo on top.
    for title in ("Alpha floor with a rather long title that would not fit", "Bravo floor"):
        make_layout(manager_a, holder_a, title=title)


def _cell(page):
    return page.eval_on_selector(
        "table.cards tbody td[data-label='Holder']",
        """td => ({
            display: getComputedStyle(td).display,
            label: getComputedStyle(td, '::before').content,
        })""",
    )


def test_at_phone_width_rows_are_cards_that_fit(page, live_server, officer, layouts):
    page.set_viewport_size({"width": 360, "height": 740})
    _sign_in(page, live_server, officer.username)

    page.goto(f"{live_server.url}/compliance/layouts/")

    assert _cell(page) == {"display": "grid", "label": '"Holder"'}
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at phone width"
    assert page.is_visible("th a.sort:text('Title')")  # sorting stays at hand


def test_at_desk_width_rows_stay_a_table(page, live_server, officer, layouts):
    page.set_viewport_size({"width": 1280, "height": 800})
    _sign_in(page, live_server, officer.username)

    page.goto(f"{live_server.url}/compliance/layouts/")

    assert _cell(page) == {"display": "table-cell", "label": "none"}


def test_a_header_click_sorts_and_a_second_reverses(page, live_server, officer, layouts):
    _sign_in(page, live_server, officer.username)
    page.goto(f"{live_server.url}/compliance/layouts/")

    unsorted = page.eval_on_selector_all(
        "td[data-label='Title'] a", "links => links.map(a => a.textContent)"
    )
    page.click("th a.sort:text('Title')")
    ascending = page.eval_on_selector_all(
        "td[data-label='Title'] a", "links => links.map(a => a.textContent)"
    )
    page.click("th a.sort:text('Title')")
    descending = page.eval_on_selector_all(
        "td[data-label='Title'] a", "links => links.map(a => a.textContent)"
    )

    assert unsorted[0] == "Bravo floor"
    assert ascending[0].startswith("Alpha") and descending[0] == "Bravo floor"
    assert page.get_attribute("th[aria-sort]", "aria-sort") == "descending"
