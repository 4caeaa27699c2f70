"""The Board's list against rounds and deposits in flight (PostgreSQL, one connection per
thread): the import takes each matched player's wallet lock, so no round or deposit that
takes the lock after the import commits goes through (§ 815a.4)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from portal.core.errors import Conflict
from portal.game.models import DepositMethod, LedgerEntry, Round, Wallet
from portal.game.money import standing
from portal.game.money.services.deposits import deposit_make
from portal.game.play.services import PlayedRound
from tests.portal.concurrency import run_together
from tests.portal.game.conftest import play_round
from tests.portal.players.list_helpers import full_edition, imported, line

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LISTED = line("Demo", "other_player", "1980-01-01")
ONE_STRAIGHT = [{"kind": "straight", "numbers": [5], "stake": 200}]


def test_815a4_the_import_waits_for_a_round_holding_the_wallet_and_then_refuses_the_next(
    officer, other_player, live_offering, holder_a
):
    holding, release = threading.Event(), threading.Event()

    def round_in_flight() -> None:  # holds the player's wallet lock as a round does
        try:
            with transaction.atomic():
                Wallet.objects.select_for_update().get(player=other_player)
                holding.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    imports: list = []

    def import_list() -> None:
        try:
            imports.append(imported(officer, full_edition(LISTED)))
        finally:
            connection.close()

    in_flight = threading.Thread(target=round_in_flight)
    in_flight.start()
    assert holding.wait(timeout=10)
    importer = threading.Thread(target=import_list)
    importer.start()
    time.sleep(0.5)
    assert importer.is_alive(), "the import did not wait for the player's wallet lock"
    release.set()
    in_flight.join(timeout=30)
    importer.join(timeout=30)
    assert imports and imports[0].players_excluded == 1

    with pytest.raises(Conflict):
        play_round(other_player, live_offering, "after-import", wagers=ONE_STRAIGHT)
    with pytest.raises(Conflict):
        deposit_make(
            player=other_player, holder_id=holder_a.pk, amount=500, method=DepositMethod.DEMO
        )


def test_815a4_rounds_and_deposits_racing_the_import_either_precede_it_or_are_refused(
    officer, other_player, live_offering, holder_a
):
    rounds_before = Round.objects.filter(player=other_player).count()
    entries_before = LedgerEntry.objects.filter(wallet__player=other_player).count()

    def a_round(n: int):
        return lambda: play_round(
            other_player, live_offering, f"race-round-{n}", wagers=ONE_STRAIGHT
        )

    def a_deposit():
        return deposit_make(
            player=other_player, holder_id=holder_a.pk, amount=500, method=DepositMethod.DEMO
        )

    outcomes = run_together(
        lambda: imported(officer, full_edition(LISTED)),
        *(a_round(n) for n in range(4)),
        *(a_deposit for _ in range(3)),
    )
    assert not isinstance(outcomes[0], Exception), outcomes[0]
    played = [o for o in outcomes[1:5] if isinstance(o, PlayedRound)]
    deposited = [o for o in outcomes[5:] if not isinstance(o, Exception)]
    refused = [o for o in outcomes[1:] if isinstance(o, Conflict)]
    assert len(played) + len(deposited) + len(refused) == 7, outcomes
    assert all(str(o).startswith(standing.EXCLUDED[:20]) for o in refused)
    # What went through took the wallet's lock before the import did: after its commit,
    # nothing more is written, and the next round is refused.
    assert Round.objects.filter(player=other_player).count() == rounds_before + len(played)
    moved = LedgerEntry.objects.filter(wallet__player=other_player).count() - entries_before
    assert moved == sum(len(p.round.ledger_entries.all()) for p in played) + len(deposited)
    with pytest.raises(Conflict):
        play_round(other_player, live_offering, "race-round-after", wagers=ONE_STRAIGHT)
