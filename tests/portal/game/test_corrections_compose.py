"""Corrections compose (reading:corrections-compose): a void undoes everything its round
moved, its earlier adjustments included, so the player ends as if the round had never been
played; nothing is adjusted on a void round, but for the one adjustment that puts right a
round voided before voids undid adjustments. Balances worked by hand, the records'
verification and the audit report's reconciliation holding each case."""

from __future__ import annotations

import datetime

import pytest

from portal.core.errors import Conflict, ValidationFailed
from portal.core.padates import pa_date
from portal.game.corrections import composition
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.models import GamingAccount, RoundCorrection
from portal.game.money.services.withdrawals import withdrawal_request
from portal.integrity.records import verify_records
from portal.reports.audit_report.document import audit_report
from tests.portal.factories import finding_on
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

# $10.00 on red; the wheel stops on 3 (red): $20.00 back. From $100.00: $110.00.
RED = [{"kind": "red", "stake": 1_000}]
START = 10_000


@pytest.fixture
def played(player, live_offering, holder_a):
    account = wallet_top_up(player=player, amount=START, holder=holder_a)
    round_obj = play_round(player, live_offering, "compose-round-1", wagers=RED, outcome=3).round
    account.refresh_from_db()
    assert account.balance == START - 1_000 + 2_000
    return account, round_obj


def _adjust(supervisor, officer, round_obj, amount: int) -> RoundCorrection:
    proposal = correction_propose(
        actor=supervisor,
        round_id=round_obj.pk,
        kind="adjustment",
        finding_id=finding_on(round_obj.pk),
        reason="Paid at the wrong odds",
        amount=amount,
        notice="We corrected the payout of this round.",
    )
    return correction_approve(actor=officer, correction_id=proposal.pk)


def _void(supervisor, officer, round_obj) -> RoundCorrection:
    proposal = correction_propose(
        actor=supervisor, round_id=round_obj.pk, kind="void", reason="RNG fault logged"
    )
    return correction_approve(actor=officer, correction_id=proposal.pk)


def _balance(account: GamingAccount) -> int:
    account.refresh_from_db()
    return account.balance


def _report_of_its_day(round_obj) -> dict:
    """The audit report over the round's gaming day, whatever hour its table's day starts
    and whatever the clock says in UTC (its Pennsylvania date and the day before)."""
    day = pa_date(round_obj.started_at)
    return audit_report(
        start=day - datetime.timedelta(days=1), end=day + datetime.timedelta(days=1)
    )


def _holds(round_obj) -> None:
    """The records verify, and the report of the round's day reconciles."""
    records = verify_records()
    assert records.ok, [str(p) for p in records.problems]
    document = _report_of_its_day(round_obj)
    assert document["reconciliation"]["voids"]["ok"] is True
    assert document["reconciliation"]["ok"] is True


@pytest.mark.clause("reading:corrections-compose", kind="proves")
def test_617a6_a_void_after_a_credit_adjustment_leaves_the_player_as_if_never_played(
    played, supervisor_a, officer
):
    account, round_obj = played
    _adjust(supervisor_a, officer, round_obj, 250)
    assert _balance(account) == 11_250
    void = _void(supervisor_a, officer, round_obj)
    assert (void.undone_credits, void.undone_debits) == (250, 0)
    assert (void.amount, void.credited, void.debited, void.uncollected) == (-1_250, 1_000, 2_250, 0)
    assert _balance(account) == START
    _holds(round_obj)


@pytest.mark.clause("reading:corrections-compose", kind="proves")
def test_617a6_a_void_after_a_debit_adjustment_gives_back_what_it_took(
    played, supervisor_a, officer
):
    account, round_obj = played
    _adjust(supervisor_a, officer, round_obj, -100)
    assert _balance(account) == 10_900
    void = _void(supervisor_a, officer, round_obj)
    assert (void.undone_credits, void.undone_debits) == (0, 100)
    assert (void.credited, void.debited) == (1_100, 2_000)
    assert _balance(account) == START
    _holds(round_obj)


@pytest.mark.clause("reading:corrections-compose", kind="proves")
def test_617a6_a_void_after_two_adjustments_undoes_both(played, supervisor_a, officer):
    account, round_obj = played
    _adjust(supervisor_a, officer, round_obj, 300)
    _adjust(supervisor_a, officer, round_obj, -50)
    assert _balance(account) == 11_250
    void = _void(supervisor_a, officer, round_obj)
    assert (void.undone_credits, void.undone_debits) == (300, 50)
    assert _balance(account) == START
    _holds(round_obj)


def test_617a6_nothing_is_adjusted_on_a_void_round(played, supervisor_a, officer):
    account, round_obj = played
    _void(supervisor_a, officer, round_obj)
    with pytest.raises(Conflict, match=f"round {round_obj.pk} is already void"):
        correction_propose(
            actor=supervisor_a,
            round_id=round_obj.pk,
            kind="adjustment",
            finding_id=finding_on(round_obj.pk),
            reason="More",
            amount=100,
            notice="More money.",
        )
    assert _balance(account) == START
    assert RoundCorrection.objects.count() == 1


def test_617a6_a_void_takes_back_an_adjustment_credit_only_as_far_as_the_account_can(
    played, player, supervisor_a, officer
):
    """The uncollected rule holds for what it undoes too: never below what pending
    withdrawals hold."""
    account, round_obj = played
    _adjust(supervisor_a, officer, round_obj, 250)
    withdrawal_request(player=player, account_id=account.pk, amount=10_500)  # $112.50 − $105
    void = _void(supervisor_a, officer, round_obj)
    # $112.50 + $10.00 = $122.50; $105.00 held: $17.50 can be taken of the $22.50 owed.
    assert (void.credited, void.debited, void.uncollected) == (1_000, 1_750, 500)
    assert _balance(account) == 10_500
    _holds(round_obj)


def _void_as_before(supervisor, officer, round_obj, monkeypatch) -> RoundCorrection:
    """A void as it was decided before voids undid adjustments: of the round alone."""
    with monkeypatch.context() as before:
        before.setattr(composition, "adjustments_moved", lambda round_id: composition.Undone(0, 0))
        return _void(supervisor, officer, round_obj)


@pytest.mark.clause("reading:corrections-compose", kind="proves")
def test_617a6_a_round_voided_before_voids_undid_adjustments_is_listed_and_put_right_once(
    played, supervisor_a, officer, monkeypatch
):
    account, round_obj = played
    _adjust(supervisor_a, officer, round_obj, 250)
    _void_as_before(supervisor_a, officer, round_obj, monkeypatch)
    assert _balance(account) == 10_250  # $2.50 the void left with the player
    assert composition.residual_of(round_obj.pk) == 250

    records = verify_records()
    assert [p.detail for p in records.problems if "corrections-compose" in p.detail]
    document = _report_of_its_day(round_obj)
    [voids] = [s for s in document["sections"] if s["key"] == "voids"]
    assert any(f"round {round_obj.pk} ($2.50 kept by the player)" in n for n in voids["notes"])

    def propose(amount):
        return correction_propose(
            actor=supervisor_a,
            round_id=round_obj.pk,
            kind="adjustment",
            finding_id=finding_on(round_obj.pk),
            reason="The void left the adjustment in place",
            amount=amount,
            notice="We took back the correction the void should have undone.",
        )

    for wrong in (250, -100, -300):
        with pytest.raises(ValidationFailed, match="only adjustment it takes is a debit of"):
            propose(wrong)
    correction_approve(actor=officer, correction_id=propose(-250).pk)
    assert _balance(account) == START
    assert composition.residual_of(round_obj.pk) == 0
    _holds(round_obj)
    with pytest.raises(Conflict, match="already void"):
        propose(-250)


def test_812a7_a_9_a_void_proposed_before_an_adjustment_moved_is_refused_at_its_decision(
    played, supervisor_a, officer
):
    account, round_obj = played
    proposal = correction_propose(
        actor=supervisor_a, round_id=round_obj.pk, kind="void", reason="RNG fault logged"
    )
    # Its adjustments changed behind it (as no service lets them: one correction waits at
    # a time); the decision refuses rather than undo the wrong amount.
    RoundCorrection.objects.filter(pk=proposal.pk).update(undone_credits=999)
    with pytest.raises(Conflict, match="changed since this void was proposed"):
        correction_approve(actor=officer, correction_id=proposal.pk)
    assert _balance(account) == START - 1_000 + 2_000
