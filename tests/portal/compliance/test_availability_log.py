"""The game availability log (§ 811a.7(f)): every opening and closing of a table, when and
why, append-only and in the audit chain; actions log at once, the calendar at midnight."""

import csv
import datetime
import io

import pytest
import time_machine
from django.db import DatabaseError, connection, transaction

from portal.audit.chain import verify_stored
from portal.audit.models import AuditEvent
from portal.compliance.models import AvailabilityCause as Cause
from portal.compliance.models import AvailabilityChange
from portal.compliance.services.availability import availability_sweep
from portal.compliance.services.layouts import layout_withdraw
from portal.compliance.services.offerings import offering_retire
from portal.compliance.tasks import expire_due_records
from portal.core.csv_export import plain_header
from portal.core.padates import day_starts
from tests.portal.factories import offering_in_force

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
SUNSET = datetime.date(2028, 6, 14)


def utc(*parts):
    return datetime.datetime(*parts, tzinfo=UTC)


def log(offering):
    return list(
        AvailabilityChange.objects.filter(offering=offering)
        .order_by("at", "pk")
        .values_list("opened", "cause")
    )


def test_811a7f_a_table_set_up_live_opens_and_a_withdrawal_closes_it(live_offering, officer):
    assert log(live_offering) == [(True, Cause.OFFERING_ACTIVATED)]

    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")

    assert log(live_offering) == [
        (True, Cause.OFFERING_ACTIVATED),
        (False, Cause.APPROVAL_WITHDRAWN),
    ]
    closed = AvailabilityChange.objects.filter(offering=live_offering).latest("at")
    assert "the layout v1 is not approved (it is withdrawn)" in closed.reason
    assert closed.audit_event.action == "offering.closed"
    assert closed.audit_event.after["cause"] == Cause.APPROVAL_WITHDRAWN
    assert verify_stored().ok


def test_811a7f_retiring_an_open_table_closes_it_and_nothing_is_logged_twice(
    live_offering, manager_a
):
    offering_retire(actor=manager_a, offering=live_offering, reason="Floor rebuilt")
    availability_sweep()  # the midnight job finds nothing new

    assert log(live_offering) == [
        (True, Cause.OFFERING_ACTIVATED),
        (False, Cause.OFFERING_DEACTIVATED),
    ]


def test_811a7f_a_table_opens_at_the_local_midnight_its_approvals_take_effect(
    manager_a, officer, holder_a
):
    effective = datetime.date(2027, 3, 1)
    offering = offering_in_force(manager_a, officer, holder_a, effective=effective, expiry=SUNSET)
    assert log(offering) == []  # set up, but not open yet

    with time_machine.travel(day_starts(effective) + datetime.timedelta(minutes=5), tick=False):
        assert availability_sweep() == 1

    opened = AvailabilityChange.objects.get(offering=offering)
    assert (opened.opened, opened.cause) == (True, Cause.APPROVAL_TOOK_EFFECT)
    assert opened.at == day_starts(effective) == utc(2027, 3, 1, 5)  # 00:00 EST


def test_811a7f_the_calendar_closes_a_table_at_local_midnight_and_the_job_logs_that_instant(
    live_offering,
):
    expiry = live_offering.layout.expiry_date  # a Pennsylvania date
    midnight = day_starts(expiry)

    with time_machine.travel(midnight + datetime.timedelta(hours=3), tick=False):
        expire_due_records.delay().get()
        expire_due_records.delay().get()  # a retry logs nothing twice

    closed = AvailabilityChange.objects.filter(offering=live_offering).latest("at")
    assert (closed.opened, closed.cause, closed.at) == (False, Cause.APPROVAL_LAPSED, midnight)
    assert closed.recorded_at > closed.at
    assert AvailabilityChange.objects.filter(offering=live_offering).count() == 2
    assert verify_stored().ok


def test_811a7f_the_sunset_closes_every_table_at_0000_edt_on_2028_06_14(
    manager_a, officer, holder_a
):
    offering = offering_in_force(
        manager_a, officer, holder_a, effective=datetime.date(2025, 6, 14), expiry=SUNSET
    )
    assert log(offering) == [(True, Cause.OFFERING_ACTIVATED)]

    with time_machine.travel(utc(2028, 6, 14, 4, 0, 30), tick=False):  # 00:00:30 EDT
        expire_due_records.delay().get()

    closed = AvailabilityChange.objects.filter(offering=offering).latest("at")
    assert (closed.opened, closed.cause, closed.at) == (False, Cause.SUNSET, utc(2028, 6, 14, 4))
    assert "§ 617b.8 expired on 2028-06-14 (sunset)" in closed.reason


def test_811a7f_the_log_refuses_changes_in_the_database(live_offering):
    for statement in (
        "UPDATE compliance_availabilitychange SET opened = FALSE",
        "DELETE FROM compliance_availabilitychange",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)

    assert log(live_offering) == [(True, Cause.OFFERING_ACTIVATED)]


def test_811a7f_compliance_and_auditors_read_filter_and_export_it(
    client, live_offering, officer, auditor, manager_a, holder_b
):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")

    client.force_login(auditor)
    page = client.get("/compliance/availability/")
    api = client.get("/api/availability/", {"offering": live_offering.pk, "opened": "false"})
    other = client.get("/api/availability/", {"holder": holder_b.pk}).json()
    exported = client.get("/api/availability/export/", {"offering": live_offering.pk})
    page_csv = client.get("/compliance/availability/export.csv")

    assert page.status_code == 200 and "Availability log" in page.content.decode()
    assert [row["change"] for row in api.json()["results"]] == ["closed"]
    assert other["count"] == 0
    rows = list(csv.reader(io.StringIO(b"".join(exported.streaming_content).decode())))
    assert rows[0][0] == "at_utc"
    assert [row[5] for row in rows[1:]] == ["opened", "closed"]
    assert page_csv.status_code == 200
    # The page's copy is for people: the same columns, their header in words.
    page_rows = list(csv.reader(io.StringIO(b"".join(page_csv.streaming_content).decode())))
    assert page_rows[0] == [plain_header(key) for key in rows[0]]
    assert page_rows[0][0] == "At (UTC)"
    client.force_login(manager_a)
    assert client.get("/api/availability/").status_code == 403
    assert client.get("/compliance/availability/").status_code == 403


@pytest.mark.clause("811a.7(f)", kind="related")
def test_811a7f_a_bad_period_is_refused_with_400(client, auditor):
    client.force_login(auditor)

    assert client.get("/api/availability/", {"since": "2026-13-01"}).status_code == 400
    assert client.get("/compliance/availability/", {"until": "tomorrow"}).status_code == 400


def test_811a7f_every_change_is_an_event_of_the_audit_chain(live_offering, officer):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")

    events = AuditEvent.objects.filter(action__in=["offering.opened", "offering.closed"])
    assert events.count() == AvailabilityChange.objects.count() == 2


@pytest.mark.clause("811a.7(f)", kind="related")
def test_811a7f_the_log_page_and_api_run_a_constant_number_of_queries(
    client, live_offering, officer, auditor, django_assert_num_queries
):
    client.force_login(auditor)
    # Session, user, roles; the count and the page (with holder, table and audit event);
    # on the page, the holders and the tables its filter offers by name; the header's
    # unread-notification count.
    with django_assert_num_queries(8):
        client.get("/compliance/availability/")
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")
    assert AvailabilityChange.objects.count() == 2
    with django_assert_num_queries(8):
        assert client.get("/compliance/availability/").status_code == 200
    with django_assert_num_queries(5):
        assert client.get("/api/availability/").json()["count"] == 2
