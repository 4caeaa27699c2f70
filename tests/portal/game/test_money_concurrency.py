"""A player's money under simultaneous requests (PostgreSQL, one connection per thread):
rounds, withdrawal requests and limits never overdraw an account or exceed a limit."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import transaction
from django.db.models import Sum

from portal.core.errors import ValidationFailed
from portal.game.models import GamingAccount, LedgerEntry, Round, Withdrawal
from portal.game.money.selectors import locked
from portal.game.money.services.deposits import deposit_make
from portal.game.money.services.limit_changes import limit_set
from portal.game.money.services.withdrawals import withdrawal_request
from portal.game.play.services import PlayedRound
from tests.portal.concurrency import run_together
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LOSING = [{"kind": "straight", "numbers": [5], "stake": 600}]  # 7 comes up: all of it lost


def consistent(account: GamingAccount) -> None:
    account.refresh_from_db()
    total = LedgerEntry.objects.filter(account=account).aggregate(s=Sum("amount"))["s"]
    pending = Withdrawal.objects.filter(account=account, status="pending").aggregate(
        s=Sum("amount")
    )["s"]
    assert account.balance == total
    assert account.held == (pending or 0) <= account.balance


def test_812a10_a_withdrawal_request_and_a_round_at_once_never_overdraw(
    player, live_offering, holder_a
):
    account = wallet_top_up(player=player, amount=1_000, holder=holder_a)

    outcomes = run_together(
        lambda: withdrawal_request(player=player, account_id=account.pk, amount=800),
        lambda: play_round(player, live_offering, "race-round-1", wagers=LOSING, outcome=7),
    )

    won = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, ValidationFailed)]
    assert (len(won), len(refused)) == (1, 1), outcomes
    consistent(account)
    assert account.balance - account.held >= 0


def test_812a10_two_requests_at_once_that_together_would_overdraw_hold_only_one(player, holder_a):
    account = wallet_top_up(player=player, amount=1_000, holder=holder_a)

    outcomes = run_together(
        *(
            lambda: withdrawal_request(player=player, account_id=account.pk, amount=700)
            for _ in range(4)
        )
    )

    assert sum(isinstance(o, Withdrawal) for o in outcomes) == 1, outcomes
    assert all("§ 812a.10" in o.message for o in outcomes if isinstance(o, ValidationFailed))
    consistent(account)
    assert account.held == 700


def test_814a2_a_spend_limit_reached_mid_session_holds_under_simultaneous_rounds(
    player, live_offering, holder_a
):
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    limit_set(player=player, account_id=account.pk, kind="loss_day", value=2_000)

    outcomes = run_together(
        *(
            lambda index=index: play_round(
                player, live_offering, f"limit-race-{index:02d}", wagers=LOSING, outcome=7
            )
            for index in range(6)
        )
    )

    played = [o for o in outcomes if isinstance(o, PlayedRound)]
    refused = [o for o in outcomes if isinstance(o, ValidationFailed)]
    assert (len(played), len(refused)) == (3, 3), outcomes  # 3 × $6 ≤ $20 < 4 × $6
    assert all("daily spend limit" in r.message for r in refused)
    consistent(account)
    assert account.balance == 10_000 - 1_800 == Round.objects.get(sequence=3).balance_after


def _round_waiting_for(change, player, offering, key, wagers):
    """What a round answers whose read starts while ``change``, in a transaction of its own,
    holds the player's wallet lock, and so waits for it to commit."""
    holding = threading.Event()

    def slow_change():
        with transaction.atomic():
            change()
            holding.set()
            time.sleep(0.5)  # the round's read starts, and waits for the wallet

    def round_after_lock():
        holding.wait(10)
        time.sleep(0.1)
        return play_round(player, offering, key, wagers=wagers)

    return run_together(slow_change, round_after_lock)[1]


@pytest.mark.clause("812a.7(a)", kind="related")
def test_812a7_a_round_that_waited_for_a_deposit_plays_on_the_deposited_balance(
    player, live_offering, holder_a
):
    """The round's read waits for the wallet's lock while a deposit holds it; the account it
    joined before the deposit committed is stale, so it is read again: the round stakes
    money the deposit brought."""
    account = wallet_top_up(player=player, amount=1_000, holder=holder_a)

    def deposit():
        locked(account.pk, player.pk)  # the wallet's lock, then the account's
        deposit_make(player=player, holder_id=holder_a.pk, amount=5_000, method="demo")

    played = _round_waiting_for(
        deposit, player, live_offering, "after-deposit-1", [{"kind": "red", "stake": 4_000}]
    )

    assert isinstance(played, PlayedRound), played
    assert played.round.balance_before == 6_000
    consistent(account)


def test_814a2_a_round_that_waited_for_a_limit_change_checks_the_new_limit(
    player, live_offering, holder_a
):
    """A limit change takes the wallet's lock, as a movement of money does: a round whose
    read waited for it reads the account's limits again, and the lower largest single wager
    the player set while it waited refuses it."""
    account = wallet_top_up(player=player, amount=10_000, holder=holder_a)

    def lower_the_largest_wager():
        limit_set(player=player, account_id=account.pk, kind="wager", value=1_000)

    refused = _round_waiting_for(
        lower_the_largest_wager,
        player,
        live_offering,
        "during-limit-1",
        [{"kind": "red", "stake": 4_000}],
    )

    assert isinstance(refused, ValidationFailed), refused
    assert "largest single wager is $10.00" in refused.message
    assert not Round.objects.exists()
    consistent(account)
