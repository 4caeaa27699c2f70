"""A round outside any transaction, as a web request plays it: on PostgreSQL one implicit
transaction (psycopg's pipeline mode), with the wallet locked from the read to the commit
and nothing left behind by a refusal or a failed write."""

from __future__ import annotations

import gc

import pytest
from django.contrib.auth.models import Group
from django.db import (
    IntegrityError,
    OperationalError,
    connection,
    transaction,
)
from django.db.transaction import TransactionManagementError

import jinzi
from portal.core.errors import Conflict, ValidationFailed
from portal.game import store, transactions
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
    with transactions.round_transaction(connection) as tx:
        assert tx.implicit

    # The read and the write; no BEGIN and no COMMIT are sent, for one wager or ten.
    with django_assert_num_queries(2):
        play(funded_player, live_offering, "implicit-one-wager", RED)
    with django_assert_num_queries(2):
        played, _ = play(funded_player, live_offering, "implicit-ten-wagers")

    assert Round.objects.get(pk=played.pk).hash == played.hash
    assert Bet.objects.filter(round=played).count() == 10


def test_inside_a_transaction_a_round_is_an_ordinary_atomic_block(funded_player):
    with transaction.atomic(), transactions.round_transaction(connection) as tx:
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


def protocol_messages(work) -> list[str]:
    """The messages this connection sends the server while ``work`` runs (libpq's trace)."""
    import tempfile

    from psycopg import pq

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            work()
        finally:
            pgconn.untrace()
        trace.seek(0)
        return [line.split()[2] for line in trace if line.split()[0] == "F"]


def test_a_round_sends_no_begin_or_commit_and_waits_on_the_server_twice(
    funded_player, live_offering
):
    play(funded_player, live_offering, "implicit-trace-warm")  # prepares the statements

    sent = protocol_messages(lambda: play(funded_player, live_offering, "implicit-trace-0001"))

    # A Flush answers the read and keeps the block open; the one Sync commits the write
    # (the Flush after it asks for that answer, in the same wait).
    steps = [message for message in sent if message in ("Query", "Execute", "Flush", "Sync")]
    # No Query: neither BEGIN nor COMMIT.
    assert steps == ["Execute", "Flush", "Execute", "Sync", "Flush"], sent


def test_a_write_refused_at_commit_leaves_nothing_and_the_next_round_plays(
    funded_player, live_offering, monkeypatch
):
    before = money(funded_player)
    prepared = store.prepared

    def with_a_missing_layout(model, values, connection):
        if "layout_id" in values:
            values = {**values, "layout_id": 999_999_999}
        return prepared(model, values, connection)

    monkeypatch.setattr(store, "prepared", with_a_missing_layout)

    # Django's foreign keys are checked at commit: the server refuses the Sync.
    with pytest.raises(IntegrityError, match="foreign key"):
        play(funded_player, live_offering, "implicit-missing-layout")

    assert money(funded_player) == before
    assert not Round.objects.exists()
    monkeypatch.undo()
    played, _ = play(funded_player, live_offering, "implicit-after-missing-layout")
    assert played.sequence == 1


def test_an_error_once_the_write_is_sent_commits_nothing(funded_player, live_offering, caplog):
    before = money(funded_player)

    def fail_after_the_write(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.startswith("WITH new_round"):
            raise RuntimeError("the worker is stopped after sending the write")
        return result

    with pytest.raises(RuntimeError), connection.execute_wrapper(fail_after_the_write):
        play(funded_player, live_offering, "implicit-stopped-0001")

    assert money(funded_player) == before
    assert not Round.objects.exists() and not Bet.objects.exists()
    played, _ = play(funded_player, live_offering, "implicit-stopped-0002")
    assert played.sequence == 1
    gc.collect()  # psycopg's pipeline of the closed connection was ended, not left to warn
    assert not [r for r in caplog.records if r.name.startswith("psycopg")]


def _inside_a_round(player, offering, work):
    with transactions.round_transaction(connection):
        store.read_for_round(
            connection,
            player_id=player.pk,
            idempotency_key="implicit-nested-0001",
            offering_id=offering.pk,
        )
        work()


def _nested_atomic_write(player):
    with transaction.atomic():
        Wallet.objects.filter(player=player).update(balance=0)


def _queryset_delete():  # the ORM's own atomic(savepoint=False) inside
    Group.objects.filter(name="no such group").delete()


@pytest.mark.parametrize(
    "work",
    [
        pytest.param(lambda player: _nested_atomic_write(player), id="atomic"),
        pytest.param(lambda player: _queryset_delete(), id="queryset delete"),
        pytest.param(lambda player: transaction.on_commit(lambda: None), id="on_commit"),
        pytest.param(lambda player: transaction.commit(), id="commit"),
        pytest.param(lambda player: transaction.rollback(), id="rollback"),
        pytest.param(lambda player: transaction.set_autocommit(False), id="set_autocommit"),
    ],
)
def test_transaction_control_inside_the_round_is_refused_before_it_ends_the_round(
    funded_player, live_offering, work
):
    before = money(funded_player)
    looked = []

    def attempt():
        with pytest.raises(TransactionManagementError, match="implicit transaction"):
            work(funded_player)
        looked.append(wallet_lock_is_free(funded_player))  # the block is still open

    _inside_a_round(funded_player, live_offering, attempt)

    assert looked == [False]
    assert money(funded_player) == before
    assert wallet_lock_is_free(funded_player)
    # The connection is as Django left it: autocommit, no transaction, its own methods.
    assert connection.get_autocommit() and not connection.in_atomic_block
    assert "commit" not in vars(connection) and not connection.run_on_commit
    with transaction.atomic():
        Wallet.objects.filter(player=funded_player).update(balance=0)
        transaction.set_rollback(True)
    assert money(funded_player) == before


@pytest.mark.parametrize("why", ["isolation level set", "libpq too old"])
def test_without_what_an_implicit_transaction_needs_a_round_is_atomic(
    funded_player, live_offering, monkeypatch, why
):
    if why == "isolation level set":
        monkeypatch.setitem(connection.settings_dict["OPTIONS"], "isolation_level", 1)
    else:
        monkeypatch.setattr(transactions, "_libpq_pipelines", lambda: False)

    with transactions.round_transaction(connection) as tx:
        assert not tx.implicit
    played, _ = play(funded_player, live_offering, "atomic-fallback-0001")
    assert Round.objects.get().pk == played.pk
