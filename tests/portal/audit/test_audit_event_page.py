"""An audit event's own page, and the trail naming objects by their titles (§ 811a.7)."""

from __future__ import annotations

import re

import pytest

from portal.accounts.services import holder_create
from portal.audit.models import AuditEvent
from portal.audit.presenters import field_changes, load_names
from portal.compliance.services.layouts import layout_update
from tests.portal.factories import (
    STANDARD_ORDER,
    make_layout,
    make_offering,
    make_paytable,
    make_rules,
)
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

# Django's session and user, the user's groups and holder, the page's count and its rows.
LIST_QUERIES = 6  # with the header's unread-notification count
# The names of the people who acted, in one query.
PEOPLE_QUERY = 1
TITLED_KINDS = ("layout", "paytable", "rules_submission", "offering")


def _row(page: str, label: str) -> str:
    """The before/after table's row labelled ``label``, whole."""
    match = re.search(
        rf'<tr[^>]*>\s*<th scope="row">{re.escape(label)}(<span.*?)?</th>.*?</tr>', page, re.S
    )
    assert match, f"no row for {label}"
    return match.group(0)


def _cells(row: str) -> list[str]:
    return re.findall(r'<td class="value">(.*?)</td>', row, re.S)


def _event(action: str) -> AuditEvent:
    return AuditEvent.objects.filter(action=action).order_by("-sequence").first()


def test_811a7_an_auditor_sees_an_events_before_and_after_with_changes_marked(
    login, auditor, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a, title="Main floor")
    layout_update(actor=manager_a, layout=layout, title="High-limit room")
    event = _event("layout.update")

    response = login(auditor).get(f"/audit/events/{event.pk}/")

    page = text(response)
    assert response.status_code == 200
    assert f"<h1>Audit event #{event.sequence}</h1>" in page
    title = _row(page, "Title")
    assert 'class="changed"' in title
    assert '<span class="visually-hidden"> (changed)</span>' in title
    assert _cells(title) == ["Main floor", "High-limit room"]
    wheel = _row(page, "Wheel order")  # unchanged fields are shown, not marked; lists listed
    assert 'class="changed"' not in wheel
    assert _cells(wheel) == [", ".join(map(str, STANDARD_ORDER))] * 2
    assert page.count('class="changed"') == len(
        [
            row
            for row in field_changes(event.before, event.after, load_names([event]))
            if row.changed
        ]
    )


def test_811a7_the_event_page_shows_who_when_what_why_and_its_place_in_the_chain(
    login, auditor, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a, title="Main floor")
    event = _event("layout.create")

    page = text(login(auditor).get(f"/audit/events/{event.pk}/"))

    assert re.search(r"<dd>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d E[SD]T</dd>", page)
    assert "<dd>manager_a</dd>" in page  # no full name: their username
    assert "<dd>Created</dd>" in page
    assert f'<a href="/compliance/layouts/{layout.pk}/">Layout “Main floor” v1</a>' in page
    assert f'<code class="hash">{event.prev_hash}</code>' in page
    assert f'<code class="hash">{event.hash}</code>' in page
    # A creation has an after only: nothing to compare, so nothing is marked.
    assert "No before: the event records the object as it was after." in page
    assert 'class="changed"' not in page
    assert _cells(_row(page, "Title")) == [
        '<span class="muted">—<span class="visually-hidden"> not recorded</span></span>',
        "Main floor",
    ]


def test_811a7_an_event_links_to_the_events_before_and_after_it(login, auditor, holder_a):
    client = login(auditor)  # signing in is an event too: a third one
    first, middle, last = AuditEvent.objects.order_by("sequence")[:3]

    page = text(client.get(f"/audit/events/{middle.pk}/"))
    oldest = text(client.get(f"/audit/events/{first.pk}/"))

    assert f'<a href="/audit/events/{first.pk}/" rel="prev">← #{first.sequence}</a>' in page
    assert f'<a href="/audit/events/{last.pk}/" rel="next">#{last.sequence} →</a>' in page
    assert 'rel="prev"' not in oldest


def test_an_unknown_event_is_404(login, auditor):
    missing = (AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 99

    assert login(auditor).get(f"/audit/events/{missing}/").status_code == 404


@pytest.mark.parametrize("role", ["player", "manager_a"])
def test_players_and_managers_may_not_open_an_event(login, request, role):
    client = login(request.getfixturevalue(role))
    event = AuditEvent.objects.order_by("sequence").first()

    response = client.get(f"/audit/events/{event.pk}/")

    assert response.status_code == 403
    assert "may not read the audit trail" in text(response)


def test_anonymous_visitors_are_sent_to_sign_in_for_an_event(client, holder_a):
    event = AuditEvent.objects.order_by("sequence").first()

    response = client.get(f"/audit/events/{event.pk}/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/audit/events/")


def test_811a7_the_trail_names_objects_by_title_and_links_each_event(
    login, auditor, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a, title="Main floor")
    paytable = make_paytable(manager_a, holder_a, name="High odds")
    rules = make_rules(manager_a, holder_a, paytable, layout, title="House rules")
    offering = make_offering(manager_a, holder_a, rules, layout, paytable, name="Table 7")

    page = text(login(auditor).get("/audit/"))

    assert f'<a href="/compliance/layouts/{layout.pk}/">Layout “Main floor” v1</a>' in page
    assert f'<a href="/compliance/paytables/{paytable.pk}/">Paytable “High odds” v1</a>' in page
    assert f'<a href="/compliance/rules/{rules.pk}/">Rules submission “House rules” v1</a>' in page
    assert f'<a href="/compliance/offerings/{offering.pk}/">Offering “Table 7”</a>' in page
    assert "Holder “Keystone Casino”" in page  # no page of its own: named from its event
    assert f"layout {layout.pk}" not in page
    for event in AuditEvent.objects.order_by("-sequence")[:25]:
        assert f'<a href="/audit/events/{event.pk}/">' in page


def test_811a7_the_trail_costs_one_query_per_kind_of_titled_record(
    login, django_assert_num_queries, auditor, manager_a, holder_a
):
    for number in range(5):
        holder_create(actor=None, name=f"Holder {number}", licence_number=f"L-{number}")
        layout = make_layout(manager_a, holder_a, title=f"Layout {number}")
        paytable = make_paytable(manager_a, holder_a, name=f"Paytable {number}")
        rules = make_rules(manager_a, holder_a, paytable, layout, title=f"Rules {number}")
        make_offering(manager_a, holder_a, rules, layout, paytable, name=f"Table {number}")
    client = login(auditor)
    shown = list(AuditEvent.objects.order_by("-sequence")[:25])
    assert len(shown) == 25
    assert {event.object_type for event in shown} >= {*TITLED_KINDS, "holder", "user"}

    with django_assert_num_queries(LIST_QUERIES + PEOPLE_QUERY + len(TITLED_KINDS)):
        response = client.get("/audit/")

    page = text(response)
    assert response.status_code == 200
    assert page.count('<a href="/audit/events/') == 25
    assert "Offering “Table 4”" in page and "Layout “Layout 4” v1" in page


def test_before_and_after_that_are_not_objects_show_as_one_value_in_words():
    from portal.audit.presenters import Names

    rows = field_changes([1, 2], {"a": {"b": None}}, Names())

    assert [(row.label, row.before, row.after, row.changed) for row in rows] == [
        ("Value", "1, 2", None, True),
        ("A: B", None, "—", True),
    ]
