"""One test per kind of notification: made once however often the dispatcher runs, to
exactly the people concerned (never another holder's), with a link that opens for each."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from portal.access.roles import Role
from portal.compliance.models import SUNSET
from portal.compliance.services.layouts import (
    layout_amend,
    layout_approve,
    layout_submit,
    layout_withdraw,
)
from portal.compliance.services.offerings import offering_retire
from portal.compliance.services.paytables import paytable_reject, paytable_submit
from portal.core.errors import ValidationFailed
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.money.services.deposits import deposit_make, deposit_record
from portal.game.money.services.limit_changes import limit_set
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from portal.notifications.models import Notification, Reminder, ReminderStatus
from portal.notifications.services import reminders_send
from portal.reports.models import ReportFile, ReportKind, ReportRun, RunStatus
from portal.reports.presenters import band_verdict
from tests.portal.factories import (
    EFFECTIVE,
    EXPIRY,
    approved_layout,
    approved_offering,
    make_layout,
    make_paytable,
    make_user,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round
from tests.portal.notifications.helpers import (
    dispatch_twice,
    emails_to,
    opens,
    settle,
    told,
    with_emails,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager_a2(holder_a):
    return make_user("manager_a2", Role.MANAGER, holder_a)


def test_a_submission_decided_before_the_notices_are_made_is_not_said_to_wait(
    manager_a, officer, holder_a
):
    """A fresh install seeds records submitted and decided at once: no officer is told any
    of them waits for a decision."""
    paytable = make_paytable(manager_a, holder_a, name="Weekend")
    settle()

    paytable_reject(
        actor=officer, paytable=paytable_submit(actor=manager_a, paytable=paytable), reason="No"
    )
    dispatch_twice()

    assert told("record_submitted") == {}
    assert "manager_a" in told("record_decided")


def test_a_submission_tells_every_compliance_officer_once(
    client, manager_a, manager_b, officer, officer2, holder_a
):
    paytable = make_paytable(manager_a, holder_a, name="Weekend")
    settle()

    paytable_submit(actor=manager_a, paytable=paytable)
    dispatch_twice()

    found = told("record_submitted")
    assert set(found) == {"officer", "officer2"}
    assert (
        found["officer"].subject == "Keystone Casino submitted the paytable 'Weekend' v1 for review"
    )
    assert Notification.objects.count() == 2  # nobody else told of anything
    opens(client, officer, found["officer"])


def test_a_decision_tells_the_authors_and_their_holders_managers_with_the_reason(
    client, manager_a, manager_a2, manager_b, officer, holder_a
):
    with_emails(manager_a, manager_a2, manager_b, officer)
    paytable = paytable_submit(
        actor=manager_a, paytable=make_paytable(manager_a, holder_a, name="Weekend")
    )
    settle()

    paytable_reject(actor=officer, paytable=paytable, reason="Straight up pays too little")
    dispatch_twice()

    found = told("record_decided")
    assert set(found) == {"manager_a", "manager_a2"}  # not the officer who decided, not B's
    assert found["manager_a"].subject == "The paytable 'Weekend' v1 was rejected"
    assert "Reason given: Straight up pays too little" in found["manager_a"].body
    opens(client, manager_a2, found["manager_a2"])
    # Decisions are emailed unless chosen otherwise: one email each, with both bodies.
    [email] = emails_to("manager_a@example.com")
    assert email.subject == "The paytable 'Weekend' v1 was rejected"
    html, kind = email.alternatives[0]
    assert kind == "text/html"
    link = f"http://127.0.0.1:8000/compliance/paytables/{paytable.pk}/"
    assert link in email.body and f'href="{link}"' in html
    assert len(emails_to("manager_a2@example.com")) == 1
    assert not emails_to("manager_b@example.com") and not emails_to("officer@example.com")


def test_an_approval_expiring_reminds_its_holder_at_30_7_and_1_days_once_each(
    client, manager_a, manager_a2, manager_b, officer, holder_a
):
    layout = approved_layout(manager_a, officer, holder_a)  # expires on EXPIRY
    settle()

    for days in (31, 30, 30, 29):
        reminders_send(today=EXPIRY - datetime.timedelta(days=days))
    dispatch_twice()

    found = told("approval_expiring")
    assert set(found) == {"manager_a", "manager_a2"}
    assert found["manager_a"].subject == (
        "The approval of the layout 'Main floor layout' v1 expires in 30 days"
    )
    opens(client, manager_a, found["manager_a"])
    assert layout.expiry_date == EXPIRY

    reminders_send(today=EXPIRY - datetime.timedelta(days=7))
    reminders_send(today=EXPIRY - datetime.timedelta(days=1))
    subjects = sorted(
        Notification.objects.filter(recipient=manager_a).values_list("subject", flat=True)
    )
    assert [s.rsplit(" ", 2)[-2] for s in subjects] == ["1", "30", "7"]


@pytest.mark.clause("reading:supersede", kind="related")
def test_reading_supersede_a_superseded_version_still_in_play_is_reminded_of_its_expiry(
    manager_a, officer, holder_a
):
    table = approved_offering(manager_a, officer, holder_a)
    old = table.layout  # expires on EXPIRY, listed by the table's approved rules submission
    newer = layout_submit(actor=manager_a, layout=layout_amend(actor=manager_a, layout=old))
    layout_approve(
        actor=officer,
        layout=newer,
        reference_number="BGO-2026-0002",
        effective_date=EFFECTIVE,
        expiry_date=SUNSET,
    )
    old.refresh_from_db()
    assert old.status == "superseded"
    settle()

    reminders_send(today=EXPIRY - datetime.timedelta(days=30))

    old_layout = "The approval of the layout 'Main floor layout' v1 expires in 30 days"
    sent = Notification.objects.get(recipient=manager_a, subject=old_layout)
    assert sent.kind == "approval_expiring"
    assert "still play under it until the rules submission" in sent.body

    # A superseded version no table plays under any more is not reminded of.
    offering_retire(actor=manager_a, offering=table, reason="Closed for good")
    Notification.objects.all().delete()
    Reminder.objects.all().delete()
    reminders_send(today=EXPIRY - datetime.timedelta(days=30))
    assert Notification.objects.filter(kind="approval_expiring").exists()  # the rules'
    assert not Notification.objects.filter(subject=old_layout).exists()


def test_a_missed_night_still_sends_the_reminder_once_and_only_the_most_urgent(
    manager_a, officer, holder_a
):
    approved_layout(manager_a, officer, holder_a)
    settle()

    # No run from 30 days before until 5 days before: the 7-day reminder, not the 30-day.
    reminders_send(today=EXPIRY - datetime.timedelta(days=5))
    reminders_send(today=EXPIRY - datetime.timedelta(days=4))
    [sent] = Notification.objects.filter(recipient=manager_a, kind="approval_expiring")
    assert sent.subject.endswith("expires in 5 days")
    statuses = dict(Reminder.objects.values_list("key", "status"))
    assert sorted(statuses.values()) == [ReminderStatus.SENT, ReminderStatus.SKIPPED]
    assert [k for k, v in statuses.items() if v == ReminderStatus.SKIPPED][0].endswith(":30")

    # The skipped one never fires later; the 1-day one still does, once.
    reminders_send(today=EXPIRY - datetime.timedelta(days=1))
    reminders_send(today=EXPIRY - datetime.timedelta(days=1))
    assert Notification.objects.filter(recipient=manager_a, kind="approval_expiring").count() == 2


@pytest.mark.clause("601a.10(a)", kind="related")
def test_601a10_a_layout_review_due_and_overdue_tells_the_officers(
    client, manager_a, manager_b, officer, officer2, holder_a
):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    settle()
    due = layout.review_due

    reminders_send(today=due - datetime.timedelta(days=4))
    assert not Notification.objects.exists()  # not yet within 3 days
    reminders_send(today=due - datetime.timedelta(days=3))
    reminders_send(today=due - datetime.timedelta(days=2))
    found = told("review_due")
    assert set(found) == {"officer", "officer2"}
    assert found["officer"].subject.endswith("is due in 3 days")
    assert "§ 601a.10(a)" in found["officer"].body
    opens(client, officer, found["officer"])

    Notification.objects.all().delete()
    reminders_send(today=due + datetime.timedelta(days=3))  # the day after was missed
    reminders_send(today=due + datetime.timedelta(days=4))
    found = told("review_due")
    assert set(found) == {"officer", "officer2"}
    assert found["officer2"].subject.endswith("is overdue")


def test_a_table_going_dark_tells_its_holders_managers_why(
    client, manager_a, manager_a2, manager_b, officer, live_offering
):
    settle()

    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Artwork misprinted")
    dispatch_twice()

    found = told("table_availability")
    assert set(found) == {"manager_a", "manager_a2"}
    assert found["manager_a"].subject == "Table 'Table 1' is closed"
    assert "Reason given:" in found["manager_a"].body
    opens(client, manager_a, found["manager_a"])
    # The decision itself told them too, as a decision.
    assert set(told("record_decided")) == {"manager_a", "manager_a2"}


def test_the_sunset_reminds_every_holders_managers_at_90_30_and_7_days(
    client, manager_a, manager_b, officer, auditor, player
):
    settle()

    for days in (91, 90, 89):
        reminders_send(today=SUNSET - datetime.timedelta(days=days))
    found = told("sunset")
    assert set(found) == {"manager_a", "manager_b"}
    assert found["manager_b"].subject == "§ 617b.8 expires in 90 days, on 2028-06-14"
    opens(client, manager_b, found["manager_b"])
    reminders_send(today=SUNSET - datetime.timedelta(days=6))  # the 30 and 7 days were missed
    subjects = list(
        Notification.objects.filter(recipient=manager_a)
        .order_by("pk")
        .values_list("subject", flat=True)
    )
    assert subjects == [
        "§ 617b.8 expires in 90 days, on 2028-06-14",
        "§ 617b.8 expires in 6 days, on 2028-06-14",
    ]


def _run(kind, status, requested_by, *, document=None, reports=None) -> ReportRun:
    run = ReportRun.objects.create(
        kind=kind,
        definition_version="1",
        parameters={"start": "2026-03-01", "end": "2026-03-01"},
        parameters_key=f"test-{ReportRun.objects.count()}",
        requested_by=requested_by,
        requested_via="page",
        status=status,
        finished_at=timezone.now(),
        attempts=1,
    )
    if document is not None:
        name = f"run-{run.pk}.json"
        (reports / name).write_text(json.dumps(document))
        ReportFile.objects.create(
            run=run, format="json", name=name, content_type="application/json", size=1, sha256=""
        )
    return run


@pytest.fixture
def reports(settings, tmp_path):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    settings.JINZI_REPORTS_DIR.mkdir()
    return settings.JINZI_REPORTS_DIR


def test_a_report_run_finished_or_failed_tells_the_auditors_and_who_asked(
    client, auditor, officer, officer2, manager_a, reports
):
    settle()
    run = _run(ReportKind.EXPIRY, RunStatus.SUCCEEDED, officer)
    failed = _run(ReportKind.AUDIT, RunStatus.FAILED, None)
    dispatch_twice()

    def recipients(of) -> set[str]:
        told = Notification.objects.filter(kind="report_finished", link=f"/reports/{of.pk}/")
        return set(told.values_list("recipient__username", flat=True))

    assert recipients(run) == {"auditor", "officer"}  # the auditors and who asked
    assert recipients(failed) == {"auditor"}  # the schedule asked: the auditors
    assert Notification.objects.filter(kind="report_finished").count() == 3
    ready = Notification.objects.get(recipient=officer)
    assert ready.subject == "Expiry report for 2026-03-01 is ready"
    gone = Notification.objects.get(recipient=auditor, link=f"/reports/{failed.pk}/")
    assert gone.subject == "Audit report for 2026-03-01 failed"
    opens(client, officer, ready)
    opens(client, auditor, gone)
    assert not told("report_findings")


def test_an_audit_report_that_found_something_says_what(client, auditor, officer, reports):
    settle()
    document = {
        "totals": {"flag": "exception", "z": "3.41", "band": {"inside": False}},
        "chi_square_alarm": True,
        "chi_square_p": "0.000100",
        "resettlement": {"discrepancy_count": 2},
        "reconciliation": {"ok": False},
    }
    clean = {"totals": {"flag": ""}, "chi_square_alarm": False, "reconciliation": {"ok": True}}
    run = _run(ReportKind.AUDIT, RunStatus.SUCCEEDED, officer, document=document, reports=reports)
    _run(ReportKind.AUDIT, RunStatus.SUCCEEDED, officer, document=clean, reports=reports)
    dispatch_twice()

    found = told("report_findings")
    assert set(found) == {"auditor", "officer"}
    body = found["auditor"].body
    assert (
        "against its expected band, the hold is an exception (beyond ± 3.29 SD) (z = 3.41)"
    ) in body
    assert "less even than a fair wheel's (chi-square p = 0.000100)" in body
    assert "2 bets settle differently" in body and "does not reconcile" in body
    assert found["auditor"].link == f"/reports/{run.pk}/"
    opens(client, auditor, found["auditor"])


def test_an_audit_reports_email_words_the_hold_as_its_run_page_does(auditor, officer, reports):
    """A low-volume period whose win is inside its band: reported, not judged, as the run
    page says; never "outside its expected band"."""
    settle()
    low = {"flag": "low volume", "z": "0.808", "band": {"inside": True}}
    _run(ReportKind.AUDIT, RunStatus.SUCCEEDED, officer, document={"totals": low}, reports=reports)
    dispatch_twice()

    body = told("report_findings")["auditor"].body
    assert band_verdict(low) in body
    assert "low volume (under 1,000 rounds): reported, not judged; W is inside the band" in body
    assert "outside" not in body


def test_money_in_and_out_tells_the_player_and_their_holders_payments_staff(
    client, player, payments_a, payments_b, holder_a
):
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    settle()

    deposit_record(
        actor=payments_a, account_id=account.pk, amount=2_500, method="cash", reference="Cage 1"
    )
    withdrawal = withdrawal_request(player=player, account_id=account.pk, amount=1_000)
    dispatch_twice()
    found = told("money")
    assert set(found) == {"player", "payments_a"}
    assert found["player"].subject == "Deposit of $25.00 received by Keystone Casino"
    assert found["payments_a"].subject == "A withdrawal of $10.00 was asked for at Keystone Casino"
    opens(client, player, found["player"])
    opens(client, payments_a, found["payments_a"])

    Notification.objects.all().delete()
    withdrawal_pay(actor=payments_a, withdrawal_id=withdrawal.pk, payout_reference="BANK-7")
    dispatch_twice()
    found = told("money")
    assert set(found) == {"player"}
    assert found["player"].subject == "Your withdrawal of $10.00 from Keystone Casino was paid"
    assert "BANK-7" in found["player"].body


@pytest.mark.clause("814a.2", kind="related")
def test_814a2_a_limit_changed_tells_the_player(client, player, payments_a, holder_a):
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    settle()

    limit_set(player=player, account_id=account.pk, kind="deposit_day", value=5_000)
    dispatch_twice()

    found = told("limit_changed")
    assert set(found) == {"player"}
    assert "daily deposit limit: now $50.00 (was no limit)" in found["player"].body
    opens(client, player, found["player"])


@pytest.mark.clause("814a.2", kind="related")
def test_814a2_a_limit_reached_tells_the_player_and_payments_staff_once_per_period(
    client, player, payments_a, payments_b, holder_a
):
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    limit_set(player=player, account_id=account.pk, kind="deposit_day", value=1_000)
    settle()

    for _ in range(2):
        with pytest.raises(ValidationFailed, match="daily deposit limit"):
            deposit_make(
                player=player, holder_id=holder_a.pk, amount=1_500, method="card", reference="r"
            )
    dispatch_twice()

    found = told("limit_reached")
    assert set(found) == {"player", "payments_a"}
    assert found["player"].subject == "You reached your daily deposit limit with Keystone Casino"
    assert found["payments_a"].subject == "player reached their daily deposit limit"
    opens(client, player, found["player"])
    opens(client, payments_a, found["payments_a"])


@pytest.mark.clause("812a.7(a)(9)", kind="related")
def test_812a7_a_9_a_void_tells_the_player_and_the_holders_supervisors(
    client, player, live_offering, holder_a, supervisor_a, supervisor_b
):
    supervisor_a2 = make_user("supervisor_a2", Role.SUPERVISOR, holder_a)
    wallet_top_up(player=player, amount=10_000, holder=holder_a)
    played = play_round(player, live_offering, "notify-void-1").round
    settle()

    correction = correction_propose(
        actor=supervisor_a, round_id=played.pk, kind="void", reason="The wheel stuck"
    )
    dispatch_twice()
    found = told("round_correction")
    # The player, and everyone who may decide it: the holder's other supervisor and the
    # compliance officer (not who proposed it, not another holder's supervisor).
    assert set(found) == {"player", "supervisor_a2", "officer"}
    assert found["player"].subject == f"A void of your round {played.pk} was proposed"
    opens(client, player, found["player"])
    opens(client, supervisor_a2, found["supervisor_a2"])

    Notification.objects.all().delete()
    correction_approve(actor=supervisor_a2, correction_id=correction.pk)
    dispatch_twice()
    found = told("round_correction")
    assert set(found) == {"player", "supervisor_a"}  # the player, and who proposed it
    assert found["player"].subject == f"A void of your round {played.pk} was approved and applied"
    opens(client, supervisor_a, found["supervisor_a"])


@pytest.mark.clause("814a.2", kind="related")
def test_814a2_a_round_refused_by_the_largest_wager_tells_the_player(
    player, payments_a, payments_b, live_offering, holder_a
):
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    limit_set(player=player, account_id=account.pk, kind="wager", value=100)
    settle()

    for key in ("over-wager-1", "over-wager-2"):
        with pytest.raises(ValidationFailed, match="largest single wager"):
            play_round(player, live_offering, key)
    dispatch_twice()

    found = told("limit_reached")
    assert set(found) == {"player", "payments_a"}
    assert "refused a round" in found["player"].body


def test_any_other_event_about_a_table_tells_its_holders_managers(
    manager_a, manager_a2, manager_b, officer, live_offering
):
    from django.db import transaction

    from portal.audit.services import audit_record

    settle()
    with transaction.atomic():  # as the service re-pointing a table on an amendment writes it
        audit_record(
            actor=officer,
            action="offering.repointed",
            object_type="offering",
            object_id=live_offering.pk,
            reason="The amended rules submission v2 was approved",
        )
    dispatch_twice()

    found = told("table_availability")
    assert set(found) == {"manager_a", "manager_a2"}
    assert found["manager_a"].subject == (
        "Table 'Table 1' was moved to the newly approved rules submission"
    )
    assert "The amended rules submission v2 was approved" in found["manager_a"].body
