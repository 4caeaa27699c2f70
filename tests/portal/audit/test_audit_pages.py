import csv
import io

import pytest
from django.db import connection

from portal.accounts.services import holder_create
from portal.audit import triggers
from portal.audit.export import HEADER
from portal.audit.models import AuditEvent
from portal.compliance.services.layouts import layout_reject
from portal.core.csv_export import plain_header
from tests.portal.factories import make_layout
from tests.portal.page_helpers import field_errors, submitted_layout, text

pytestmark = pytest.mark.django_db


def _rows_shown(page: str) -> int:
    body = page[page.index('<table class="events cards">') : page.index("</table>")]
    return body.count("<tr>") - 1  # minus the header row


def _csv(response) -> list[list[str]]:
    content = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.reader(io.StringIO(content)))


@pytest.mark.parametrize("role", ["auditor", "officer", "superuser"])
def test_811a7_auditors_and_compliance_browse_the_trail(login, request, manager_a, holder_a, role):
    layout = make_layout(manager_a, holder_a)

    response = login(request.getfixturevalue(role)).get("/audit/")

    page = text(response)
    assert response.status_code == 200
    assert '<td data-label="What happened">Created</td>' in page
    assert f'href="/compliance/layouts/{layout.pk}/"' in page
    assert 'href="/audit/export.csv"' in page


@pytest.mark.parametrize("role", ["manager_a", "player"])
def test_managers_and_players_may_not_read_the_trail(login, request, role):
    client = login(request.getfixturevalue(role))

    for url in ("/audit/", "/audit/export.csv", "/audit/verify/"):
        response = client.get(url)
        assert response.status_code == 403
        assert "may not read the audit trail" in text(response)


def test_anonymous_visitors_are_sent_to_sign_in(client, db):
    for url in ("/audit/", "/audit/export.csv", "/audit/verify/"):
        assert client.get(url)["Location"].startswith("/accounts/login/?next=")


def test_the_trail_filters_by_action_actor_and_object(login, auditor, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)
    client = login(auditor)

    by_action = text(client.get("/audit/?action=layout."))
    by_actor = text(client.get("/audit/?actor=OFFICER"))
    by_object = text(client.get(f"/audit/?object_type=layout&object_id={layout.pk}"))

    assert '<td data-label="What happened">Submitted for review</td>' in by_action
    assert '<td data-label="What happened">Person added</td>' not in by_action
    assert "No activity for these filters." in by_actor  # the officer has not acted yet
    assert _rows_shown(by_object) == 2


def test_the_trail_filters_by_time_as_a_browser_sends_it(login, auditor):
    client = login(auditor)

    everything = text(client.get("/audit/?since=2020-01-01T00:00"))
    nothing = text(client.get("/audit/?since=2099-01-01T00:00"))

    assert '<td data-label="What happened">Person added</td>' in everything
    assert "No activity for these filters." in nothing


def test_a_bad_filter_value_is_refused_inline(login, auditor):
    response = login(auditor).get("/audit/?since=last+tuesday")

    assert response.status_code == 400
    assert "Enter a valid date/time" in field_errors(response, "id_since")


def test_the_trail_is_paginated_25_to_a_page(login, auditor):
    for number in range(30):
        holder_create(actor=None, name=f"Holder {number}", licence_number=f"L-{number}")
    client = login(auditor)  # signing in is an event too: count after it
    total = AuditEvent.objects.count()

    first = text(client.get("/audit/?action=holder."))
    second = text(client.get("/audit/?action=holder.&page=2"))

    assert _rows_shown(first) == 25
    assert _rows_shown(second) == 5
    assert "Page 2 of 2" in second
    assert 'href="?action=holder.&amp;page=2"' in first
    assert f"{total} in all" in text(client.get("/audit/"))


def test_811a7_the_export_is_a_csv_attachment_with_a_row_per_event(
    login, auditor, manager_a, holder_a
):
    make_layout(manager_a, holder_a)

    response = login(auditor).get("/audit/export.csv")

    rows = _csv(response)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="audit-trail-')
    assert rows[0] == [plain_header(key) for key in HEADER]  # in words, for a person
    assert rows[0][:2] == ["Sequence", "Occurred at (UTC)"]
    assert len(rows) == 1 + AuditEvent.objects.count()
    assert [int(row[0]) for row in rows[1:]] == sorted(int(row[0]) for row in rows[1:])


def test_811a7_the_export_uses_the_filters_on_the_page(login, auditor, manager_a, holder_a):
    make_layout(manager_a, holder_a)

    rows = _csv(login(auditor).get("/audit/export.csv?action=layout.&page=3"))

    assert [row[3] for row in rows[1:]] == ["layout.create"]


def test_the_export_guards_against_formula_injection(login, auditor, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)
    layout_reject(actor=officer, layout=layout, reason='=HYPERLINK("http://x")')

    rows = _csv(login(auditor).get("/audit/export.csv?action=layout.reject"))

    reason = rows[1][HEADER.index("reason")]
    assert reason == '\'=HYPERLINK("http://x")'


def test_811a7_verify_reports_an_intact_chain(login, auditor, manager_a, holder_a):
    make_layout(manager_a, holder_a)
    client = login(auditor)
    count = AuditEvent.objects.count()

    page = text(client.get("/audit/verify/"))

    assert "Intact." in page
    assert f"{count} events verified" in page


def test_811a7_verify_reports_where_the_chain_is_broken(login, auditor, manager_a, holder_a):
    make_layout(manager_a, holder_a)
    victim = AuditEvent.objects.get(action="layout.create")
    # An attacker with database rights lifts the triggers and edits an event.
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET reason = %s WHERE id = %s", ["forged", victim.pk]
        )
    triggers.install(connection)

    response = login(auditor).get("/audit/verify/")

    page = text(response)
    assert response.status_code == 200
    assert f"at event #{victim.sequence}" in page
    assert "the event was altered" in page
    assert "Intact." not in page


def test_the_trail_search_finds_the_words_its_list_shows(login, auditor, manager_a, holder_a):
    submitted_layout(manager_a, holder_a)
    client = login(auditor)
    client.get("/audit/")  # the auditor's own sign-in is in the trail

    found = {
        words: text(client.get("/audit/", {"q": words}))
        for words in ("Submitted for review", "submitted", "Signed in", "nothing-like-it")
    }

    for words in ("Submitted for review", "submitted"):
        assert '<td data-label="What happened">Submitted for review</td>' in found[words]
        assert '<td data-label="What happened">Person added</td>' not in found[words]
    assert "No activity for these filters." in found["nothing-like-it"]
    assert _rows_shown(found["Signed in"]) >= 1
    assert '<td data-label="What happened">Submitted for review</td>' not in found["Signed in"]
