"""Taking a copy of the audit trail (§ 811a.7) leaves a record in the trail itself."""

import csv
import io

import pytest
from django.test import Client
from rest_framework.test import APIClient

from portal.audit.chain import verify_stored
from portal.audit.export import HEADER
from portal.audit.models import AuditEvent
from portal.audit.services import EXPORTED
from portal.core.csv_export import plain_header
from tests.portal.factories import events_written, make_paytable

pytestmark = pytest.mark.django_db

DOORS = {"page": "/audit/export.csv", "api": "/api/audit-events/export/"}


@pytest.fixture
def signed_in():
    """``signed_in(door, user)``: a browser for the page, an API client for the API."""

    def client(door, user):
        signed = Client() if door == "page" else APIClient()
        signed.force_login(user)
        return signed

    return client


def _csv(response) -> list[dict[str, str]]:
    body = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.DictReader(io.StringIO(body)))


def _column(door, key: str) -> str:
    """A column's name in that door's CSV: in words for the page, the key for the API."""
    return plain_header(key) if door == "page" else key


@pytest.mark.parametrize("door", DOORS)
def test_811a7_an_export_records_who_took_which_part_of_the_trail(
    signed_in, door, auditor, manager_a, holder_a
):
    make_paytable(manager_a, holder_a)
    client = signed_in(door, auditor)  # the sign-in is an event too: the trail after it
    head = AuditEvent.objects.order_by("-sequence").first()

    response = client.get(
        DOORS[door], {"action": "paytable.", "actor": "manager_a", "object_id": ""}
    )

    assert response.status_code == 200
    record = AuditEvent.objects.order_by("-sequence").first()
    assert (record.action, record.actor_username, record.object_type) == (
        EXPORTED,
        "auditor",
        "audit_trail",
    )
    assert record.object_id == str(head.sequence)  # the trail as it stood
    assert record.after == {
        "filters": {"action": "paytable.", "actor": "manager_a"},  # blank ones left out
        "via": door,
        "format": "csv",
    }
    assert record.request_id == response["X-Request-ID"]
    # The copy holds what was asked for; the record of it is not a paytable event.
    assert [row[_column(door, "action")] for row in _csv(response)] == ["paytable.create"]
    assert verify_stored().ok


@pytest.mark.parametrize("door", DOORS)
def test_811a7_an_unfiltered_copy_includes_the_record_of_itself(signed_in, door, auditor):
    rows = _csv(signed_in(door, auditor).get(DOORS[door]))

    assert tuple(rows[0]) == tuple(_column(door, key) for key in HEADER)
    assert "occurred_at_utc" in HEADER
    assert rows[-1][_column(door, "action")] == EXPORTED
    assert int(rows[-1][_column(door, "sequence")]) == AuditEvent.objects.count()


@pytest.mark.parametrize("door", DOORS)
def test_811a7_a_refused_export_records_nothing(signed_in, door, auditor, manager_a, player):
    events = events_written()

    bad_filter = signed_in(door, auditor).get(DOORS[door], {"since": "soon"})
    wrong_roles = [signed_in(door, user).get(DOORS[door]) for user in (manager_a, player)]

    assert bad_filter.status_code == 400
    assert [r.status_code for r in wrong_roles] == [403, 403]
    assert events_written() == events


@pytest.mark.parametrize("door", DOORS)
def test_811a7_a_head_request_takes_no_copy_and_records_nothing(signed_in, door, auditor):
    events = events_written()

    response = signed_in(door, auditor).head(DOORS[door])

    assert response.status_code == 200
    assert events_written() == events
