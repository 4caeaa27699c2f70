"""§ 617b.8's life and each approval's dates are Pennsylvania dates
(reading:pennsylvania-dates): tables open and close at local midnight, and nothing is created,
submitted or approved for the game once no approval could hold."""

import datetime

import pytest
import time_machine
from django.conf import settings

from portal.compliance.models import Offering, RecordStatus, RulesSubmission
from portal.compliance.selectors import offering_is_live
from portal.compliance.services.rules import rules_submission_submit
from portal.compliance.tasks import expire_due_records
from portal.core.errors import Conflict, ValidationFailed
from tests.portal.factories import (
    approved_paytable,
    make_layout,
    make_offering,
    make_rules,
    offering_in_force,
)

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
RULE_EFFECTIVE = datetime.date(2025, 6, 14)
SUNSET = datetime.date(2028, 6, 14)
SUNSET_REASON = "§ 617b.8 expired on 2028-06-14 (sunset)"


def utc(*parts) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=UTC)


def _offering(manager, officer, holder, layout_expiry=None):
    """A table whose approvals run from the rule's first day to the sunset."""
    return offering_in_force(
        manager,
        officer,
        holder,
        effective=RULE_EFFECTIVE,
        expiry=SUNSET,
        layout_expiry=layout_expiry,
    )


@pytest.mark.clause("617b.8(a)", kind="related")
def test_617b8_a_a_table_is_live_until_2359_59_edt_on_the_eve_of_the_sunset(
    manager_a, officer, holder_a
):
    offering = _offering(manager_a, officer, holder_a)

    assert offering_is_live(offering, at=utc(2028, 6, 14, 3, 59, 59)).live  # 23:59:59 EDT
    closed = offering_is_live(offering, at=utc(2028, 6, 14, 4, 0, 0))  # 00:00 EDT

    assert not closed.live
    assert SUNSET_REASON in closed.reasons


@pytest.mark.clause("617b.8(a)", kind="related")
def test_617b8_a_no_table_is_live_before_0000_edt_on_2025_06_14(manager_a, officer, holder_a):
    offering = _offering(manager_a, officer, holder_a)

    early = offering_is_live(offering, at=utc(2025, 6, 14, 3, 59))  # 2025-06-13 23:59 EDT

    assert not early.live
    assert "§ 617b.8 takes effect on 2025-06-14" in early.reasons
    assert offering_is_live(offering, at=utc(2025, 6, 14, 4, 0)).live


@pytest.mark.clause("617b.8(b)", kind="related")
def test_617b8_b_an_approval_expiring_on_a_date_stops_at_local_midnight_in_winter(
    manager_a, officer, holder_a
):
    offering = _offering(manager_a, officer, holder_a, layout_expiry=datetime.date(2027, 1, 15))

    assert offering_is_live(offering, at=utc(2027, 1, 15, 4, 59, 59)).live  # 23:59:59 EST
    lapsed = offering_is_live(offering, at=utc(2027, 1, 15, 5, 0, 0))  # 00:00 EST

    assert "the layout v1 expired on 2027-01-15" in lapsed.reasons


@pytest.mark.clause("617b.8(b)", kind="related")
def test_617b8_b_the_expiry_job_marks_an_approval_expired_from_local_midnight(
    manager_a, officer, holder_a
):
    offering = _offering(manager_a, officer, holder_a, layout_expiry=datetime.date(2027, 1, 15))

    with time_machine.travel(utc(2027, 1, 15, 4, 59), tick=False):  # 23:59 EST, the 14th
        assert expire_due_records.delay().get() == 0
    with time_machine.travel(utc(2027, 1, 15, 5, 1), tick=False):  # 00:01 EST, the 15th
        assert expire_due_records.delay().get() == 1
    offering.layout.refresh_from_db()
    assert offering.layout.status == RecordStatus.EXPIRED


def test_the_expiry_job_runs_at_pennsylvania_midnight():
    schedule = settings.CELERY_BEAT_SCHEDULE["expire-due-records"]["schedule"]

    assert settings.CELERY_TIMEZONE == "America/New_York"
    assert (schedule.hour, schedule.minute) == ({0}, {0})


@pytest.mark.clause("601a.2", kind="related")
def test_601a2_an_effective_date_before_the_rule_is_refused_citing_it(manager_a, officer, holder_a):
    paytable = approved_paytable(manager_a, officer, holder_a)
    layout = make_layout(manager_a, holder_a)

    with pytest.raises(ValidationFailed, match=r"§ 617b.8 takes effect on 2025-06-14") as caught:
        make_rules(manager_a, holder_a, paytable, layout, effective_date=datetime.date(2025, 6, 13))

    assert "effective_date" in caught.value.field_errors
    assert not RulesSubmission.objects.filter(holder=holder_a).exists()


@pytest.mark.parametrize(
    "instant",
    [utc(2028, 6, 14, 4, 0, 1), utc(2029, 1, 1, 12)],
    ids=["00:00:01 EDT on the sunset", "after it"],
)
@pytest.mark.clause("617b.8(a)", kind="related")
def test_617b8_a_after_the_sunset_no_rules_submission_or_offering_is_created_or_submitted(
    manager_a, officer, holder_a, instant
):
    paytable = approved_paytable(manager_a, officer, holder_a)
    layout = make_layout(manager_a, holder_a)
    draft = make_rules(manager_a, holder_a, paytable, layout, expiry_date=SUNSET)
    offering = _offering(manager_a, officer, holder_a)
    rules_before = RulesSubmission.objects.filter(holder=holder_a).count()

    with time_machine.travel(instant, tick=False):
        with pytest.raises(Conflict, match="§ 617b.8 expired on 2028-06-14"):
            make_rules(manager_a, holder_a, paytable, layout, expiry_date=SUNSET)
        with pytest.raises(Conflict, match="no rules submission for Jinzi Roulette can be"):
            rules_submission_submit(actor=manager_a, submission=draft)
        with pytest.raises(Conflict, match="no offering for Jinzi Roulette can be set up"):
            make_offering(
                manager_a,
                holder_a,
                offering.rules_submission,
                offering.layout,
                offering.paytable,
                name="Table 2",
            )
        assert not offering_is_live(offering).live

    draft.refresh_from_db()
    assert draft.status == RecordStatus.DRAFT
    assert RulesSubmission.objects.filter(holder=holder_a).count() == rules_before
    assert Offering.objects.filter(holder=holder_a).count() == 1


@pytest.mark.clause("617b.8(a)", kind="related")
def test_617b8_a_on_the_eve_of_the_sunset_a_submission_is_still_taken(manager_a, officer, holder_a):
    paytable = approved_paytable(manager_a, officer, holder_a)
    layout = make_layout(manager_a, holder_a)

    with time_machine.travel(utc(2028, 6, 14, 3, 59), tick=False):  # 23:59 EDT on the 13th
        rules = make_rules(manager_a, holder_a, paytable, layout, expiry_date=SUNSET)
        rules = rules_submission_submit(actor=manager_a, submission=rules)

    assert rules.status == RecordStatus.SUBMITTED
