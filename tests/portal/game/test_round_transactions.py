"""A round outside any transaction, as a web request plays it: on PostgreSQL one implicit
transaction (psycopg's pipeline mode), with the wallet locked from the read to the commit
and nothing left behind by a refusal or a failed write."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

import jinzi
from portal.core.errors import Conflict, ValidationFailed
from portal.game import store
from portal.game.models import Bet, LedgerEntry, Round, Wallet
from tests.portal.concurrency import run_together
from tests.portal.game.conftest import play_round as play

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RED = [{"kind": "red", "stake": 200}]


def wallet_lock_is_free(player) -> bool:
    """Whether another connection can lock ``player``'s wallet at once."""

    def try_lock():
        try:
            with transaction.atomic():
                Wallet.objects.select_for_update(nowait=True).get(player=player)
        except OperationalError:
            return False
        return True

    (free,) = run_together(try_lock)
    return free


def money(player):
    wallet = Wallet.objects.get(player=player)
    return wallet.balance, wallet.rounds_played, LedgerEntry.objects.count()


def test_a_round_runs_in_an_implicit_transaction_of_two_statements(
    funded_player, live_offering, django_assert_num_queries
):
    play(funded_player, live_offering, "implicit-warm-up")  # first use creates caches
    with store.round_transaction(connection) as tx:
        assert tx.implicit

    # The read and the write; no BEGIN and no COMMIT are sent, for one wager or ten.
    with django_assert_num_queries(2):
        play(funded_player, live_offering, "implicit-one-wager", RED)
    with django_assert_num_queries(2):
        played, _ = play(funded_player, live_offering, "implicit-ten-wagers")

    assert Round.objects.get(pk=played.pk).hash == played.hash
    assert Bet.objects.filter(round=played).count() == 10


def test_inside_a_transaction_a_round_is_an_ordinary_atomic_block(funded_player):
    with transaction.atomic(), store.round_transaction(connection) as tx:
        assert not tx.implicit


def test_617b8_e_the_wallet_stays_locked_from_the_read_to_the_commit(
    funded_player, live_offering, monkeypatch
):
    seen = []
    draw = jinzi.draw

    def draw_and_look(rng=None):  # between the read and the write
        seen.append(wallet_lock_is_free(funded_player))
        return draw(rng)

    monkeypatch.setattr(jinzi, "draw", draw_and_look)

    play(funded_player, live_offering, "implicit-locked-0001")

    assert seen == [False]
    assert wallet_lock_is_free(funded_player)


def test_a_refused_round_changes_nothing_and_releases_the_wallet(funded_player, live_offering):
    before = money(funded_player)

    # The table's limits are read with the wallet, under its lock.
    with pytest.raises(ValidationFailed, match="above the table maximum"):
        play(funded_player, live_offering, "implicit-too-much", [{"kind": "red", "stake": 200_000}])

    assert money(funded_player) == before
    assert wallet_lock_is_free(funded_player)
    played, replayed = play(funded_player, live_offering, "implicit-after-refusal")
    assert not replayed and played.sequence == 1


def test_a_write_the_database_refuses_leaves_nothing_behind(
    funded_player, live_offering, monkeypatch
):
    before = money(funded_player)
    rows_as_json = store._rows_as_json

    def with_a_stake_credited(rows, names):
        if "balance_after" in names:  # the ledger entries: a stake must be a debit
            rows = [{**row, "amount": abs(row["amount"])} for row in rows]
        return rows_as_json(rows, names)

    monkeypatch.setattr(store, "_rows_as_json", with_a_stake_credited)

    with pytest.raises(IntegrityError, match="ledger_sign_matches_kind"):
        play(funded_player, live_offering, "implicit-refused-write")

    assert money(funded_player) == before
    assert not Round.objects.exists() and not Bet.objects.exists()
    assert wallet_lock_is_free(funded_player)
    monkeypatch.undo()
    played, _ = play(funded_player, live_offering, "implicit-after-failure")  # same connection
    assert played.sequence == 1


def test_a_retry_is_answered_with_its_round_and_a_reused_key_is_a_conflict(
    funded_player, live_offering
):
    first, _ = play(funded_player, live_offering, "implicit-retry-0001")

    again, replayed = play(funded_player, live_offering, "implicit-retry-0001")
    with pytest.raises(Conflict):
        play(funded_player, live_offering, "implicit-retry-0001", RED)

    assert replayed and again.pk == first.pk
    assert Round.objects.count() == 1


def test_a_first_round_creates_the_wallet_then_checks_the_balance(player, live_offering):
    with pytest.raises(ValidationFailed, match="more than your balance"):
        play(player, live_offering, "implicit-no-wallet")

    assert money(player) == (0, 0, 0)
