"""The round's own SQL (``portal.game.store``): what it writes is what the ORM reads back,
and a key already used writes nothing, on PostgreSQL (one statement) and SQLite alike."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import transaction

from portal.core.errors import Conflict
from portal.game import store
from portal.game.chain import digest_of
from portal.game.models import Bet, LedgerEntry, Round, Wallet
from portal.game.transactions import RoundTransaction
from tests.portal.game.conftest import play_round as play

pytestmark = pytest.mark.django_db


def test_810a11_the_round_handed_back_is_the_round_stored(funded_player, live_offering):
    played, replayed = play(funded_player, live_offering, "store-round-0001")

    stored = Round.objects.get()
    assert not replayed
    for field in Round._meta.concrete_fields:
        assert getattr(played, field.attname) == getattr(stored, field.attname), field.name
    stored_bets = list(Bet.objects.filter(round=stored).order_by("position"))
    assert [bet.pk for bet in played.bets.all()] == [bet.pk for bet in stored_bets]
    for handed, kept in zip(played.bets.all(), stored_bets, strict=True):
        for field in Bet._meta.concrete_fields:
            assert getattr(handed, field.attname) == getattr(kept, field.attname), field.name
    assert digest_of(stored, stored_bets) == stored.hash


def test_617b8_f_the_ledger_and_the_wallet_move_together(funded_player, live_offering):
    played, _ = play(funded_player, live_offering, "store-round-0002", outcome=3)

    wallet = Wallet.objects.get(player=funded_player)
    entries = list(LedgerEntry.objects.filter(round=played).order_by("pk"))
    assert [(entry.kind, entry.amount) for entry in entries] == [
        ("stake", -2000),
        ("return", 2400),  # straight up on 3 at 11 to 1
    ]
    assert entries[-1].balance_after == wallet.balance == played.balance_after == 100_400
    assert (wallet.rounds_played, wallet.chain_head) == (1, played.hash)
    assert all(entry.created_at == wallet.updated_at for entry in entries)


def test_a_lost_round_writes_only_its_stake(funded_player, live_offering):
    played, _ = play(
        funded_player, live_offering, "store-round-0003", [{"kind": "red", "stake": 200}], 2
    )  # 2 is black on the standard wheel

    assert list(LedgerEntry.objects.filter(round=played).values_list("kind", "amount")) == [
        ("stake", -200)
    ]


def test_a_key_already_used_writes_nothing(funded_player, live_offering):
    first, _ = play(funded_player, live_offering, "store-round-0004")
    wallet_before = Wallet.objects.values().get(player=funded_player)
    connection = store.connection_for_rounds()

    with transaction.atomic():
        inputs = store.read_for_round(
            connection,
            player_id=funded_player.pk,
            idempotency_key="another-key-0001",
            offering_id=live_offering.pk,
        )
        wallet = inputs.wallet
        values = {name: getattr(first, name) for name in store.ROUND_COLUMNS}
        values.update(sequence=2, prev_hash=first.hash, hash="f" * 64)  # the key stays taken
        written = store.write_round(
            connection,
            RoundTransaction(),
            round_values=values,
            bets=[
                {
                    "position": 0,
                    "kind": "red",
                    "numbers": [],
                    "spot": "red",
                    "stake": 2,
                    "returned": 0,
                }
            ],
            entries=[{"kind": "stake", "amount": -2, "balance_after": wallet.balance - 2}],
            wallet=wallet,
        )

    assert written is None
    assert Round.objects.count() == 1
    assert Bet.objects.count() == 10
    assert LedgerEntry.objects.count() == 3  # the top-up, the stake and the return
    assert Wallet.objects.values().get(player=funded_player) == wallet_before


def _forgetting_the_key(monkeypatch):
    """The read of a request that began before a round under its key was committed."""
    read = store.read_for_round

    def stale(*args, **kwargs):
        inputs = read(*args, **kwargs)
        return store.RoundInputs(inputs.wallet, None, inputs.offering)

    monkeypatch.setattr(store, "read_for_round", stale)


def test_a_key_committed_while_waiting_for_the_lock_replays_that_round(
    funded_player, live_offering, monkeypatch
):
    first, _ = play(funded_player, live_offering, "store-round-0005")
    _forgetting_the_key(monkeypatch)

    again, replayed = play(funded_player, live_offering, "store-round-0005")

    assert replayed
    assert again.pk == first.pk
    assert Round.objects.count() == 1
    assert Wallet.objects.get(player=funded_player).balance == first.balance_after


def test_a_key_committed_with_other_wagers_while_waiting_is_a_conflict(
    funded_player, live_offering, monkeypatch
):
    play(funded_player, live_offering, "store-round-0006")
    _forgetting_the_key(monkeypatch)

    with pytest.raises(Conflict):
        play(funded_player, live_offering, "store-round-0006", [{"kind": "red", "stake": 200}])

    assert Round.objects.count() == 1


def test_810a11_the_chain_verifies_after_rounds_written_this_way(
    funded_player, live_offering, capsys
):
    for number in range(3):
        play(funded_player, live_offering, f"store-chain-{number:04d}", outcome=number)

    call_command("verify_round_chain")

    assert "3 rounds" in capsys.readouterr().out


def test_on_a_sqlite_without_returning_the_ids_are_read_back(
    funded_player, live_offering, monkeypatch
):
    connection = store.connection_for_rounds()
    if connection.vendor != "sqlite":
        pytest.skip("only the SQLite path writes in several statements")
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", False)

    played, _ = play(funded_player, live_offering, "store-old-sqlite-1")
    again, replayed = play(funded_player, live_offering, "store-old-sqlite-1")

    stored_bets = list(Bet.objects.filter(round_id=played.pk).order_by("position"))
    assert [bet.pk for bet in played.bets.all()] == [bet.pk for bet in stored_bets]
    assert (again.pk, replayed) == (played.pk, True)
    _forgetting_the_key(monkeypatch)  # the conflict is seen through the row count
    assert play(funded_player, live_offering, "store-old-sqlite-1")[1] is True
    assert Round.objects.count() == 1
