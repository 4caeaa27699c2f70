"""The round-history generator: its rounds are what real play stores, and every check passes.

A small history is generated into the real database (on PostgreSQL through COPY, as a
transactional test), then read back and held against the game engine, the chain and ledger
checks, the compliance records and a round played through the real service.
"""

import datetime
import io
from collections import defaultdict

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Count, Max, Min, Sum

import jinzi
import portal
from portal.audit.models import AuditEvent, AuditHead
from portal.compliance.models import Offering, Paytable
from portal.compliance.selectors import offering_is_live
from portal.core.padates import day_starts, pa_today
from portal.demo.history import (
    AUDIT_ROW,
    BET_ROW,
    DEPOSIT_ROW,
    LEDGER_ROW,
    ROUND_ROW,
    HistoryError,
    generate_history,
)
from portal.game.chain import digest_of
from portal.game.models import Bet, Deposit, GamingAccount, LedgerEntry, Round, Wallet
from portal.game.money.services.deposits import MAX_DEMO_TOP_UP
from portal.game.play.services import round_play
from tests.portal.factories import in_session
from tests.portal.funding import wallet_top_up

pytestmark = pytest.mark.django_db

START = datetime.date(2026, 10, 1)
SHARED = (
    *("offering_id", "rules_submission_id", "rules_version", "layout_id", "layout_version"),
    *("paytable_id", "paytable_version", "paytable_odds", "wheel_order", "first_colour"),
    *("game_name", "software_version", "portal_version", "status", "rng_method"),
)


def history(rounds=200, holders=2, **options):
    report = generate_history(
        rounds=rounds, holders=holders, start=START, days=10, seed=617, **options
    )
    offerings = [table.offering_id for table in report.tables]
    return report, Round.objects.filter(offering_id__in=offerings)


def verified() -> str:
    out = io.StringIO()
    call_command("verify_round_chain", stdout=out)
    call_command("verify_audit_chain", stdout=out)
    call_command("verify_records", stdout=out)
    return out.getvalue()


def test_rows_name_every_column_of_the_game_tables():
    assert set(ROUND_ROW) == {f.attname for f in Round._meta.concrete_fields}
    assert {"id", *BET_ROW} == {f.attname for f in Bet._meta.concrete_fields}
    assert set(LEDGER_ROW) == {f.attname for f in LedgerEntry._meta.concrete_fields}
    assert set(DEPOSIT_ROW) == {f.attname for f in Deposit._meta.concrete_fields}
    assert {"id", *AUDIT_ROW} == {f.attname for f in AuditEvent._meta.concrete_fields}


def test_a_history_verifies_and_adds_up():
    report, rounds = history()

    assert (report.rounds, rounds.count()) == (200, 200)
    bets = Bet.objects.filter(round__in=rounds)
    entries = LedgerEntry.objects.filter(wallet__player__rounds__in=rounds).distinct()
    assert (bets.count(), entries.count()) == (report.bets, report.entries)
    assert 6 <= report.bets / report.rounds <= 14  # about 10 bets a round
    assert "round chains intact: 200 rounds verified" in verified()
    for round_obj in rounds.prefetch_related("bets"):
        assert digest_of(round_obj, round_obj.bets.all()) == round_obj.hash
    totals = rounds.annotate(staked=Sum("bets__stake"), back=Sum("bets__returned"))
    for staked, back, total_staked, total_returned in totals.values_list(
        "staked", "back", "total_staked", "total_returned"
    ):
        assert (staked, back) == (total_staked, total_returned)


def test_812a7_811a7_every_deposit_has_its_record_and_audit_event_chained_after_the_trail():
    """Each account is funded as ``deposit_make`` funds it by the demo method: a deposit
    ledger entry on the account, its ``Deposit`` (made by the player, reference "demo"),
    and its ``account.deposit`` event, chained after the trail's head."""
    report, rounds = history()

    deposits = LedgerEntry.objects.filter(
        kind="deposit", wallet__player__in=rounds.values("player")
    ).select_related("wallet__player", "deposit", "account")
    events = {
        event.after["ledger_entry"]: event
        for event in AuditEvent.objects.filter(action="account.deposit")
    }
    assert report.deposits == report.audit_events == len(deposits) == len(events) > 0
    for entry in deposits:
        event, deposit = events[entry.pk], entry.deposit
        player = entry.wallet.player
        assert entry.account.player_id == player.pk and entry.round_id is None
        assert (deposit.account_id, deposit.amount, deposit.method, deposit.reference) == (
            entry.account_id,
            entry.amount,
            "demo",
            "demo",
        )
        assert (deposit.made_by_id, deposit.made_at) == (player.pk, entry.created_at)
        assert 0 < deposit.amount <= MAX_DEMO_TOP_UP
        assert (event.actor_id, event.actor_username) == (player.pk, player.username)
        assert (event.object_type, event.object_id) == ("player_account", str(entry.account_id))
        assert event.after == {
            "deposit": deposit.pk,
            "ledger_entry": entry.pk,
            "amount": entry.amount,
            "method": "demo",
            "reference": "demo",
            "balance_after": entry.balance_after,
        }
        assert event.before == {"balance": entry.balance_after - entry.amount}
        assert event.occurred_at == entry.created_at  # when the money came in
    assert not LedgerEntry.objects.filter(kind="top_up").exists()
    last = AuditEvent.objects.order_by("-sequence").first()
    head = AuditHead.objects.get()
    assert (head.sequence, head.hash) == (last.sequence, last.hash)
    assert last.sequence == AuditEvent.objects.count()  # one unbroken sequence
    text = verified()
    assert "audit chain intact" in text and "records intact" in text


def test_812a4_each_round_is_played_from_the_account_with_its_tables_holder():
    """A player has one account with each holder; a round's balances are that account's,
    and each account's entries chain its balance from 0 to what it holds."""
    _, rounds = history(holders=3)

    players = set(rounds.values_list("player_id", flat=True))
    accounts = GamingAccount.objects.filter(player_id__in=players)
    assert accounts.count() == len(players) * 3
    assert not Wallet.objects.filter(player_id__in=players).exclude(balance=0).exists()
    for account in accounts:
        running = 0
        for entry in account.entries.order_by("pk"):
            running += entry.amount
            assert entry.balance_after == running
            if entry.round_id is not None:
                assert entry.round.offering.holder_id == account.holder_id
        assert (account.balance, account.held) == (running, 0)
    for round_obj in rounds.select_related("offering"):
        stake = round_obj.ledger_entries.get(kind="stake")
        assert stake.account.holder_id == round_obj.offering.holder_id
        assert stake.balance_after == round_obj.balance_before - round_obj.total_staked


def test_every_bet_pays_what_the_engine_says_under_the_recorded_paytable():
    _, rounds = history()

    kinds = set()
    for round_obj in rounds.prefetch_related("bets"):
        paytable = jinzi.Paytable.of(round_obj.paytable_odds)
        wheel = jinzi.Wheel.of(round_obj.wheel_order, first=round_obj.first_colour)
        limits = Offering.objects.get(pk=round_obj.offering_id).rules_submission.games.get()
        for bet in round_obj.bets.all():
            wager = jinzi.Wager.of(bet.kind, bet.numbers)
            assert wager.spot == bet.spot
            expected = jinzi.settle(
                wager, bet.stake, round_obj.outcome, paytable=paytable, wheel=wheel
            )
            assert bet.returned == expected
            assert bet.stake % limits.chip_unit == 0
            assert limits.min_wager <= bet.stake <= limits.max_wager
            kinds.add(bet.kind)
        assert round_obj.total_staked <= limits.max_round_stake
        assert round_obj.rng_raw == round_obj.outcome
    by_kind = dict(Bet.objects.filter(round__in=rounds).values_list("kind").annotate(n=Count("pk")))
    assert len(kinds) >= 8
    assert by_kind["red"] > by_kind["straight"] / 13  # an outside spot beats any one number
    assert by_kind["column"] > by_kind["straight"]


def test_rounds_span_paytable_versions_holders_and_live_tables():
    report, rounds = history(holders=3)

    assert rounds.values("offering__holder").distinct().count() == 3
    assert set(rounds.values_list("paytable_version", flat=True)) == {1, 2}
    assert rounds.values("paytable_id").distinct().count() >= 4  # v1 and v2 of two, table 2
    switch = day_starts(START + datetime.timedelta(days=5))
    for table in report.tables:
        mine = rounds.filter(offering_id=table.offering_id)
        if len(table.eras) == 2:
            assert mine.filter(paytable_version=1).aggregate(m=Max("started_at"))["m"] < switch
            assert mine.filter(paytable_version=2).aggregate(m=Min("started_at"))["m"] >= switch
        offering = Offering.objects.get(pk=table.offering_id)
        span = mine.aggregate(first=Min("started_at"), last=Max("started_at"))
        assert offering_is_live(offering, at=span["first"]).live
        assert offering_is_live(offering, at=span["last"]).live
    for paytable_id, version, odds in rounds.values_list(
        "paytable_id", "paytable_version", "paytable_odds"
    ).distinct():
        record = Paytable.objects.get(pk=paytable_id)
        assert (record.version, record.odds) == (version, odds)
    generous = [odds for odds in rounds.values_list("paytable_odds", flat=True) if odds]
    assert any(not jinzi.Paytable.of(odds).is_minimum for odds in generous)


def test_each_players_rounds_and_ledger_follow_in_time():
    _, rounds = history()

    by_player = defaultdict(list)
    for round_obj in rounds.select_related("offering").order_by("player_id", "sequence"):
        by_player[round_obj.player_id].append(round_obj)
    assert len(by_player) == 5
    for player_id, played in by_player.items():
        assert [r.sequence for r in played] == list(range(1, len(played) + 1))
        for earlier, later in zip(played, played[1:], strict=False):
            assert earlier.ended_at <= later.started_at
        by_holder = defaultdict(list)  # one account per holder (§ 812a.4)
        for r in played:
            by_holder[r.offering.holder_id].append(r)
        for mine in by_holder.values():
            for earlier, later in zip(mine, mine[1:], strict=False):
                assert later.balance_before >= earlier.balance_after  # deposits only add
        for r in played:
            assert r.started_at < r.bets_closed_at < r.ended_at
            assert datetime.date(2026, 10, 1) <= r.started_at.date() <= datetime.date(2026, 10, 11)
        wallet = Wallet.objects.get(player_id=player_id)
        last = played[-1]
        assert (wallet.balance, wallet.rounds_played) == (0, last.sequence)
        assert (wallet.chain_head, wallet.updated_at) == (last.hash, last.ended_at)
        for holder_id, mine in by_holder.items():
            account = GamingAccount.objects.get(player_id=player_id, holder_id=holder_id)
            assert (account.balance, account.updated_at) == (
                mine[-1].balance_after,
                mine[-1].ended_at,
            )
        for entry in wallet.entries.select_related("round", "account"):
            if entry.round is not None:
                assert entry.created_at == entry.round.ended_at
            else:
                funded = rounds.filter(
                    player_id=player_id,
                    offering__holder_id=entry.account.holder_id,
                    started_at__gte=entry.created_at,
                )
                assert entry.kind == "deposit" and funded.exists()


def test_a_history_round_is_what_the_service_stores():
    _, rounds = history()
    last = rounds.filter(paytable_version=2).order_by("-started_at").first()
    player = last.player
    wagers = [
        {"kind": bet.kind, "numbers": bet.numbers, "stake": bet.stake} for bet in last.bets.all()
    ]

    # The same request again: the service finds the round under its key and fingerprint.
    again = round_play(
        player=player,
        session=in_session(player),
        offering_id=last.offering_id,
        wagers=wagers,
        idempotency_key=last.idempotency_key,
    )
    assert again.replayed and again.round.pk == last.pk
    # A new round on the same table, through the service, continues the player's chain.
    wallet_top_up(player=player, amount=10_000, holder=last.offering.holder)
    real = round_play(
        player=player,
        session=in_session(player),
        offering_id=last.offering_id,
        wagers=wagers[:1],
        idempotency_key="after-history",
    ).round
    real.refresh_from_db()
    generated = Round.objects.filter(player=player, sequence=real.sequence - 1).get()
    assert generated.offering_id == real.offering_id
    assert {f: getattr(real, f) for f in SHARED} == {f: getattr(last, f) for f in SHARED}
    assert real.rng_method == jinzi.RNG_METHOD and last.portal_version == portal.__version__
    assert real.prev_hash == generated.hash
    assert "round chains intact" in verified()


def test_generating_twice_keeps_every_chain_valid():
    first, _ = history(rounds=60)
    second, _ = history(rounds=60)

    assert first.tag != second.tag
    assert Round.objects.count() >= 120
    assert "round chains intact" in verified()


def test_the_command_prints_what_it_made_and_how_fast():
    out = io.StringIO()
    call_command(
        "generate_round_history",
        "--rounds=40",
        "--holders=2",
        "--start=2026-10-01",
        "--days=3",
        "--seed=1",
        stdout=out,
    )

    text = out.getvalue()
    assert "40 rounds" in text and "rounds/s" in text and "bets/s" in text
    assert "paytable v1" in text and "paytable v2" in text


@pytest.mark.parametrize(
    ("start", "days", "says"),
    [
        (datetime.date(2025, 6, 1), 5, "takes effect on 2025-06-14"),
        (pa_today() - datetime.timedelta(days=10), 30, "end it by today"),
    ],
)
def test_a_period_outside_the_rule_or_not_yet_over_is_refused(start, days, says):
    with pytest.raises(HistoryError, match=says):
        generate_history(rounds=10, start=start, days=days)
    with pytest.raises(CommandError, match=says):
        call_command("generate_round_history", "--rounds=10", f"--start={start}", f"--days={days}")
    assert not Round.objects.exists()
