"""The demo's dates are true (reading:pennsylvania-dates): nothing shows Expired before its
expiry date (a Pennsylvania date), the expiry job runs as of today, every approval holds past
today, the dashboard's 30-day window has examples, and the records and the audit chain
verify."""

from __future__ import annotations

import datetime
import io

import pytest
import time_machine
from django.core.management import call_command

from portal.audit.chain import verify
from portal.audit.models import AuditEvent
from portal.compliance.models import SUNSET, Layout, Paytable, RecordStatus, RulesSubmission
from portal.compliance.services.expiry import records_expire_due
from portal.core.padates import day_starts, pa_today
from portal.demo.services import DEMO_PASSWORD
from portal.integrity.records import verify_records
from tests.portal.factories import sign_in

pytestmark = pytest.mark.django_db

MODELS = (Layout, Paytable, RulesSubmission)
# 22:30 EST on 2027-01-14 in Pennsylvania, already 2027-01-15 in UTC.
PA_EVENING = datetime.datetime(2027, 1, 15, 3, 30, tzinfo=datetime.UTC)


def _records():
    return [record for model in MODELS for record in model.objects.all()]


def _checked_seed():
    """Seed, then check what every test here relies on: the seeding's Pennsylvania date."""
    call_command("seed_demo", stdout=io.StringIO())
    return pa_today()


@pytest.mark.parametrize("at", [None, PA_EVENING], ids=["now", "PA evening, UTC next day"])
def test_seed_demo_shows_nothing_expired_before_its_expiry_date(at):
    if at is None:
        today = _checked_seed()
    else:
        with time_machine.travel(at):
            today = _checked_seed()
        assert today == datetime.date(2027, 1, 14)

    records = _records()
    assert not [r for r in records if r.status == RecordStatus.EXPIRED and r.expiry_date >= today]
    # Everything was approved today: none can honestly have expired yet.
    assert not [r for r in records if r.status == RecordStatus.EXPIRED]
    approved = [r for r in records if r.status == RecordStatus.APPROVED]
    assert approved
    assert all(r.expiry_date is None or today < r.expiry_date <= SUNSET for r in approved)
    # Layouts and rules submissions are approved with their dates; paytables carry none.
    assert all(r.expiry_date is not None for r in approved if not isinstance(r, Paytable))
    # The expiry job ran as of today: nothing was due, so no expiry was recorded.
    assert not AuditEvent.objects.filter(action__endswith=".expire").exists()


def test_seed_demo_records_and_audit_chain_verify():
    _checked_seed()

    assert verify(AuditEvent.objects.order_by("sequence")).ok
    report = verify_records()
    assert report.ok, [str(problem) for problem in report.problems]
    out = io.StringIO()
    call_command("verify_records", stdout=out)  # raises CommandError on any problem
    call_command("verify_audit_chain", stdout=out)
    assert "records intact" in out.getvalue()
    assert "audit chain intact" in out.getvalue()


def _expiring_section(page: str) -> str:
    start = page.index(">Expiring within 30 days</h2>")
    return page[start : page.index("</section>", start)]


def test_seed_demo_dashboard_has_approvals_expiring_within_30_days(client):
    today = _checked_seed()
    sign_in(client, "officer", DEMO_PASSWORD)

    section = _expiring_section(client.get("/compliance/").content.decode())

    for title, days in (
        ("Summer rules", 10),
        ("Lobby layout (2nd)", 20),
        ("Summer pop-up layout", 25),
    ):
        expiry = min(today + datetime.timedelta(days=days), SUNSET)
        assert f"{title} v" in section
        assert f"expires {expiry.isoformat()}" in section
    # Came into the window 5 days ago: marked new.
    assert "new 5 days ago" in section


def test_seed_demo_approvals_expire_honestly_on_their_day():
    """The demo's soonest expiry: on the eve the daily job expires nothing; from 00:00
    Pennsylvania time on the expiry date it expires that approval, and the records and the
    chain still verify."""
    today = _checked_seed()
    soonest = min(r.expiry_date for r in _records() if r.expiry_date is not None)
    assert soonest > today

    with time_machine.travel(day_starts(soonest) - datetime.timedelta(seconds=1), tick=False):
        assert records_expire_due() == 0
    with time_machine.travel(day_starts(soonest) + datetime.timedelta(seconds=1), tick=False):
        assert records_expire_due() == 1
        expired = [r for r in _records() if r.status == RecordStatus.EXPIRED]
        assert [r.expiry_date for r in expired] == [soonest]
        assert all(r.expiry_date <= pa_today() for r in expired)

    assert verify(AuditEvent.objects.order_by("sequence")).ok
    assert verify_records().ok
