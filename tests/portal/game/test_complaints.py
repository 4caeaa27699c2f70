"""Complaints and disputes filed with the holder first (reading:complaint-number), and the
adjustment an upheld dispute about money rests on (reading:adjustment-grounds)."""

from __future__ import annotations

import pytest

from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.game.complaints.services import (
    complaint_close,
    complaint_file,
    complaint_note,
    complaint_take,
)
from portal.game.corrections.services import correction_approve, correction_reject
from portal.game.models import (
    AccountStatus,
    AdjustmentGround,
    Complaint,
    ComplaintStatus,
    GamingAccount,
    RoundCorrection,
)
from portal.game.money.services.accounts import account_set_status
from portal.notifications.sources.actions import notices_for
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(player, live_offering, holder_a):
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    return account, play_round(player, live_offering, "complaint-round-1").round


def _file(player, holder, **more):
    fields = {
        "kind": "dispute",
        "subject": "Paid short on a split",
        "description": "My split 1-2 won but I was paid 4 to 1.",
        "request": "Pay me the difference.",
    } | more
    return complaint_file(player=player, holder_id=holder.pk, **fields)


@pytest.mark.clause("reading:complaint-number", kind="proves")
def test_a_complaint_gets_a_number_at_once_unique_across_holders_and_never_reused(
    played, player, holder_a, holder_b, live_offering
):
    _, round_obj = played
    wallet_top_up(player=player, amount=1_000, holder=holder_b)
    first = _file(player, holder_a, rounds=[round_obj.pk])
    second = _file(player, holder_a, kind="complaint", rounds=[])
    other = _file(player, holder_b, kind="complaint")
    year = first.opened_at.year
    assert first.number == f"{holder_a.licence_number}-{year}-00001"
    assert second.number == f"{holder_a.licence_number}-{year}-00002"
    assert other.number == f"{holder_b.licence_number}-{year}-00001"
    assert first.number != str(first.pk)
    # Never reused: a number is not given back when a complaint goes (none ever does).
    assert AuditEvent.objects.filter(action="complaint.file").count() == 3


def test_a_suspended_player_may_still_complain(played, player, holder_a, payments_a):
    account, _ = played
    account_set_status(
        actor=payments_a, account_id=account.pk, status=AccountStatus.SUSPENDED, reason="KYC"
    )
    assert _file(player, holder_a, kind="complaint").status == ComplaintStatus.RECEIVED


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"description": ""}, ValidationFailed),
        ({"subject": "x" * 201}, ValidationFailed),
        ({"kind": "grievance"}, ValidationFailed),
        ({"rounds": ["1"]}, ValidationFailed),
        ({"rounds": []}, ValidationFailed),  # a dispute names what it is about
        ({"rounds": [10**9]}, NotFound),
    ],
)
def test_a_malformed_complaint_is_refused_and_nothing_is_stored(
    played, player, holder_a, changes, refusal
):
    with pytest.raises(refusal):
        _file(player, holder_a, **changes)
    assert not Complaint.objects.exists()


def test_a_complaint_about_another_players_round_is_not_found(
    played, other_player, holder_a, live_offering
):
    _, round_obj = played
    wallet_top_up(player=other_player, amount=1_000, holder=holder_a)
    with pytest.raises(NotFound, match=f"no round {round_obj.pk} of yours"):
        _file(other_player, holder_a, rounds=[round_obj.pk])
    assert not Complaint.objects.exists()


@pytest.mark.clause("reading:adjustment-grounds", kind="proves")
@pytest.mark.clause("reading:complaint-number", kind="proves")
def test_an_upheld_dispute_is_settled_by_an_adjustment_and_answered_after_its_decision(
    played, player, holder_a, supervisor_a, officer
):
    account, round_obj = played
    complaint = _file(player, holder_a, rounds=[round_obj.pk])
    complaint_take(actor=supervisor_a, complaint_id=complaint.pk)
    complaint_note(actor=supervisor_a, complaint_id=complaint.pk, text="Replayed: paid short")
    with pytest.raises(ValidationFailed, match="never rests a debit"):
        complaint_close(
            actor=supervisor_a, complaint_id=complaint.pk, outcome="upheld",
            answer="You were right.", adjust_round=round_obj.pk, amount=-100, notice="x",
        )  # fmt: skip
    complaint = complaint_close(
        actor=supervisor_a,
        complaint_id=complaint.pk,
        outcome="upheld",
        answer="You were paid short; we credit the difference.",
        adjust_round=round_obj.pk,
        amount=200,
        notice="We credited $2.00 for your split.",
    )
    assert complaint.status == ComplaintStatus.AWAITING_ADJUSTMENT
    adjustment = RoundCorrection.objects.get(complaint=complaint)
    assert adjustment.ground == AdjustmentGround.DISPUTE
    assert not notices_for(AuditEvent.objects.filter(action="complaint.uphold").get())

    correction_reject(actor=officer, correction_id=adjustment.pk, reason="Wrong amount")
    complaint.refresh_from_db()
    assert complaint.status == ComplaintStatus.INVESTIGATING  # reopened

    complaint_close(
        actor=supervisor_a, complaint_id=complaint.pk, outcome="upheld",
        answer="You were paid short; we credit the difference.",
        adjust_round=round_obj.pk, amount=300, notice="We credited $3.00 for your split.",
    )  # fmt: skip
    second = RoundCorrection.objects.get(complaint=complaint, status="proposed")
    correction_approve(actor=officer, correction_id=second.pk)
    complaint.refresh_from_db()
    assert complaint.status == ComplaintStatus.UPHELD and complaint.closed_at is not None
    account.refresh_from_db()
    assert account.balance == 10_000 - 2_000 + 2_400 + 300
    [told] = notices_for(AuditEvent.objects.filter(action="complaint.close").get())
    assert told.recipients == {player.pk}
    assert "quoting complaint number" in told.body and complaint.number in told.body


def test_a_complaint_not_upheld_is_answered_at_once_and_closed_for_good(
    played, player, holder_a, supervisor_a, supervisor_b
):
    complaint = _file(player, holder_a, kind="complaint", rounds=[])
    with pytest.raises(NotFound):
        complaint_take(actor=supervisor_b, complaint_id=complaint.pk)  # another holder's
    with pytest.raises(NotPermitted):
        complaint_take(actor=player, complaint_id=complaint.pk)
    closed = complaint_close(
        actor=supervisor_a, complaint_id=complaint.pk, outcome="not_upheld",
        answer="The table paid as its paytable says.",
    )  # fmt: skip
    assert closed.status == ComplaintStatus.NOT_UPHELD
    with pytest.raises(Conflict, match="no longer open"):
        complaint_close(
            actor=supervisor_a, complaint_id=complaint.pk, outcome="upheld", answer="Changed"
        )
    with pytest.raises(ValidationFailed, match="only an upheld dispute"):
        other = _file(player, holder_a, kind="complaint", rounds=[])
        complaint_close(
            actor=supervisor_a, complaint_id=other.pk, outcome="upheld", answer="Yes",
            adjust_round=1, amount=100,
        )  # fmt: skip


def test_complaints_through_the_api_and_the_pages(
    played, player, holder_a, supervisor_a, auditor, api_as, client
):
    _, round_obj = played
    body = {
        "holder": holder_a.pk, "kind": "dispute", "subject": "Paid short",
        "description": "Split paid 4 to 1.", "request": "The difference.",
        "rounds": [round_obj.pk],
    }  # fmt: skip
    filed = api_as(player).post("/api/complaints/", body, format="json")
    assert filed.status_code == 201 and filed.json()["number"].startswith(holder_a.licence_number)
    assert filed.json()["answer"] is None
    number, pk = filed.json()["number"], filed.json()["id"]
    assert api_as(supervisor_a).post(f"/api/complaints/{pk}/take/").status_code == 200
    closed = api_as(supervisor_a).post(
        f"/api/complaints/{pk}/close/",
        {"outcome": "not_upheld", "answer": "Paid as the paytable says."},
        format="json",
    )
    assert closed.status_code == 200
    answer = api_as(player).get(f"/api/complaints/{pk}/").json()["answer"]
    assert "Paid as the paytable says." in answer and number in answer

    client.force_login(player)
    assert number in client.get("/play/complaints/").content.decode()
    page = client.get(f"/play/complaints/{pk}/").content.decode()
    assert "Paid as the paytable says." in page and "Pennsylvania Gaming Control Board" in page
    client.force_login(auditor)
    log = client.get("/play/complaints/?format=csv")
    assert number in b"".join(log.streaming_content).decode()
    assert GamingAccount.objects.filter(player=player).exists()


@pytest.mark.clause("reading:complaint-number", kind="proves")
def test_an_unanswered_complaint_reminds_its_handlers_as_it_ages(
    played, player, holder_a, supervisor_a, officer, settings
):
    import datetime

    from portal.core.padates import pa_date
    from portal.notifications.models import Notification
    from portal.notifications.services import reminders_send

    settings.JINZI_COMPLAINT_REMINDER_DAYS = [7, 14]
    complaint = _file(player, holder_a, kind="complaint", rounds=[])
    made = pa_date(complaint.opened_at)

    def reminded() -> set[int]:
        found = Notification.objects.filter(kind="complaint", subject__contains="has waited")
        return set(found.values_list("recipient_id", flat=True))

    reminders_send(today=made + datetime.timedelta(days=6))
    assert reminded() == set()
    reminders_send(today=made + datetime.timedelta(days=7))
    assert reminded() == {supervisor_a.pk, officer.pk}
    reminders_send(today=made + datetime.timedelta(days=8))  # once per step
    assert Notification.objects.filter(subject__contains="has waited").count() == 2
    complaint_close(
        actor=supervisor_a, complaint_id=complaint.pk, outcome="not_upheld", answer="No."
    )
    reminders_send(today=made + datetime.timedelta(days=14))  # answered: no more
    assert Notification.objects.filter(subject__contains="has waited").count() == 2
