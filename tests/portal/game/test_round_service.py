import datetime

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import Sum

from portal.compliance.services.layouts import layout_withdraw
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.game.chain import verify_rounds
from portal.game.models import Bet, GamingAccount, LedgerEntry, Round, Wallet
from portal.game.play import messages as msg
from portal.game.play.services import round_play
from tests.portal.factories import in_session
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db


RED = [{"kind": "red", "stake": 200}]


def play(player, offering, wagers, key="round-key-0001", rng=None, session=None):
    return round_play(
        player=player,
        session=session if session is not None else in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=key,
        rng=rng or FixedBits(0),
    )


def _money_unchanged(player, balance=100_000):
    account = GamingAccount.objects.get(player=player)
    assert account.balance == balance
    assert Round.objects.count() == 0
    assert LedgerEntry.objects.filter(kind="stake").count() == 0


def test_617b8_g_2_zero_returns_half_of_a_straight_up_on_ten_in_a_settled_round(
    funded_player, live_offering
):
    played = play(
        funded_player, live_offering, [{"kind": "straight", "numbers": [10], "stake": 1000}]
    )

    round_obj = played.round
    assert (played.replayed, round_obj.outcome, round_obj.total_returned) == (False, 0, 500)
    assert (round_obj.balance_before, round_obj.balance_after) == (100_000, 99_500)
    assert GamingAccount.objects.get(player=funded_player).balance == 99_500


def test_617b8_f_round_pays_each_wager_at_the_approved_odds(funded_player, live_offering):
    wagers = [
        {"kind": "straight", "numbers": [5], "stake": 1000},
        {"kind": "split", "numbers": [5, 2], "stake": 1000},
        {"kind": "street", "numbers": [4, 5, 6], "stake": 1000},
        {"kind": "corner", "numbers": [1, 2, 4, 5], "stake": 1000},
        {"kind": "column", "numbers": [2, 5, 8, 11], "stake": 1000},
        {"kind": "red", "stake": 1000},  # 5 is red on the standard wheel
        {"kind": "small", "stake": 1000},
        {"kind": "big", "stake": 1000},
        {"kind": "three_numbers", "numbers": [0, 1, 2], "stake": 1000},
    ]

    round_obj = play(funded_player, live_offering, wagers, rng=FixedBits(5)).round

    returned = dict(Bet.objects.filter(round=round_obj).values_list("spot", "returned"))
    assert returned == {
        "straight:5": 12_000,
        "split:2-5": 6000,
        "street:4-5-6": 4000,
        "corner:1-2-4-5": 3000,
        "column:2-5-8-11": 3000,
        "red": 2000,
        "small": 2000,
        "big": 0,
        "three_numbers:0-1-2": 0,
    }
    assert round_obj.total_returned == 32_000


def test_810a11_round_records_versions_rng_and_balances(funded_player, live_offering):
    round_obj = play(
        funded_player, live_offering, [{"kind": "black", "stake": 200}], rng=FixedBits(14, 2)
    ).round

    assert round_obj.rng_raw == 2  # 14 was rejected and redrawn, never reduced modulo 13
    assert round_obj.outcome == 2
    assert "rejected and redrawn" in round_obj.rng_method
    assert (round_obj.rules_version, round_obj.layout_version, round_obj.paytable_version) == (
        1,
        1,
        1,
    )
    assert round_obj.game_name == "Jinzi Roulette"
    assert round_obj.software_version == "1.0.0"
    assert round_obj.paytable_odds["straight"] == "11"
    assert round_obj.started_at <= round_obj.ended_at


def test_a_retried_request_returns_the_same_round_never_a_second(funded_player, live_offering):
    wagers = [{"kind": "red", "stake": 1000}]
    first = play(funded_player, live_offering, wagers, key="retry-key-123")
    again = play(funded_player, live_offering, wagers, key="retry-key-123")

    assert (again.round.pk, again.replayed) == (first.round.pk, True)
    assert [bet.pk for bet in again.bets] == [bet.pk for bet in first.bets]
    assert Round.objects.count() == 1
    with pytest.raises(Conflict, match="already used"):
        play(funded_player, live_offering, [{"kind": "black", "stake": 1000}], key="retry-key-123")


@pytest.mark.parametrize(
    ("wagers", "message"),
    [
        ([], msg.NO_WAGERS),
        ("red", "must be a list"),
        ([{"kind": "dozen", "stake": 200}], "unknown wager kind"),
        ([{"kind": "split", "numbers": [1, 5], "stake": 200}], "617b.8(d)"),
        ([{"kind": "red", "stake": 201}], "617b.8(g)"),
        ([{"kind": "red", "stake": 200.0}], "whole number"),
        ([{"kind": "red", "stake": "200"}], "whole number"),
        ([{"kind": "red", "stake": 0}], "positive even"),
        # The table's amounts in dollars, as the player reads them.
        (
            [{"kind": "red", "stake": 250}],
            "stake $2.50 on Red is not a multiple of the table's chip unit $1.00",
        ),
        ([{"kind": "red", "stake": 60_000}], "above the table maximum $500.00"),
        ([{"kind": "red", "stake": 200, "status": "won"}], "unknown field"),
        ([{"kind": "red", "stake": 200}, {"kind": "red", "stake": 200}], "appears twice"),
        ([{"kind": "straight", "numbers": [n], "stake": 200} for n in range(13)] * 5, "at most 52"),
    ],
)
def test_bad_wagers_are_refused_before_any_money_moves(
    funded_player, live_offering, wagers, message
):
    with pytest.raises(ValidationFailed) as caught:
        play(funded_player, live_offering, wagers)

    assert message in caught.value.message
    _money_unchanged(funded_player)


def test_a_round_above_the_balance_is_refused(player, live_offering):
    wallet_top_up(player=player, amount=1000)

    with pytest.raises(ValidationFailed, match="more than your balance 1000"):
        play(player, live_offering, [{"kind": "red", "stake": 1200}])

    _money_unchanged(player, balance=1000)


def test_a_closed_offering_takes_no_bets(funded_player, live_offering, officer):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")

    with pytest.raises(Conflict, match="closed: the layout v1 is not approved"):
        play(funded_player, live_offering, [{"kind": "red", "stake": 200}])

    _money_unchanged(funded_player)


def test_only_players_play_and_unknown_offerings_are_not_found(
    funded_player, auditor, live_offering
):
    with pytest.raises(NotPermitted):
        play(auditor, live_offering, [{"kind": "red", "stake": 200}])
    with pytest.raises(NotFound):
        round_play(
            player=funded_player,
            session=in_session(funded_player),
            offering_id=999_999,
            wagers=[{"kind": "red", "stake": 200}],
            idempotency_key="no-such-table",
        )


def test_balance_always_equals_the_ledger_and_the_chain_verifies(
    funded_player, live_offering, seeded_rng
):
    for number in range(20):
        play(
            funded_player,
            live_offering,
            [
                {"kind": "straight", "numbers": [number % 13], "stake": 200},
                {"kind": "red", "stake": 400},
            ],
            key=f"round-{number:04d}",
            rng=seeded_rng,
        )

    account = GamingAccount.objects.get(player=funded_player)
    assert (
        account.balance
        == LedgerEntry.objects.filter(account=account).aggregate(s=Sum("amount"))["s"]
    )
    report = verify_rounds(Round.objects.order_by("player", "sequence").prefetch_related("bets"))
    assert (report.ok, report.checked) == (True, 20)


def test_810a11_settled_rounds_and_bets_cannot_be_changed_in_the_database(
    funded_player, live_offering
):
    play(funded_player, live_offering, [{"kind": "red", "stake": 200}])

    for statement in (
        "UPDATE game_round SET outcome = 7",
        "DELETE FROM game_bet",
        "UPDATE game_ledgerentry SET amount = 1",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)

    assert Round.objects.get().outcome == 0


def test_round_statements_do_not_grow_with_the_number_of_wagers(
    funded_player, live_offering, django_assert_num_queries
):
    one = [{"kind": "red", "stake": 200}]
    ten = [{"kind": "straight", "numbers": [n], "stake": 200} for n in range(10)]
    session = in_session(funded_player)
    play(funded_player, live_offering, one, key="warm-up-key", session=session)  # caches
    # SQLite, in a savepoint of the test's transaction (its two statements) around the
    # ORM's 14: the locked wallet (with the player's standing and notice interval), the
    # key, the offering, its listing, the account (§ 812a.4), the holder's terms in force
    # with whether the player accepted them (§ 812a.5), the session (§ 812a.9(a)(5)) and
    # whether the software running is approved (§ 461a.4); the round, its bets, its ledger
    # entries, the wallet, the account and the session's last activity. PostgreSQL, a
    # transaction of its own: BEGIN, the read (the account, the standing, the terms, the
    # session and the software's approval joined), the write (the session's activity one
    # more of its CTEs), COMMIT.
    statements = {"postgresql": 4, "sqlite": 16}[connection.vendor]

    with django_assert_num_queries(statements) as one_wager:
        play(funded_player, live_offering, one, key="one-wager-key", session=session)
    with django_assert_num_queries(statements) as ten_wagers:
        play(funded_player, live_offering, ten, key="ten-wager-key", session=session)

    assert len(one_wager.captured_queries) == len(ten_wagers.captured_queries)


def test_top_up_range_is_checked(player, holder_a):
    from portal.game.money.services.deposits import deposit_make

    # A deposit's least is one cent (the single wallet's top-up began at two).
    for amount in (0, -100, 100_001, 50.0, "100", True):
        with pytest.raises(ValidationFailed):
            deposit_make(player=player, holder_id=holder_a.pk, amount=amount, method="demo")
    assert not LedgerEntry.objects.exists()


def test_round_timestamps_are_utc(funded_player, live_offering):
    round_obj = play(funded_player, live_offering, [{"kind": "red", "stake": 200}]).round

    assert round_obj.started_at.utcoffset() == datetime.timedelta(0)


def _tamper(sql, params):
    from portal.core import append_only

    append_only.drop_all(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    append_only.install_all(connection)


def test_810a11_verify_round_chain_finds_an_altered_a_deleted_and_a_missing_last_round(
    funded_player, live_offering
):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    rounds = [play(funded_player, live_offering, RED, key=f"chain-{n:04d}").round for n in range(3)]
    call_command("verify_round_chain")

    honest = Bet.objects.get(round=rounds[0]).returned
    _tamper("UPDATE game_bet SET returned = %s WHERE round_id = %s", [honest + 200, rounds[0].pk])
    with pytest.raises(CommandError, match=f"round {rounds[0].pk}: .*altered"):
        call_command("verify_round_chain")
    _tamper("UPDATE game_bet SET returned = %s WHERE round_id = %s", [honest, rounds[0].pk])
    call_command("verify_round_chain")

    _tamper("DELETE FROM game_ledgerentry WHERE round_id = %s", [rounds[2].pk])
    _tamper("DELETE FROM game_bet WHERE round_id = %s", [rounds[2].pk])
    _tamper("DELETE FROM game_round WHERE id = %s", [rounds[2].pk])
    with pytest.raises(CommandError, match="a round is missing"):
        call_command("verify_round_chain")


def test_810a11_verify_round_chain_finds_a_forged_wallet_balance(funded_player, live_offering):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    play(funded_player, live_offering, [{"kind": "red", "stake": 200}], key="ledger-0001")
    call_command("verify_round_chain")

    Wallet.objects.filter(player=funded_player).update(balance=9_999_900)
    with pytest.raises(CommandError, match="holds 9999900, its ledger adds up to"):
        call_command("verify_round_chain")


def test_810a11_verify_round_chain_finds_a_forged_account_balance(funded_player, live_offering):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    play(funded_player, live_offering, [{"kind": "red", "stake": 200}], key="ledger-0002")
    call_command("verify_round_chain")

    account = GamingAccount.objects.get(player=funded_player)
    GamingAccount.objects.filter(pk=account.pk).update(balance=9_999_900)
    with pytest.raises(CommandError, match=f"account {account.pk} holds 9999900, its ledger"):
        call_command("verify_round_chain")
