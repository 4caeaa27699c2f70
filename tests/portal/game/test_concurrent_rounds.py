"""Many simultaneous rounds on one wallet (PostgreSQL, one connection per thread)."""

import pytest
from django.db.models import Sum

from portal.core.errors import ValidationFailed
from portal.game.models import LedgerEntry, Round, Wallet
from portal.game.services import round_play, wallet_top_up
from tests.portal.concurrency import run_together
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
                offering_id=live_offering.pk,
                wagers=[{"kind": "straight", "numbers": [5], "stake": 200}],
                idempotency_key=f"concurrent-{index:03d}",
                rng=FixedBits(7),  # 7 comes up: the straight on 5 loses everything
            )
            for index in range(10)
        )
    )

    played = [o for o in outcomes if isinstance(o, tuple)]
    refused = [o for o in outcomes if isinstance(o, ValidationFailed)]
    assert (len(played), len(refused)) == (5, 5), outcomes
    assert all("more than your balance" in r.message for r in refused)
    wallet = Wallet.objects.get(player=player)
    ledger = LedgerEntry.objects.filter(wallet=wallet).aggregate(total=Sum("amount"))["total"]
    assert wallet.balance == ledger == 0
    assert sorted(Round.objects.values_list("sequence", flat=True)) == [1, 2, 3, 4, 5]


def test_the_same_idempotency_key_sent_at_once_plays_one_round(funded_player, live_offering):
    outcomes = run_together(
        *(
            lambda: round_play(
                player=funded_player,
                offering_id=live_offering.pk,
                wagers=[{"kind": "red", "stake": 200}],
                idempotency_key="same-key-for-all",
                rng=FixedBits(3),
            )
            for _ in range(6)
        )
    )

    assert all(isinstance(o, tuple) for o in outcomes), outcomes
    assert len({round_obj.pk for round_obj, _ in outcomes}) == 1
    assert sorted(replayed for _, replayed in outcomes) == [False] + [True] * 5
    assert Round.objects.count() == 1
