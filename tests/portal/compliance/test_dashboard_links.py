"""Each count on the dashboard opens the list it counts: followed, the list shows exactly
those records, for the user as the dashboard counted them."""

from __future__ import annotations

import html
import re

import pytest

from tests.portal.factories import make_layout, make_paytable
from tests.portal.page_helpers import approve_layout, submitted_layout, text

pytestmark = pytest.mark.django_db

KINDS = ("Layouts", "Paytables", "Rules submissions", "Terms and conditions")
GROUPS = ("Awaiting decision", "Changes requested", "Drafts", "Approved")


def _count_links(page: str) -> dict[tuple[str, str], tuple[int, str]]:
    """Each (kind, group) of the counts table: its number and where it links."""
    table = page[page.index('<table class="counts">') : page.index("</table>")]
    links = {}
    for kind, cells in re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', table):
        found = re.findall(r'<td[^>]*><a href="([^"]+)">(\d+)<span', cells)
        for group, (url, number) in zip(GROUPS, found, strict=True):
            links[(kind, group)] = (int(number), html.unescape(url))
    return links


def _rows_listed(page: str) -> int:
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return len(re.findall(r'<td data-label="Title">', body))


@pytest.mark.parametrize("user", ["officer", "manager_a"])
def test_each_count_opens_the_list_of_exactly_what_it_counts(
    login, request, manager_a, manager_b, officer, holder_a, holder_b, user
):
    submitted_layout(manager_a, holder_a, title="Waiting one")
    submitted_layout(manager_a, holder_a, title="Waiting two")
    approve_layout(officer, submitted_layout(manager_a, holder_a, title="Approved one"))
    make_layout(manager_a, holder_a, title="A draft")
    make_paytable(manager_a, holder_a, name="Draft paytable")
    submitted_layout(manager_b, holder_b, title="Another holder's")
    client = login(request.getfixturevalue(user))

    links = _count_links(text(client.get("/compliance/")))

    assert set(links) == {(kind, group) for kind in KINDS for group in GROUPS}
    assert links[("Layouts", "Awaiting decision")] == (
        3 if user == "officer" else 2,
        "/compliance/layouts/?status=submitted",
    )
    assert links[("Paytables", "Drafts")] == (1, "/compliance/paytables/?status=draft")
    for (kind, group), (number, url) in links.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert _rows_listed(text(response)) == number, (kind, group)
