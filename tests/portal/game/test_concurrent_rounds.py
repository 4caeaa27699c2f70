"""Many simultaneous rounds on one wallet (PostgreSQL, one connection per thread)."""

import threading

import pytest
from django.db.models import Sum

from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import GamingAccount, LedgerEntry, Round
from portal.game.play.services import PlayedRound, round_play
from tests.portal.concurrency import run_together
from tests.portal.factories import in_session
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_simultaneous_rounds_never_overdraw_and_the_balance_equals_the_ledger(
    player, live_offering
):
    wallet_top_up(player=player, amount=1000)

    outcomes = run_together(
        *(
            lambda index=index: round_play(
                player=player,
                session=in_session(player),
                offering_id=live_offering.pk,
                wagers=[{"kind": "straight", "numbers": [5], "stake": 200}],
                idempotency_key=f"concurrent-{index:03d}",
                rng=FixedBits(7),  # 7 comes up: the straight on 5 loses everything
            )
            for index in range(10)
        )
    )

    played = [o for o in outcomes if isinstance(o, PlayedRound)]
    refused = [o for o in outcomes if isinstance(o, ValidationFailed)]
    assert (len(played), len(refused)) == (5, 5), outcomes
    assert all("more than your balance" in r.message for r in refused)
    account = GamingAccount.objects.get(player=player)
    ledger = LedgerEntry.objects.filter(account=account).aggregate(total=Sum("amount"))["total"]
    assert account.balance == ledger == 0
    assert sorted(Round.objects.values_list("sequence", flat=True)) == [1, 2, 3, 4, 5]


def test_the_same_idempotency_key_sent_at_once_plays_one_round(funded_player, live_offering):
    outcomes = run_together(
        *(
            lambda: round_play(
                player=funded_player,
                session=in_session(funded_player),
                offering_id=live_offering.pk,
                wagers=[{"kind": "red", "stake": 200}],
                idempotency_key="same-key-for-all",
                rng=FixedBits(3),
            )
            for _ in range(6)
        )
    )

    assert all(isinstance(o, PlayedRound) for o in outcomes), outcomes
    assert len({o.round.pk for o in outcomes}) == 1
    assert sorted(o.replayed for o in outcomes) == [False] + [True] * 5
    assert Round.objects.count() == 1


class CountingBits:
    """A random source shared by threads that counts the draws made from it."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.calls = 0
        self.lock = threading.Lock()

    def getrandbits(self, k: int) -> int:
        with self.lock:
            self.calls += 1
        return self.value


@pytest.mark.clause("617b.8(e)", kind="related")
def test_617b8_e_a_retry_sent_while_its_round_is_being_played_gets_that_round(
    funded_player, live_offering
):
    # 90,000 of the 100,000 balance: a second round could not be afforded, so a retry
    # checked against the new balance would be refused instead of answered.
    wagers = [{"kind": "red", "stake": 50_000}, {"kind": "black", "stake": 40_000}]
    rng = CountingBits(3)

    outcomes = run_together(
        *(
            lambda: round_play(
                player=funded_player,
                session=in_session(funded_player),
                offering_id=live_offering.pk,
                wagers=wagers,
                idempotency_key="retried-while-playing",
                rng=rng,
            )
            for _ in range(6)
        )
    )

    assert all(isinstance(o, PlayedRound) for o in outcomes), outcomes
    assert sorted(o.replayed for o in outcomes) == [False] + [True] * 5
    assert Round.objects.count() == 1
    assert rng.calls == 1  # one draw, for the one round: none drawn and thrown away


def test_a_key_reused_with_other_wagers_while_playing_is_a_conflict(funded_player, live_offering):
    first = [{"kind": "red", "stake": 50_000}, {"kind": "small", "stake": 40_000}]
    other = [{"kind": "black", "stake": 50_000}, {"kind": "big", "stake": 40_000}]

    outcomes = run_together(
        *(
            lambda wagers=wagers: round_play(
                player=funded_player,
                session=in_session(funded_player),
                offering_id=live_offering.pk,
                wagers=wagers,
                idempotency_key="reused-while-playing",
                rng=FixedBits(3),
            )
            for wagers in (first, other, first, other)
        )
    )

    played = [o for o in outcomes if isinstance(o, PlayedRound)]
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(played) + len(conflicts) == 4, outcomes
    assert len(conflicts) == 2
    assert Round.objects.count() == 1
