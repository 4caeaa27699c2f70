"""A round as a web request plays it on PostgreSQL: its own ``transaction.atomic()``, the
wallet locked from the read to the commit, and nothing left behind by a refusal or by a
write that fails, whenever it fails."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

import jinzi
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import Bet, GamingAccount, LedgerEntry, Round, Wallet
from portal.game.play import sql
from tests.portal.concurrency import run_together
from tests.portal.factories import in_session
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
    """The player's balance (their accounts'), rounds played and the ledger's size."""
    wallet = Wallet.objects.get(player=player)
    balance = sum(GamingAccount.objects.filter(player=player).values_list("balance", flat=True))
    return balance, wallet.rounds_played, LedgerEntry.objects.count()


def test_a_round_is_two_statements_in_an_ordinary_transaction(
    funded_player, live_offering, django_assert_num_queries
):
    session = in_session(funded_player)
    play(funded_player, live_offering, "atomic-warm-up", session=session)  # creates caches

    # BEGIN, the read (the account, the session and whether the software running is
    # approved with it, § 812a.4, § 812a.9(a)(5), § 461a.4), the write (the session's last
    # activity with it), COMMIT: for one wager or ten.
    with django_assert_num_queries(4):
        play(funded_player, live_offering, "atomic-one-wager", RED, session=session)
    with django_assert_num_queries(4):
        played = play(funded_player, live_offering, "atomic-ten-wagers", session=session).round

    assert Round.objects.get(pk=played.pk).hash == played.hash
    assert Bet.objects.filter(round=played).count() == 10
    assert connection.get_autocommit() and not connection.in_atomic_block


@pytest.mark.clause("617b.8(e)", kind="related")
def test_617b8_e_the_wallet_stays_locked_from_the_read_to_the_commit(
    funded_player, live_offering, monkeypatch
):
    seen = []
    draw = jinzi.draw

    def draw_and_look(rng=None):  # between the read and the write
        seen.append(wallet_lock_is_free(funded_player))
        return draw(rng)

    monkeypatch.setattr(jinzi, "draw", draw_and_look)

    play(funded_player, live_offering, "atomic-locked-0001")

    assert seen == [False]
    assert wallet_lock_is_free(funded_player)


def test_work_queued_on_commit_runs_after_the_round_commits(
    funded_player, live_offering, monkeypatch
):
    committed = []
    draw = jinzi.draw

    def draw_and_queue(rng=None):
        transaction.on_commit(lambda: committed.append(Round.objects.count()))
        return draw(rng)

    monkeypatch.setattr(jinzi, "draw", draw_and_queue)

    play(funded_player, live_offering, "atomic-on-commit-1")

    assert committed == [1]  # ran once, and saw the round


def test_a_refused_round_changes_nothing_and_releases_the_wallet(funded_player, live_offering):
    before = money(funded_player)

    # The table's limits are read with the wallet, under its lock.
    with pytest.raises(ValidationFailed, match="above the table maximum"):
        play(funded_player, live_offering, "atomic-too-much", [{"kind": "red", "stake": 200_000}])

    assert money(funded_player) == before
    assert wallet_lock_is_free(funded_player)
    played = play(funded_player, live_offering, "atomic-after-refusal")
    assert not played.replayed and played.round.sequence == 1


def test_a_write_the_database_refuses_leaves_nothing_behind(
    funded_player, live_offering, monkeypatch
):
    before = money(funded_player)
    as_json = sql._as_json

    def with_a_stake_credited(rows, names):
        if "balance_after" in names:  # the ledger entries: a stake must be a debit
            rows = [{**row, "amount": abs(row["amount"])} for row in rows]
        return as_json(rows, names)

    monkeypatch.setattr(sql, "_as_json", with_a_stake_credited)

    with pytest.raises(IntegrityError, match="ledger_sign_matches_kind"):
        play(funded_player, live_offering, "atomic-refused-write")

    assert money(funded_player) == before
    assert not Round.objects.exists() and not Bet.objects.exists()
    assert wallet_lock_is_free(funded_player)
    monkeypatch.undo()
    played = play(funded_player, live_offering, "atomic-after-failure")  # same connection
    assert played.round.sequence == 1


def test_a_write_refused_at_commit_leaves_nothing_and_the_next_round_plays(
    funded_player, live_offering, monkeypatch
):
    before = money(funded_player)
    prepared = sql._prepared

    def with_a_missing_layout(model, values, connection):
        if "layout_id" in values:
            values = {**values, "layout_id": 999_999_999}
        return prepared(model, values, connection)

    monkeypatch.setattr(sql, "_prepared", with_a_missing_layout)

    # Django's foreign keys are checked at commit: the server refuses the COMMIT.
    with pytest.raises(IntegrityError, match="foreign key"):
        play(funded_player, live_offering, "atomic-missing-layout")

    assert money(funded_player) == before
    assert not Round.objects.exists()
    monkeypatch.undo()
    assert play(funded_player, live_offering, "atomic-after-missing-layout").round.sequence == 1


def test_an_error_once_the_write_is_sent_commits_nothing(funded_player, live_offering):
    before = money(funded_player)

    def fail_after_the_write(execute, sql_text, params, many, context):
        result = execute(sql_text, params, many, context)
        if sql_text.startswith("WITH new_round"):
            raise RuntimeError("the worker is stopped after sending the write")
        return result

    with pytest.raises(RuntimeError), connection.execute_wrapper(fail_after_the_write):
        play(funded_player, live_offering, "atomic-stopped-0001")

    assert money(funded_player) == before
    assert not Round.objects.exists() and not Bet.objects.exists()
    assert play(funded_player, live_offering, "atomic-stopped-0002").round.sequence == 1


def test_a_retry_is_answered_with_its_round_and_a_reused_key_is_a_conflict(
    funded_player, live_offering
):
    first = play(funded_player, live_offering, "atomic-retry-0001")

    again = play(funded_player, live_offering, "atomic-retry-0001")
    with pytest.raises(Conflict):
        play(funded_player, live_offering, "atomic-retry-0001", RED)

    assert again.replayed and again.round.pk == first.round.pk
    assert Round.objects.count() == 1


def test_a_first_round_creates_the_wallet_then_checks_the_account(player, live_offering):
    """§ 812a.4: a holder's tables are played from the account with that holder; a player
    without one gets their wallet (the chain's head), and the round is refused."""
    with pytest.raises(ValidationFailed, match="no account with"):
        play(player, live_offering, "atomic-no-wallet")

    assert money(player) == (0, 0, 0)
