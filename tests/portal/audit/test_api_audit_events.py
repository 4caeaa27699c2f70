import csv
import io

import pytest
from django.db import connection

from portal.access import policy
from portal.audit import triggers
from portal.audit.api.views import EXPORT_FILENAME
from portal.audit.export import HEADER
from portal.audit.models import AuditEvent
from tests.portal.factories import events_written, make_paytable

pytestmark = pytest.mark.django_db

URL = "/api/audit-events/"


def _csv(response) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.reader(io.StringIO(body)))


def test_811a7_api_lists_the_trail_newest_first_with_its_hashes(api_as, auditor, manager_a):
    response = api_as(auditor).get(URL)

    assert response.status_code == 200
    rows = response.json()["results"]
    assert [row["sequence"] for row in rows] == sorted((r["sequence"] for r in rows), reverse=True)
    newest = AuditEvent.objects.order_by("-sequence").first()
    assert rows[0]["hash"] == newest.hash and rows[0]["prev_hash"] == newest.prev_hash
    assert rows[0]["action"] == newest.action


def test_811a7_api_filters_the_trail(api_as, officer, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    by_action = api_as(officer).get(URL, {"action": "paytable."}).json()
    by_object = (
        api_as(officer).get(URL, {"object_type": "paytable", "object_id": str(paytable.pk)}).json()
    )
    by_actor = api_as(officer).get(URL, {"actor": "MANAGER_A"}).json()
    bad = api_as(officer).get(URL, {"since": "yesterday"})

    assert [row["action"] for row in by_action["results"]] == ["paytable.create"]
    assert by_object["count"] == 1
    assert [row["object_id"] for row in by_actor["results"]] == [str(paytable.pk)]
    assert bad.status_code == 400
    assert "since" in bad.json()["errors"]


def test_811a7_api_retrieves_one_event_with_before_and_after(api_as, auditor, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    event = AuditEvent.objects.get(action="paytable.create")

    body = api_as(auditor).get(f"{URL}{event.pk}/").json()

    assert body["after"]["name"] == paytable.name
    assert (body["before"], body["actor_username"]) == (None, "manager_a")


def test_811a7_api_exports_the_filtered_trail_as_csv_oldest_first(
    api_as, auditor, manager_a, holder_a
):
    make_paytable(manager_a, holder_a, name="First")
    make_paytable(manager_a, holder_a, name="Second")

    response = api_as(auditor).get(f"{URL}export/", {"action": "paytable.create"})

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{EXPORT_FILENAME}"'
    header, *rows = _csv(response)
    assert tuple(header) == HEADER and "occurred_at_utc" in header
    assert [row[HEADER.index("action")] for row in rows] == ["paytable.create"] * 2
    sequences = [int(row[0]) for row in rows]
    assert sequences == sorted(sequences)


def test_811a7_api_export_answers_a_client_that_accepts_only_csv(api_as, auditor, manager_a):
    client = api_as(auditor)

    ok = client.get(f"{URL}export/", HTTP_ACCEPT="text/csv")
    bad_filter = client.get(f"{URL}export/", {"since": "soon"}, HTTP_ACCEPT="text/csv")

    assert ok.status_code == 200
    assert len(_csv(ok)) == AuditEvent.objects.count() + 1
    assert bad_filter.status_code == 400
    assert bad_filter["Content-Type"].startswith("text/csv")
    assert bad_filter.content.decode().startswith("detail\r\n")


def test_811a7_api_verifies_an_intact_chain(api_as, auditor, manager_a):
    response = api_as(auditor).get(f"{URL}verify/")

    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "checked": AuditEvent.objects.count(),
        "broken_sequence": None,
        "broken_id": None,
        "problem": "",
    }


def test_811a7_api_verify_names_an_altered_event(api_as, auditor, manager_a, holder_a):
    make_paytable(manager_a, holder_a)
    second = AuditEvent.objects.get(sequence=2)
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditevent SET reason = 'forged' WHERE id = %s", [second.pk])
    triggers.install(connection)

    body = api_as(auditor).get(f"{URL}verify/", {"action": "ignored"}).json()

    assert (body["ok"], body["broken_sequence"], body["broken_id"]) == (False, 2, second.pk)
    assert "altered" in body["problem"]


@pytest.mark.parametrize("who", ["manager_a", "player"])
def test_only_compliance_auditors_and_superusers_read_the_trail(api_as, request, who):
    client = api_as(request.getfixturevalue(who))

    responses = [client.get(path) for path in (URL, f"{URL}export/", f"{URL}verify/")]

    assert [r.status_code for r in responses] == [403, 403, 403]
    assert responses[0].json()["detail"] == policy.WRONG_ROLE.format(action="read the audit trail")


def test_the_trail_cannot_be_written_through_the_api(api_as, superuser, manager_a):
    client = api_as(superuser)
    event = AuditEvent.objects.first()
    events = events_written()

    responses = [
        client.post(URL, {"action": "forged"}, format="json"),
        client.patch(f"{URL}{event.pk}/", {"reason": "forged"}, format="json"),
        client.delete(f"{URL}{event.pk}/"),
    ]

    assert [r.status_code for r in responses] == [405, 405, 405]
    assert events_written() == events
