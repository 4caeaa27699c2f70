"""A void decided while the same player's money moves (PostgreSQL, one connection per
thread): balances add up, none goes below zero, and the chains stay whole."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from portal.game import retention
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.models import GamingAccount, LedgerEntry, Round, RoundCorrection, Withdrawal
from portal.game.money.services.withdrawals import withdrawal_request
from portal.game.play.services import PlayedRound
from portal.integrity.records import verify_records
from tests.portal.concurrency import run_together
from tests.portal.factories import finding_on
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Ten straights of $2.00; the wheel stops on 3: $20.00 staked, $24.00 returned.
STAKED, RETURNED = 2_000, 2_400
LOSING = [{"kind": "straight", "numbers": [5], "stake": 600}]  # 7 comes up: all of it lost


def consistent(account: GamingAccount) -> GamingAccount:
    account.refresh_from_db()
    total = LedgerEntry.objects.filter(account=account).aggregate(s=Sum("amount"))["s"]
    pending = Withdrawal.objects.filter(account=account, status="pending").aggregate(
        s=Sum("amount")
    )["s"]
    assert account.balance == total >= 0
    assert account.held == (pending or 0) <= account.balance
    assert not LedgerEntry.objects.filter(balance_after__lt=0).exists()
    stored = retention.verify_stored()
    assert stored.ok, stored
    records = verify_records()
    assert records.ok, [str(p) for p in records.problems]
    return account


@pytest.fixture
def voided_round(player, live_offering, holder_a, supervisor_a):
    """$30.00 deposited, the round above played ($34.00 left), a void of it proposed."""
    account = wallet_top_up(player=player, amount=3_000, holder=holder_a)
    played = play_round(player, live_offering, "to-be-voided")
    proposal = correction_propose(
        actor=supervisor_a, round_id=played.round.pk, kind="void", reason="RNG fault logged"
    )
    return account, proposal


def test_617a6_a_void_and_a_round_of_the_same_player_at_once(
    player, live_offering, officer, voided_round
):
    account, proposal = voided_round

    outcomes = run_together(
        lambda: correction_approve(actor=officer, correction_id=proposal.pk),
        lambda: play_round(player, live_offering, "played-meanwhile", wagers=LOSING, outcome=7),
    )

    assert isinstance(outcomes[0], RoundCorrection), outcomes
    assert isinstance(outcomes[1], PlayedRound), outcomes
    account = consistent(account)
    # $34.00 − $6.00 lost, + $20.00 stakes back − $24.00 returns back, in either order.
    assert account.balance == 3_400 - 600 + STAKED - RETURNED == 2_400
    assert outcomes[0].uncollected == 0
    assert Round.objects.filter(player=player).count() == 2


def test_617a6_a_void_and_a_withdrawal_at_once_never_overdraw(player, officer, voided_round):
    account, proposal = voided_round

    outcomes = run_together(
        lambda: correction_approve(actor=officer, correction_id=proposal.pk),
        lambda: withdrawal_request(player=player, account_id=account.pk, amount=3_400),
    )

    assert isinstance(outcomes[0], RoundCorrection), outcomes
    account = consistent(account)
    void = outcomes[0]
    if isinstance(outcomes[1], Withdrawal):
        # The hold came first: all $34.00 held, the void takes only what the $20.00 of
        # stakes given back frees, and the rest is uncollected.
        assert (void.debited, void.uncollected) == (STAKED, RETURNED - STAKED)
        assert (account.balance, account.held) == (3_400, 3_400)
    else:
        # The void came first ($30.00 left): $34.00 is more than is there.
        assert "§ 812a.10" in str(outcomes[1])
        assert (void.debited, void.uncollected) == (RETURNED, 0)
        assert (account.balance, account.held) == (3_000, 0)


def test_617a6_two_deciders_at_once_move_the_money_once(player, officer, officer2, voided_round):
    account, proposal = voided_round

    outcomes = run_together(
        lambda: correction_approve(actor=officer, correction_id=proposal.pk),
        lambda: correction_approve(actor=officer2, correction_id=proposal.pk),
    )

    assert sum(isinstance(o, RoundCorrection) for o in outcomes) == 1, outcomes
    account = consistent(account)
    assert account.balance == 3_000
    assert LedgerEntry.objects.filter(kind="void_stakes").count() == 1


@pytest.mark.clause("reading:corrections-compose", kind="proves")
def test_617a6_two_deciders_of_a_void_after_an_adjustment_undo_it_once(
    player, live_offering, holder_a, supervisor_a, officer, officer2
):
    """$30.00, the round ($34.00), an adjustment of +$2.50 ($36.50), then a void decided by
    two officers at once: one undoes everything, the player is back at $30.00."""
    account = wallet_top_up(player=player, amount=3_000, holder=holder_a)
    played = play_round(player, live_offering, "adjusted-then-voided")
    adjustment = correction_propose(
        actor=supervisor_a,
        round_id=played.round.pk,
        kind="adjustment",
        finding_id=finding_on(played.round.pk),
        reason="Paid at the wrong odds",
        amount=250,
        notice="We corrected the payout of this round.",
    )
    correction_approve(actor=officer, correction_id=adjustment.pk)
    void = correction_propose(
        actor=supervisor_a, round_id=played.round.pk, kind="void", reason="RNG fault logged"
    )

    outcomes = run_together(
        lambda: correction_approve(actor=officer, correction_id=void.pk),
        lambda: correction_approve(actor=officer2, correction_id=void.pk),
    )

    assert sum(isinstance(o, RoundCorrection) for o in outcomes) == 1, outcomes
    account = consistent(account)
    assert account.balance == 3_000
    decided = RoundCorrection.objects.get(pk=void.pk)
    assert (decided.credited, decided.debited) == (STAKED, RETURNED + 250)
