"""Ledger entries against their rounds and audited top-ups, wallets against their
ledgers (§ 810a.11, § 811a.7)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    Q,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from portal.audit.models import AuditEvent
from portal.game.models import LedgerEntry, LedgerKind, Round, Wallet
from portal.game.funds import TOP_UP_ACTION
from portal.integrity.records.report import (
    CHUNK,
    MONEY_CLAUSE,
    RECORDS_CLAUSE,
    RecordsReport,
    first_of,
    merged,
)

STAKE, RETURN, TOP_UP = LedgerKind.STAKE, LedgerKind.RETURN, LedgerKind.TOP_UP


# Rounds and their ledger entries -------------------------------------------------------


def check_round_entries(report: RecordsReport) -> None:
    """Each stake or return entry moves its round's total, to the balance the round
    recorded, in its player's wallet; a top-up entry names no round."""
    same_player = Q(wallet__player_id=F("round__player_id"))
    stake_ok = Q(
        same_player,
        round__isnull=False,
        amount=-F("round__total_staked"),
        balance_after=F("round__balance_before") - F("round__total_staked"),
    )
    return_ok = Q(
        same_player,
        round__isnull=False,
        amount=F("round__total_returned"),
        balance_after=F("round__balance_after"),
    )
    bad = LedgerEntry.objects.filter(
        (Q(kind=STAKE) & ~stake_ok)
        | (Q(kind=RETURN) & ~return_ok)
        | Q(kind=TOP_UP, round__isnull=False)
        | ~Q(kind__in=LedgerKind.values)
    ).order_by("pk")
    columns = (
        *("pk", "wallet_id", "wallet__player_id", "kind", "amount", "balance_after", "round_id"),
        *("round__player_id", "round__total_staked", "round__total_returned"),
        *("round__balance_before", "round__balance_after"),
    )
    for row in bad.values_list(*columns).iterator(chunk_size=CHUNK):
        entry, wallet, player, kind, amount, after, round_id, *played = row
        subject = f"ledger entry #{entry} (wallet #{wallet}, {kind} {amount:+d})"
        report.add("ledger", subject, f"{MONEY_CLAUSE}: {_entry_problem(row)}")


def _entry_problem(row: tuple) -> str:
    _, _, player, kind, amount, after, round_id, r_player, staked, returned, r_before, r_after = row
    if kind == TOP_UP:
        return f"a top-up names round #{round_id}; only stakes and returns belong to a round"
    if kind not in (STAKE, RETURN):
        return f"its kind {kind!r} is none the ledger knows"
    if round_id is None:
        return f"a {kind} entry that names no round: no round backs it"
    if r_player != player:
        return f"it is in player {player}'s wallet, its round #{round_id} is player {r_player}'s"
    moved, recorded = (-staked, r_before - staked) if kind == STAKE else (returned, r_after)
    if amount != moved:
        return f"it moves {amount:+d}, its round #{round_id} recorded {moved:+d}"
    return f"it leaves {after}, its round #{round_id} recorded a balance of {recorded}"


def check_rounds(report: RecordsReport) -> None:
    """A round has one stake entry and, when it returned anything, one return entry; its
    totals are the sums of its bets."""
    of_kind = {
        kind: Count("ledger_entries", filter=Q(ledger_entries__kind=kind))
        for kind in (STAKE, RETURN)
    }
    unbacked = (
        Round.objects.values("pk", "total_returned")
        .annotate(
            stakes=of_kind[STAKE],
            returns=of_kind[RETURN],
            returns_due=Case(When(total_returned__gt=0, then=Value(1)), default=Value(0)),
        )
        .filter(~Q(stakes=1) | ~Q(returns=F("returns_due")))
        .order_by("pk")
    )
    columns = ("pk", "total_returned", "stakes", "returns")
    for round_id, returned, stakes, returns in unbacked.values_list(*columns).iterator(
        chunk_size=CHUNK
    ):
        due = "one stake and one return" if returned else "one stake and no return"
        report.add(
            "round",
            f"round #{round_id}",
            f"{MONEY_CLAUSE}: the ledger has {stakes} stake and {returns} return entries for "
            f"it, where it recorded {due}: money moved for it off the ledger, or its entries "
            "are missing",
        )
    totals = (
        Round.objects.values("pk", "total_staked", "total_returned")
        .annotate(
            staked=Coalesce(Sum("bets__stake"), Value(0)),
            back=Coalesce(Sum("bets__returned"), Value(0)),
        )
        .filter(~Q(staked=F("total_staked")) | ~Q(back=F("total_returned")))
        .order_by("pk")
    )
    report.count("rounds", Round.objects.count())
    columns = ("pk", "total_staked", "total_returned", "staked", "back")
    for round_id, total, returned, staked, back in totals.values_list(*columns).iterator(
        chunk_size=CHUNK
    ):
        report.add(
            "round",
            f"round #{round_id}",
            f"{MONEY_CLAUSE}: it records {total} staked and {returned} returned, its bets "
            f"add up to {staked} and {back}",
        )


# Top-ups ---------------------------------------------------------------------------------


def _top_up_events(report: RecordsReport) -> Iterator[tuple[int, list[tuple]]]:
    """(ledger entry id, the top-up events naming it) by entry id. Events that name no
    entry (sorted first or last, as the database puts nulls) are reported on the way."""
    events = (
        AuditEvent.objects.filter(action=TOP_UP_ACTION)
        .annotate(entry=Cast(KT("after__ledger_entry"), BigIntegerField()))
        .order_by("entry", "sequence")
        .values_list("entry", "sequence", "object_type", "object_id", "actor_id", "after")
    )
    for entry_id, group in groupby(events.iterator(chunk_size=CHUNK), key=lambda r: r[0]):
        if entry_id is not None:
            yield entry_id, list(group)
            continue
        for _, sequence, *_rest in group:
            report.add(
                "top-up",
                f"audit event #{sequence}",
                f"{RECORDS_CLAUSE}: a {TOP_UP_ACTION} event that names no ledger entry",
            )


def check_top_ups(report: RecordsReport) -> None:
    """Every top-up entry has exactly one ``wallet.top_up`` event, which names its wallet,
    its player (the actor), its amount and the balance it left; every such event names a
    top-up entry."""
    entries = (
        LedgerEntry.objects.filter(kind=TOP_UP)
        .order_by("pk")
        .values_list("pk", "wallet_id", "wallet__player_id", "amount", "balance_after")
    )
    streamed = entries.iterator(chunk_size=CHUNK)
    for entry, entry_id, events in merged(streamed, _top_up_events(report), key=first_of):
        if entry is None:
            report.add(
                "top-up",
                f"audit event #{events[0][1]}",
                f"{RECORDS_CLAUSE}: it records a top-up as ledger entry #{entry_id}, "
                "which is no top-up in the ledger",
            )
            continue
        report.count("top-ups")
        _check_top_up(entry, events or [], report)


def _check_top_up(row: tuple, events: list[tuple], report: RecordsReport) -> None:
    entry_id, wallet, player, amount, balance_after = row
    subject = f"ledger entry #{entry_id} (wallet #{wallet}, top-up {amount:+d})"
    if not events:
        report.add(
            "top-up",
            subject,
            f"{RECORDS_CLAUSE}: no {TOP_UP_ACTION} audit event records this top-up: it was "
            "written outside wallet_top_up (forged credit)",
        )
        return
    if len(events) > 1:
        numbers = ", ".join(f"#{event[1]}" for event in events)
        report.add(
            "top-up", subject, f"{RECORDS_CLAUSE}: {len(events)} audit events ({numbers}) name it"
        )
    for _, sequence, object_type, object_id, actor_id, after in events:
        said = {
            "wallet": (object_type, object_id) == ("wallet", str(wallet)),
            "player": actor_id == player,
            "amount": after.get("amount") == amount,
            "balance": after.get("balance_after") == balance_after,
        }
        wrong = [name for name, ok in said.items() if not ok]
        if wrong:
            report.add(
                "top-up",
                subject,
                f"{RECORDS_CLAUSE}: its audit event #{sequence} records another "
                f"{', '.join(wrong)} (event: {object_type} {object_id}, actor {actor_id}, "
                f"amount {after.get('amount')}, balance {after.get('balance_after')}; "
                f"ledger: wallet {wallet}, player {player}, amount {amount}, "
                f"balance {balance_after})",
            )


# Wallets ---------------------------------------------------------------------------------


def check_wallets(report: RecordsReport) -> None:
    """Each entry's balance_after is its wallet's running sum (so the last one is the
    ledger's sum), and each wallet's balance is its ledger's sum (0 with no entries)."""
    running = Window(Sum("amount"), partition_by=[F("wallet_id")], order_by=F("pk").asc())
    off = (
        LedgerEntry.objects.annotate(running=running)
        .filter(~Q(balance_after=F("running")))
        .order_by("wallet_id", "pk")
        .values_list("wallet_id", "pk", "balance_after", "running")
    )
    for wallet_id, group in groupby(off.iterator(chunk_size=CHUNK), key=lambda row: row[0]):
        rows = list(group)
        _, entry_id, after, total = rows[0]
        more = f" (and {len(rows) - 1} later entries)" if len(rows) > 1 else ""
        report.add(
            "wallet",
            f"wallet #{wallet_id}",
            f"{MONEY_CLAUSE}: ledger entry #{entry_id} says the balance is {after}, the "
            f"entries up to it add up to {total}{more}",
        )
    report.count("wallets", Wallet.objects.count())
    report.count("ledger entries", LedgerEntry.objects.count())
    wrong = (
        Wallet.objects.values("pk", "player_id", "balance")
        .annotate(total=Coalesce(Sum("entries__amount"), Value(0)))
        .filter(~Q(balance=F("total")))
        .order_by("pk")
    )
    for wallet_id, player, balance, summed in wrong.values_list(
        "pk", "player_id", "balance", "total"
    ).iterator(chunk_size=CHUNK):
        report.add(
            "wallet",
            f"wallet #{wallet_id} (player {player})",
            f"{MONEY_CLAUSE}: it holds {balance}, its ledger adds up to {summed}",
        )
