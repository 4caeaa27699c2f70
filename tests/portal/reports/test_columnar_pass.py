"""The audit report's columnar pass (PostgreSQL) finds exactly what the reference pass
finds, round for round: the same figures, discrepancies and chain problems, on a
generated history with voids (covered and uncollected), an adjustment, deposits, a paid
withdrawal, a generous paytable whose returns round up (reading:round-up), and planted
faults: a changed bet, a deleted round, a forged link, an altered text, a spot and a stake
no table takes, a round with no bets, forged ledger entries (a deposit, a stake's balance, a
round's recorded balance, a single wallet's carry-over that leaves money). The account lines
read from PostgreSQL's COPY (``ledger_copy``) are held the same way to the ORM's, and both to
the one ledger check (``portal.game.ledger``) run over every entry of the period.

The blocks are made small, so faults fall on the edges between blocks too.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection
from django.db.models import F

from portal.demo.history import generate_history
from portal.game.ledger import Entry, ledger_of, ledger_problems
from portal.game.models import Bet, LedgerEntry, Round, Wallet
from portal.reports.audit_report import audit_report
from portal.reports.audit_report.reading import block_copy, copy_out, ledger_copy, statements
from portal.reports.audit_report.reading.ledger import account_lines
from portal.reports.audit_report.resettlement import columnar_pass, findings, finishing
from portal.reports.audit_report.resettlement.reference_pass import reference_pass
from portal.reports.audit_report.scope import scope_of
from portal.reports.document import without_streams
from tests.portal.reports.test_audit_report import _tamper
from tests.portal.reports.test_audit_report_corrections import (  # noqa: F401 (fixtures)
    PLAYED_AT,
    corrected,
)

START = datetime.date(2026, 11, 10)
END = datetime.date(2026, 11, 17)
CUTOFF = datetime.datetime(2026, 11, 20, tzinfo=datetime.UTC)


def _acc(table: dict) -> dict:
    return {
        k: (a.rounds, a.handle, a.returned, a.mean_x13, a.variance_x169) for k, a in table.items()
    }


def _picture(found: findings.Pass) -> dict:
    return {
        "checked": (found.rounds_checked, found.bets_checked),
        "groups": _acc(found.groups),
        "days": _acc(found.days),
        "spots": found.spots,
        "odds": found.odds,
        "discrepancies": (found.discrepancy_count, found.discrepancies),
        "chains": (found.chain_problem_count, found.chain_problems),
        "heads": found.heads,
    }


def _both(scope) -> tuple[dict, dict]:
    reference = reference_pass(scope)
    finishing.finish(reference)
    fast = columnar_pass.columnar_pass(scope)
    finishing.finish(fast)
    return _picture(reference), _picture(fast)


@pytest.fixture
def history(corrected):  # noqa: F811 (the fixture imported above)
    generate_history(rounds=400, holders=2, start=START, days=7, seed=26)
    return corrected


def _plant_faults() -> dict:
    """The faults planted; the ledger's by name (the entries as they were)."""
    rounds = list(Round.objects.order_by("pk").values_list("pk", flat=True))
    changed, deleted, forged, altered, spot, odd, empty = (
        rounds[n] for n in (5, 40, 41, 77, 120, 121, 200)
    )
    planted: dict = {}

    def plant():
        wrong_accounts = {
            *LedgerEntry.objects.filter(round_id=deleted).values_list("account_id", flat=True)
        }
        bet = Bet.objects.filter(round_id=changed).order_by("position").first()
        Bet.objects.filter(pk=bet.pk).update(returned=bet.returned + 2)
        LedgerEntry.objects.filter(round_id=deleted).delete()
        Bet.objects.filter(round_id=deleted).delete()
        Round.objects.filter(pk=deleted).delete()
        Round.objects.filter(pk=forged).update(prev_hash="f" * 64)
        Round.objects.filter(pk=altered).update(
            idempotency_key='say "hi" – naïve\\', game_name="Jinzi\tRoulette"
        )
        Bet.objects.filter(round_id=spot, position=0).update(spot="straight:13")
        Bet.objects.filter(round_id=odd, position=0).update(stake=301)
        Bet.objects.filter(round_id=empty).delete()
        # A forged entry: a deposit said to be larger than it was.
        deposit = LedgerEntry.objects.filter(kind="deposit").order_by("pk").first()
        LedgerEntry.objects.filter(pk=deposit.pk).update(amount=deposit.amount + 500)
        stake = LedgerEntry.objects.filter(kind="stake").order_by("-pk").first()
        LedgerEntry.objects.filter(pk=stake.pk).update(balance_after=stake.balance_after + 2)
        wrong_accounts.update((deposit.account_id, stake.account_id))
        # A round's recorded balances moved, in an account with no other fault: its stake
        # entry no longer leaves what the round recorded (and the round's hash breaks).
        staked = (
            LedgerEntry.objects.filter(kind="stake", round_id__gt=rounds[250])
            .exclude(account_id__in=wrong_accounts)
            .order_by("pk")
            .first()
        )
        Round.objects.filter(pk=staked.round_id).update(
            balance_before=F("balance_before") + 3, balance_after=F("balance_after") + 3
        )
        # A single wallet's top-up and a carry-over out of it that leaves 100 (its running
        # balance adding up), made in the period.
        wallet = Wallet.objects.order_by("pk").first()
        made = [
            LedgerEntry.objects.create(wallet=wallet, kind=kind, amount=amount, balance_after=after)
            for kind, amount, after in (("top_up", 1_000, 1_000), ("carried_out", -900, 100))
        ]
        LedgerEntry.objects.filter(pk__in=[entry.pk for entry in made]).update(created_at=PLAYED_AT)
        # A round whose "no more bets" instant was blanked hashes without its later fields.
        Round.objects.filter(pk=rounds[250]).update(bets_closed_at=None)
        planted.update(deposit=deposit, stake=stake, staked=staked, carried_out=made[1])

    _tamper(plant)
    return planted


@pytest.mark.postgres
@pytest.mark.clause("811a.7", kind="proves")
@pytest.mark.parametrize("block", [7, 64, block_copy.BLOCK])
def test_811a7_the_columnar_pass_finds_what_the_reference_finds(history, monkeypatch, block):
    if connection.vendor != "postgresql":
        pytest.skip("the columnar pass reads with PostgreSQL's COPY")
    monkeypatch.setattr(block_copy, "BLOCK", block)
    _plant_faults()
    scope = scope_of(start=START, end=END, holder_id=None, offering_id=None, cutoff=CUTOFF)

    reference, fast = _both(scope)

    assert reference["checked"][0] > 400
    assert reference["discrepancies"][0] >= 4  # the changed bet, the spot, the stake, totals
    assert reference["chains"][0] >= 4  # deleted, forged, altered, the changed bet's round
    assert fast == reference


@pytest.mark.postgres
@pytest.mark.clause("811a.9", kind="proves")
def test_811a9_the_report_is_the_same_whichever_pass_made_it(history, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the columnar pass reads with PostgreSQL's COPY")
    monkeypatch.setattr(block_copy, "BLOCK", 50)
    monkeypatch.setattr(ledger_copy, "CHUNK", 300)  # an account's entries across chunks
    _plant_faults()

    def document():
        made = without_streams(audit_report(start=START, end=END, now=CUTOFF))
        made.pop("timings")
        return json.loads(json.dumps(made, default=str, sort_keys=True))

    fast = document()
    monkeypatch.setattr(copy_out, "available", lambda: False)
    reference = document()

    assert len(fast["reconciliation"]["accounts"]["mismatched"]) >= 2
    assert fast["reconciliation"]["voids"]["rounds"] == 2
    assert fast["reconciliation"]["adjustments"]["count"] == 1
    assert fast["resettlement"]["discrepancy_count"] > 0
    assert fast == reference


def _one_check(scope) -> dict:
    """The first problem of each ledger the period's entries move, by the one ledger check
    run over every entry from the ORM, from each ledger's opening balance."""
    first, end = scope.money_span
    entries = LedgerEntry.objects.filter(created_at__gte=first, created_at__lt=end)
    openings = {
        ledger_of(wallet, account): balance
        for account, wallet, balance in (
            LedgerEntry.objects.filter(created_at__lt=first)
            .order_by("account_id", "wallet_id", "created_at", "pk")
            .values_list("account_id", "wallet_id", "balance_after")
        )
    }
    rows = entries.order_by("account_id", "wallet_id", "pk").values_list(
        *("account_id", "wallet_id", "pk", "kind", "amount", "balance_after", "round_id"),
        *("round__balance_before", "round__total_staked", "round__balance_after"),
    )
    lines = {ledger_of(wallet, account): "" for account, wallet, *_ in rows}
    found = ledger_problems(
        (
            Entry(
                ledger_of(wallet, account),
                pk,
                kind,
                amount,
                after,
                round_id,
                (before, staked, recorded) if before is not None else None,
            )  # fmt: skip
            for account, wallet, pk, kind, amount, after, round_id, before, staked, recorded in rows
        ),
        openings,
    )
    for problem in found:
        lines[problem.ledger] = lines[problem.ledger] or problem.said()
    return lines


@pytest.mark.postgres
@pytest.mark.clause("811a.9", kind="proves")
def test_811a9_the_account_lines_flag_what_the_one_ledger_check_finds(history, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the account lines read with PostgreSQL's COPY")
    monkeypatch.setattr(ledger_copy, "CHUNK", 300)  # an account's entries across chunks
    planted = _plant_faults()
    scope = scope_of(start=START, end=END, holder_id=None, offering_id=None, cutoff=CUTOFF)

    copied = {line["key"]: line["problem"] for line in account_lines(scope)}
    monkeypatch.setattr(copy_out, "available", lambda: False)
    streamed = {line["key"]: line["problem"] for line in account_lines(scope)}

    checked = _one_check(scope)
    assert copied == streamed == checked
    stake, staked, out = planted["stake"], planted["staked"], planted["carried_out"]
    assert checked[ledger_of(staked.wallet_id, staked.account_id)] == (
        f"ledger entry #{staked.pk} leaves {staked.balance_after}, its round "
        f"#{staked.round_id} recorded a balance of {staked.balance_after + 3}"
    )
    assert checked[ledger_of(out.wallet_id, None)] == (
        f"ledger entry #{out.pk} leaves the single wallet at 100; carrying it over leaves it at 0"
    )
    assert (
        f"ledger entry #{stake.pk} says the balance is {stake.balance_after + 2}, the entries "
        f"up to it add up to {stake.balance_after}"
    ) in checked.values()
    assert sum(1 for problem in checked.values() if problem) >= 4  # the deleted round's too


@pytest.mark.postgres
def test_the_pass_statements_read_the_rounds_and_bets_the_orm_reads(history):
    if connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's")
    scope = scope_of(start=START, end=END, holder_id=None, offering_id=None, cutoff=CUTOFF)
    where, params = statements.scope_condition(scope)
    with connection.cursor() as cursor:
        everything = [*params, 0, 10**9]
        rounds = copy_out.copied(
            cursor, statements.rounds_statement(where), everything, block_copy._ROUND_TYPES
        )
        bets = copy_out.copied(
            cursor, statements.bets_statement(where), [0, 10**9, *everything], block_copy._BET_TYPES
        )
    expected = list(Round.objects.filter(scope.q()).order_by("pk").values_list("pk", "hash"))
    copied = zip(rounds.column("id").to_pylist(), rounds.column("hash").to_pylist(), strict=True)
    assert list(copied) == expected
    stored = Bet.objects.filter(scope.q("round__")).order_by("round_id", "position")
    assert bets.column("stake").to_pylist() == list(stored.values_list("stake", flat=True))
    assert rounds.column("started_at").to_pylist() == list(
        Round.objects.filter(scope.q()).order_by("pk").values_list("started_at", flat=True)
    )


@pytest.mark.postgres
@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_pass_sends_one_query_and_two_per_block(history, monkeypatch):
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(block_copy, "BLOCK", 100)
    scope = scope_of(start=START, end=END, holder_id=None, offering_id=None, cutoff=CUTOFF)
    rounds = Round.objects.filter(scope.q()).count()

    with CaptureQueriesContext(connection) as queries:
        found = columnar_pass.columnar_pass(scope)

    blocks = -(-rounds // 100)
    assert found.rounds_checked == rounds and blocks > 3
    assert len(queries) == 1 + 2 * blocks
