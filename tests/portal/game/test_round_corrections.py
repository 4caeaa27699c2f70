"""Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds, through their
services: the money each moves, who may propose and decide, and what is refused.

The round played in most tests: ten straights of $2.00 on 0–9, the wheel stops on 3, so
$20.00 is staked and the straight on 3 returns $24.00 (11 to 1 plus its stake)."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.game import retention
from portal.game.corrections.selectors import with_state
from portal.game.corrections.services import (
    correction_approve,
    correction_propose,
    correction_reject,
)
from portal.game.models import (
    CorrectionStatus,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Round,
    RoundCorrection,
)
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from tests.portal.factories import finding_on, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

STAKED, RETURNED = 2_000, 2_400


@pytest.fixture
def played(player, live_offering, holder_a):
    """The player's account ($100.00 deposited) and the round described above."""
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    played = play_round(player, live_offering, "correct-me-1")
    return account, Round.objects.get(pk=played.round.pk)


def ledger_total(account) -> int:
    return LedgerEntry.objects.filter(account=account).aggregate(s=Sum("amount"))["s"]


def propose_void(actor, round_obj, reason="The draw repeated a segment: a malfunction"):
    return correction_propose(actor=actor, round_id=round_obj.pk, kind="void", reason=reason)


@pytest.mark.clause("reading:voids-and-adjustments", kind="proves")
def test_617a6_a_void_gives_back_the_stakes_and_takes_back_the_returns(
    played, officer, supervisor_a
):
    account, round_obj = played
    assert GamingAccount.objects.get(pk=account.pk).balance == 10_000 - STAKED + RETURNED
    hash_before = round_obj.hash

    proposed = propose_void(supervisor_a, round_obj)
    assert (proposed.status, proposed.amount) == (CorrectionStatus.PROPOSED, STAKED - RETURNED)
    void = correction_approve(actor=officer, correction_id=proposed.pk, reason="Agreed")

    account.refresh_from_db()
    assert account.balance == 10_000 == ledger_total(account)
    assert (void.credited, void.debited, void.uncollected) == (STAKED, RETURNED, 0)
    assert (void.credit_entry.kind, void.credit_entry.amount) == (LedgerKind.VOID_STAKES, STAKED)
    assert (void.debit_entry.kind, void.debit_entry.amount) == (LedgerKind.VOID_RETURNS, -RETURNED)
    assert void.credit_entry.round_id == void.debit_entry.round_id == round_obj.pk
    # The round itself is as it was written: its row, its chain, its status.
    round_obj.refresh_from_db()
    assert (round_obj.hash, round_obj.status) == (hash_before, "complete")
    state = with_state(Round.objects.filter(pk=round_obj.pk)).get()
    assert (state.voided, state.adjusted) == (True, False)
    # The chains and the ledger still verify, with the void's entries naming the round.
    assert retention.verify_stored().ok
    events = AuditEvent.objects.filter(object_type="void", object_id=str(void.pk))
    assert list(events.order_by("sequence").values_list("action", flat=True)) == [
        "void.propose",
        "void.approve",
    ]
    approved = events.get(action="void.approve")
    assert approved.after["credit_entry"] == void.credit_entry_id
    assert approved.after["debit_entry"] == void.debit_entry_id
    assert approved.after["balance_after"] == 10_000


@pytest.mark.clause("reading:voids-and-adjustments", kind="proves")
def test_617a6_a_void_the_account_cannot_cover_takes_what_is_there_and_records_the_rest(
    played, officer, supervisor_a, payments_a
):
    account, round_obj = played
    # $104.00 in the account; $100.50 is paid out, $3.50 left.
    paid = withdrawal_request(player=account.player, account_id=account.pk, amount=10_050)
    withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH-1")

    void = correction_approve(actor=officer, correction_id=propose_void(supervisor_a, round_obj).pk)

    account.refresh_from_db()
    # $3.50 + $20.00 of stakes given back = $23.50 taken of the $24.00 returned: $0.50 owed.
    assert (void.credited, void.debited, void.uncollected) == (STAKED, 2_350, 50)
    assert account.balance == 0 == ledger_total(account)


def test_617a6_a_void_never_takes_what_a_pending_withdrawal_holds(played, officer, supervisor_a):
    account, round_obj = played
    withdrawal_request(player=account.player, account_id=account.pk, amount=10_300)

    void = correction_approve(actor=officer, correction_id=propose_void(supervisor_a, round_obj).pk)

    account.refresh_from_db()
    # $104.00 + $20.00 back, $103.00 held: $21.00 of the $24.00 can be taken.
    assert (void.debited, void.uncollected) == (2_100, 300)
    assert (account.balance, account.held) == (10_300, 10_300)


@pytest.mark.clause("reading:voids-and-adjustments", kind="proves")
def test_812a7_a_9_an_adjustment_credits_the_difference_with_the_notice_kept(
    played, officer, supervisor_a
):
    account, round_obj = played
    proposed = correction_propose(
        actor=supervisor_a,
        round_id=round_obj.pk,
        kind="adjustment",
        finding_id=finding_on(round_obj.pk),
        amount=250,
        reason="Dispute upheld: the split paid short",
        notice="We have credited $2.50 to your account for round 1.",
    )
    adjusted = correction_approve(actor=officer, correction_id=proposed.pk)

    account.refresh_from_db()
    assert account.balance == 10_000 - STAKED + RETURNED + 250 == ledger_total(account)
    assert (adjusted.credit_entry.kind, adjusted.debit_entry) == (
        LedgerKind.ADJUSTMENT_CREDIT,
        None,
    )
    assert adjusted.notice == "We have credited $2.50 to your account for round 1."
    state = with_state(Round.objects.filter(pk=round_obj.pk)).get()
    assert (state.voided, state.adjusted) == (False, True)


def test_812a7_a_9_an_adjustment_debit_beyond_the_balance_is_recorded_as_uncollected(
    played, officer, supervisor_a
):
    account, round_obj = played
    proposed = correction_propose(
        actor=officer,
        round_id=round_obj.pk,
        kind="adjustment",
        finding_id=finding_on(round_obj.pk),
        amount=-20_000,
        reason="Paid twice",
        notice="We have taken back the payment made twice.",
    )
    adjusted = correction_approve(actor=supervisor_a, correction_id=proposed.pk)

    account.refresh_from_db()
    assert (adjusted.debited, adjusted.uncollected, account.balance) == (10_400, 9_600, 0)
    assert adjusted.debit_entry.kind == LedgerKind.ADJUSTMENT_DEBIT


def test_617a6_four_eyes_the_proposer_never_decides(played, supervisor_a):
    proposed = propose_void(supervisor_a, played[1])

    with pytest.raises(NotPermitted, match=r"§ 617a\.6: a void is decided by someone other"):
        correction_approve(actor=supervisor_a, correction_id=proposed.pk)
    with pytest.raises(NotPermitted, match="someone other"):
        correction_reject(actor=supervisor_a, correction_id=proposed.pk, reason="No")
    assert RoundCorrection.objects.get(pk=proposed.pk).status == CorrectionStatus.PROPOSED


def test_617a6_four_eyes_nor_whoever_set_the_proposers_password(played, officer, officer2):
    proposed = propose_void(officer, played[1])
    officer.profile.password_setters = [officer2.pk]
    officer.profile.save()

    with pytest.raises(NotPermitted, match="you set the password of whoever proposed"):
        correction_approve(actor=officer2, correction_id=proposed.pk)


def test_617a6_only_compliance_and_the_holders_own_supervisors_correct_rounds(
    played, manager_a, payments_a, supervisor_b, auditor, player, officer
):
    round_obj = played[1]
    for outsider in (manager_a, payments_a, supervisor_b, auditor, player):
        with pytest.raises(NotPermitted):
            propose_void(outsider, round_obj)
    proposed = propose_void(officer, round_obj)
    for outsider in (manager_a, payments_a, supervisor_b, auditor, player):
        with pytest.raises(NotPermitted):
            correction_approve(actor=outsider, correction_id=proposed.pk)
    assert not LedgerEntry.objects.filter(kind__startswith="void").exists()


def test_617a6_a_rejection_needs_a_reason_moves_nothing_and_a_new_proposal_may_follow(
    played, officer, supervisor_a
):
    account, round_obj = played
    proposed = propose_void(supervisor_a, round_obj)
    with pytest.raises(ValidationFailed):
        correction_reject(actor=officer, correction_id=proposed.pk, reason="  ")

    rejected = correction_reject(actor=officer, correction_id=proposed.pk, reason="Draw was fine")

    assert (rejected.status, rejected.decision_reason) == ("rejected", "Draw was fine")
    account.refresh_from_db()
    assert account.balance == 10_000 - STAKED + RETURNED
    with pytest.raises(Conflict, match="only a proposed one can be approved"):
        correction_approve(actor=officer, correction_id=proposed.pk)
    assert propose_void(supervisor_a, round_obj).status == CorrectionStatus.PROPOSED


def test_617a6_a_round_is_voided_once_and_a_void_round_is_not_adjusted(
    played, officer, supervisor_a
):
    round_obj = played[1]
    proposed = propose_void(supervisor_a, round_obj)
    with pytest.raises(Conflict, match="already waiting for a decision"):
        propose_void(officer, round_obj)
    with pytest.raises(Conflict, match="already has a void waiting"):
        correction_propose(
            actor=officer,
            round_id=round_obj.pk,
            kind="adjustment",
            finding_id=finding_on(round_obj.pk),
            amount=2,
            reason="x",
            notice="y",
        )
    correction_approve(actor=officer, correction_id=proposed.pk)

    with pytest.raises(Conflict, match=r"§ 617a\.6: round \d+ is already void"):
        propose_void(officer, round_obj)
    with pytest.raises(Conflict, match="already void"):
        correction_propose(
            actor=officer,
            round_id=round_obj.pk,
            kind="adjustment",
            finding_id=finding_on(round_obj.pk),
            amount=2,
            reason="x",
            notice="y",
        )


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"kind": "refund"}, "kind"),
        ({"kind": "void", "reason": ""}, "reason"),
        ({"kind": "void", "reason": 7}, "reason"),
        ({"kind": "void", "reason": "x" * 2001}, "reason"),
        ({"kind": "adjustment", "amount": 0}, "amount"),
        ({"kind": "adjustment", "amount": "250"}, "amount"),
        ({"kind": "adjustment", "amount": 2.5}, "amount"),
        ({"kind": "adjustment", "amount": True}, "amount"),
        ({"kind": "adjustment", "amount": 100_000_001}, "amount"),
        ({"kind": "adjustment", "amount": 250, "notice": ""}, "notice"),
    ],
)
def test_812a7_a_9_a_malformed_proposal_is_refused_and_nothing_is_written(
    played, officer, given, field
):
    fields = {"reason": "Dispute", "notice": "We credited you.", "amount": None} | given
    with pytest.raises(ValidationFailed) as refused:
        correction_propose(actor=officer, round_id=played[1].pk, **fields)
    assert field in refused.value.field_errors
    assert not RoundCorrection.objects.exists()


def test_617a6_an_unknown_round_or_correction_is_not_found(officer):
    with pytest.raises(NotFound, match="no round 999"):
        correction_propose(actor=officer, round_id=999, kind="void", reason="x")
    with pytest.raises(NotFound):
        correction_approve(actor=officer, correction_id="1")


def test_617a6_a_superuser_is_still_held_to_four_eyes(played, superuser):
    proposed = propose_void(superuser, played[1])
    with pytest.raises(NotPermitted):
        correction_approve(actor=superuser, correction_id=proposed.pk)
    second = make_user("officer9", Role.COMPLIANCE)
    assert correction_approve(actor=second, correction_id=proposed.pk).status == "approved"
