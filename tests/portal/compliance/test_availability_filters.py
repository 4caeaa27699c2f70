"""The game availability log's filters (§ 811a.7(f)): openings and closings both unless one
kind is asked; the holder and the table chosen by name among those the user may see; a
value it cannot read is a 400 with its error, on the page and in the API alike."""

from __future__ import annotations

import re

import pytest

from portal.compliance.services.layouts import layout_withdraw
from tests.portal.factories import approved_offering
from tests.portal.page_helpers import field_errors, text

pytestmark = pytest.mark.django_db


def _changes(page: str) -> list[tuple[str, str]]:
    """Each row's table and change, in order."""
    return re.findall(
        r'<td data-label="Table"><a [^>]+>([^<]+)</a></td>.*?'
        r'<td data-label="Change"><span class="badge \w+">(\w+)</span></td>',
        page,
        re.S,
    )


@pytest.fixture
def opened_and_closed(live_offering, officer):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")
    return live_offering


def test_811a7f_the_log_shows_openings_and_closings_unless_one_kind_is_asked(
    login, auditor, opened_and_closed
):
    client = login(auditor)

    default = text(client.get("/compliance/availability/"))
    either = text(client.get("/compliance/availability/?opened=any"))
    opened = text(client.get("/compliance/availability/?opened=true"))
    closed = text(client.get("/compliance/availability/?opened=false"))

    assert sorted(change for _, change in _changes(default)) == ["Closed", "Opened"]
    assert _changes(either) == _changes(default)
    assert [change for _, change in _changes(opened)] == ["Opened"]
    assert [change for _, change in _changes(closed)] == ["Closed"]
    # The select opens on either kind: its first choice, shown when none is asked.
    select = re.search(r'<select name="opened" id="id_opened">\s*<option [^>]*>([^<]+)', default)
    assert select.group(1) == "Opened or closed"


def test_811a7f_the_holder_and_the_table_are_chosen_by_name(
    login, auditor, manager_b, officer, holder_a, holder_b, live_offering
):
    theirs = approved_offering(manager_b, officer, holder_b, name="River table")
    client = login(auditor)

    page = text(client.get("/compliance/availability/"))
    by_holder = text(client.get(f"/compliance/availability/?holder={holder_b.pk}"))
    by_table = text(client.get(f"/compliance/availability/?offering={live_offering.pk}"))

    assert f'<option value="{holder_a.pk}">Keystone Casino (PA-001)</option>' in page
    assert f'<option value="{holder_b.pk}">Susquehanna Gaming (PA-002)</option>' in page
    assert f'<option value="{theirs.pk}">River table (Susquehanna Gaming)</option>' in page
    assert 'name="holder" type="number"' not in page and 'type="number"' not in page
    assert [table for table, _ in _changes(by_holder)] == ["River table"]
    assert [table for table, _ in _changes(by_table)] == [live_offering.name]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("opened=maybe", "id_opened"),
        ("holder=abc", "id_holder"),
        ("holder=99999", "id_holder"),
        ("offering=1.5", "id_offering"),
    ],
)
def test_811a7f_a_filter_value_the_log_cannot_read_is_a_400_with_its_error(
    login, auditor, opened_and_closed, query, field
):
    response = login(auditor).get(f"/compliance/availability/?{query}")

    assert response.status_code == 400
    assert "Select a valid choice" in field_errors(response, field)
    assert _changes(text(response)) == []


def test_811a7f_the_api_reads_the_same_names_by_id(
    login, auditor, opened_and_closed, holder_a, holder_b
):
    client = login(auditor)

    either = client.get("/api/availability/?opened=any")
    opened = client.get("/api/availability/?opened=true")
    by_holder = client.get(f"/api/availability/?holder={holder_a.pk}")
    other_holder = client.get(f"/api/availability/?holder={holder_b.pk}")
    by_table = client.get(f"/api/availability/?offering={opened_and_closed.pk}")
    refused = [
        client.get(f"/api/availability/?{query}").status_code
        for query in ("opened=maybe", "holder=abc", "offering=1.5")
    ]

    assert either.json()["count"] == 2
    assert opened.json()["count"] == 1
    assert by_holder.json()["count"] == by_table.json()["count"] == 2
    assert other_holder.json()["count"] == 0
    assert refused == [400, 400, 400]
