"""Where a round is read and written (``portal.game.play.store``): what is handed back is what
is stored, money and ledger move together, and a key already taken writes nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from portal.core.errors import Conflict
from portal.game.chain import digest_of
from portal.game.models import Bet, GamingAccount, LedgerEntry, PlaySession, Round, Wallet
from portal.game.play import sql, store
from tests.portal.game.conftest import play_round as play

pytestmark = pytest.mark.django_db


def test_810a11_the_round_handed_back_is_the_round_stored(funded_player, live_offering):
    played = play(funded_player, live_offering, "store-round-0001")

    stored = Round.objects.get()
    assert not played.replayed
    for field in Round._meta.concrete_fields:
        assert getattr(played.round, field.attname) == getattr(stored, field.attname), field.name
    stored_bets = list(Bet.objects.filter(round=stored).order_by("position"))
    assert [bet.pk for bet in played.bets] == [bet.pk for bet in stored_bets]
    for handed, kept in zip(played.bets, stored_bets, strict=True):
        for field in Bet._meta.concrete_fields:
            assert getattr(handed, field.attname) == getattr(kept, field.attname), field.name
    assert digest_of(stored, stored_bets) == stored.hash


def test_617b8_f_the_ledger_and_the_wallet_move_together(funded_player, live_offering):
    played = play(funded_player, live_offering, "store-round-0002", outcome=3).round

    wallet = Wallet.objects.get(player=funded_player)
    account = GamingAccount.objects.get(player=funded_player, holder=live_offering.holder)
    entries = list(LedgerEntry.objects.filter(round=played).order_by("pk"))
    assert [(entry.kind, entry.amount, entry.account_id) for entry in entries] == [
        ("stake", -2000, account.pk),
        ("return", 2400, account.pk),  # straight up on 3 at 11 to 1
    ]
    assert entries[-1].balance_after == account.balance == played.balance_after == 100_400
    assert wallet.balance == 0  # the single wallet of before accounts per holder
    assert (wallet.rounds_played, wallet.chain_head) == (1, played.hash)
    assert wallet.updated_at == played.ended_at


def test_a_lost_round_writes_only_its_stake(funded_player, live_offering):
    played = play(
        funded_player, live_offering, "store-round-0003", [{"kind": "red", "stake": 200}], 2
    ).round  # 2 is black on the standard wheel

    assert list(LedgerEntry.objects.filter(round=played).values_list("kind", "amount")) == [
        ("stake", -200)
    ]


def test_810a11_the_chain_verifies_after_rounds_written_this_way(
    funded_player, live_offering, capsys
):
    for number in range(3):
        play(funded_player, live_offering, f"store-chain-{number:04d}", outcome=number)

    call_command("verify_round_chain")

    assert "3 rounds" in capsys.readouterr().out


def test_sqlite_plays_through_the_orm_and_postgresql_through_the_fixed_statements():
    expected = store.SqlRounds if connection.vendor == "postgresql" else store.OrmRounds
    assert type(store.rounds_for(connection)) is expected


def test_on_a_database_without_returning_the_bets_are_read_back(
    funded_player, live_offering, monkeypatch
):
    monkeypatch.setattr(store, "rounds_for", lambda connection: store.OrmRounds())
    monkeypatch.setattr(type(connection.features), "can_return_rows_from_bulk_insert", False)

    played = play(funded_player, live_offering, "store-old-sqlite-1")

    stored_bets = list(Bet.objects.filter(round_id=played.round.pk).order_by("position"))
    assert [bet.pk for bet in played.bets] == [bet.pk for bet in stored_bets]
    assert None not in [bet.pk for bet in played.bets]


# The fixed statements' own guards (PostgreSQL only).


@pytest.mark.postgres
def test_a_key_already_used_writes_nothing(funded_player, live_offering):
    first = play(funded_player, live_offering, "store-round-0004").round
    wallet_before = Wallet.objects.values().get(player=funded_player)
    account = GamingAccount.objects.get(player=funded_player)
    account_before = GamingAccount.objects.values().get(pk=account.pk)

    with transaction.atomic():
        wallet, *_, session, _approved = sql.read_for_round(
            connection,
            player_id=funded_player.pk,
            idempotency_key="another-key-0001",
            offering_id=live_offering.pk,
            session_id=PlaySession.objects.get(public_id=first.session_id).pk,
        )
        again = Round(**{name: getattr(first, name) for name in sql.ROUND_WRITE_COLUMNS})
        again.sequence, again.prev_hash, again.hash = 2, first.hash, "f" * 64  # key stays taken
        written = sql.write_round(
            connection,
            round_obj=again,
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
            entries=[{"kind": "stake", "amount": -2, "balance_after": account.balance - 2}],
            wallet=wallet,
            account=account,
            session=session,
        )

    assert written is None
    assert Round.objects.count() == 1
    assert Bet.objects.count() == 10
    assert LedgerEntry.objects.count() == 3  # the deposit, the stake and the return
    assert Wallet.objects.values().get(player=funded_player) == wallet_before
    assert GamingAccount.objects.values().get(pk=account.pk) == account_before


def _forgetting_the_key(monkeypatch):
    """The read of a request that began before a round under its key was committed."""
    read = sql.read_for_round

    def stale(*args, **kwargs):
        wallet, _, offering, listing, _, account, terms, session, approved = read(*args, **kwargs)
        return wallet, None, offering, listing, False, account, terms, session, approved

    monkeypatch.setattr(sql, "read_for_round", stale)


@pytest.mark.postgres
def test_a_key_committed_while_waiting_for_the_lock_replays_that_round(
    funded_player, live_offering, monkeypatch
):
    first = play(funded_player, live_offering, "store-round-0005")
    _forgetting_the_key(monkeypatch)

    again = play(funded_player, live_offering, "store-round-0005")

    assert again.replayed
    assert again.round.pk == first.round.pk
    assert Round.objects.count() == 1
    assert GamingAccount.objects.get(player=funded_player).balance == first.round.balance_after


@pytest.mark.postgres
def test_a_key_committed_with_other_wagers_while_waiting_is_a_conflict(
    funded_player, live_offering, monkeypatch
):
    play(funded_player, live_offering, "store-round-0006")
    _forgetting_the_key(monkeypatch)

    with pytest.raises(Conflict):
        play(funded_player, live_offering, "store-round-0006", [{"kind": "red", "stake": 200}])

    assert Round.objects.count() == 1
