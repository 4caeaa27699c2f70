"""Ledger entries against the audit events that name them: top-ups, deposits (§ 812a.7) and
paid withdrawals (§ 812a.10), each moved by one recorded event that says the same."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

from django.db.models import BigIntegerField, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from portal.audit.models import AuditEvent
from portal.game.models import LedgerEntry, WithdrawalStatus
from portal.game.money.services.deposits import DEPOSIT_ACTION, TOP_UP_ACTION
from portal.integrity.records.money import DEPOSIT, PAY_ACTION, TOP_UP, WITHDRAWAL, entry_subject
from portal.integrity.records.report import (
    CHUNK,
    DEPOSIT_CLAUSE,
    RECORDS_CLAUSE,
    WITHDRAWAL_CLAUSE,
    RecordsReport,
    first_of,
    merged,
)

# Audit events naming a ledger entry ------------------------------------------------------


def _events_naming_entries(
    action: str, area: str, clause: str, report: RecordsReport
) -> Iterator[tuple[int, list[tuple]]]:
    """(ledger entry id, the ``action`` events naming it) by entry id. Events that name no
    entry (sorted first or last, as the database puts nulls) are reported on the way."""
    events = (
        AuditEvent.objects.filter(action=action)
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
                area,
                f"audit event #{sequence}",
                f"{clause}: a {action} event that names no ledger entry",
            )


def _one_event(
    events: list[tuple], action: str, area: str, subject: str, clause: str, report, *, missing: str
) -> bool:
    """Whether ``events`` is one event; otherwise the problem is reported."""
    if not events:
        report.add(area, subject, f"{clause}: no {action} audit event records it: {missing}")
        return False
    if len(events) > 1:
        numbers = ", ".join(f"#{event[1]}" for event in events)
        report.add(area, subject, f"{clause}: {len(events)} audit events ({numbers}) name it")
    return True


def _disagreements(said: dict[str, tuple], sequence: int, area, subject, clause, report) -> None:
    """``said``: name → (the event's value, the records' value); each differing is named."""
    wrong = [name for name, (event, stored) in said.items() if event != stored]
    if wrong:
        event = ", ".join(f"{name} {said[name][0]}" for name in said)
        stored = ", ".join(f"{name} {said[name][1]}" for name in said)
        report.add(
            area,
            subject,
            f"{clause}: its audit event #{sequence} records another {', '.join(wrong)} "
            f"(event: {event}; records: {stored})",
        )


# Top-ups ---------------------------------------------------------------------------------


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
    events = _events_naming_entries(TOP_UP_ACTION, "top-up", RECORDS_CLAUSE, report)
    for entry, entry_id, named in merged(streamed, events, key=first_of):
        if entry is None:
            report.add(
                "top-up",
                f"audit event #{named[0][1]}",
                f"{RECORDS_CLAUSE}: it records a top-up as ledger entry #{entry_id}, "
                "which is no top-up in the ledger",
            )
            continue
        report.count("top-ups")
        _check_top_up(entry, named or [], report)


def _check_top_up(row: tuple, events: list[tuple], report: RecordsReport) -> None:
    entry_id, wallet, player, amount, balance_after = row
    subject = f"ledger entry #{entry_id} (wallet #{wallet}, top-up {amount:+d})"
    if not events:
        report.add(
            "top-up",
            subject,
            f"{RECORDS_CLAUSE}: no {TOP_UP_ACTION} audit event records this top-up: it was "
            "written outside the services (forged credit)",
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


# Deposits (§ 812a.7) ---------------------------------------------------------------------

DEPOSIT_COLUMNS = (
    *("pk", "wallet_id", "kind", "account_id", "amount", "balance_after"),
    *("deposit__pk", "deposit__account_id", "deposit__amount", "deposit__made_by_id"),
)


def check_deposits(report: RecordsReport) -> None:
    """Every deposit entry has its deposit (same account, same amount) and exactly one
    ``account.deposit`` audit event naming both, its account, who made it, its amount and
    the balance it left; every deposit is a deposit entry's, and every such event names
    one."""
    _check_backed_entries(
        report,
        kind=DEPOSIT,
        record="deposit",
        action=DEPOSIT_ACTION,
        clause=DEPOSIT_CLAUSE,
        columns=DEPOSIT_COLUMNS,
        counted="deposits",
        recorded_as="a deposit",
        check_one=_check_deposit,
    )


def _check_backed_entries(
    report, *, kind, record, action, clause, columns, counted, recorded_as, check_one
) -> None:
    """The ledger entries of ``kind`` and those ``record`` (a deposit, a withdrawal) names,
    in entry order, each beside the audit events of ``action`` naming it, given to
    ``check_one``; an event naming no such entry is a problem of its own."""
    entries = (
        LedgerEntry.objects.filter(Q(kind=kind) | Q(**{f"{record}__isnull": False}))
        .order_by("pk")
        .values_list(*columns)
    )
    streamed = entries.iterator(chunk_size=CHUNK)
    events = _events_naming_entries(action, record, clause, report)
    for entry, entry_id, named in merged(streamed, events, key=first_of):
        if entry is None:
            report.add(
                record,
                f"audit event #{named[0][1]}",
                f"{clause}: it records {recorded_as} as ledger entry #{entry_id}, which "
                f"is no {record} in the ledger",
            )
            continue
        report.count(counted)
        check_one(entry, named or [], report)


def _check_deposit(row: tuple, events: list[tuple], report: RecordsReport) -> None:
    entry_id, wallet, kind, account, amount, after, deposit, d_account, d_amount, made_by = row
    subject = entry_subject(entry_id, wallet, account, kind, amount)
    if kind != DEPOSIT:
        report.add(
            "deposit",
            f"deposit #{deposit}",
            f"{DEPOSIT_CLAUSE}: it names ledger entry #{entry_id}, a {kind} entry, not a deposit",
        )
        return
    if deposit is None:
        report.add(
            "deposit",
            subject,
            f"{DEPOSIT_CLAUSE}: no deposit record backs it: money entered the account outside "
            "the deposit service (forged credit)",
        )
    elif (d_account, d_amount) != (account, amount):
        report.add(
            "deposit",
            subject,
            f"{DEPOSIT_CLAUSE}: its deposit #{deposit} records {d_amount:+d} into account "
            f"#{d_account}",
        )
    if not _one_event(
        events,
        DEPOSIT_ACTION,
        "deposit",
        subject,
        DEPOSIT_CLAUSE,
        report,
        missing="it was written outside the deposit service (forged credit)",
    ):
        return
    for _, sequence, object_type, object_id, actor_id, event_after in events:
        said = {
            "account": (f"{object_type} {object_id}", f"player_account {account}"),
            "deposit": (event_after.get("deposit"), deposit),
            "made by": (actor_id, made_by),
            "amount": (event_after.get("amount"), amount),
            "balance": (event_after.get("balance_after"), after),
        }
        _disagreements(said, sequence, "deposit", subject, DEPOSIT_CLAUSE, report)


# Withdrawals (§ 812a.10) -----------------------------------------------------------------

WITHDRAWAL_COLUMNS = (
    *("pk", "wallet_id", "kind", "account_id", "amount", "balance_after"),
    *("withdrawal__pk", "withdrawal__account_id", "withdrawal__amount", "withdrawal__status"),
    "withdrawal__decided_by_id",
)


def check_withdrawals(report: RecordsReport) -> None:
    """Every withdrawal entry is its paid withdrawal's (same account, minus its amount),
    with exactly one ``withdrawal.pay`` audit event naming both, who paid it, the amount
    and the balance it left; every such event names one."""
    _check_backed_entries(
        report,
        kind=WITHDRAWAL,
        record="withdrawal",
        action=PAY_ACTION,
        clause=WITHDRAWAL_CLAUSE,
        columns=WITHDRAWAL_COLUMNS,
        counted="withdrawals paid",
        recorded_as="a payout",
        check_one=_check_withdrawal,
    )


def _check_withdrawal(row: tuple, events: list[tuple], report: RecordsReport) -> None:
    (entry_id, wallet, kind, account, amount, after, withdrawal, w_account, w_amount, status,
     paid_by) = row  # fmt: skip
    subject = entry_subject(entry_id, wallet, account, kind, amount)
    if kind != WITHDRAWAL:
        report.add(
            "withdrawal",
            f"withdrawal #{withdrawal}",
            f"{WITHDRAWAL_CLAUSE}: it names ledger entry #{entry_id}, a {kind} entry, not a payout",
        )
        return
    if withdrawal is None:
        report.add(
            "withdrawal",
            subject,
            f"{WITHDRAWAL_CLAUSE}: no withdrawal backs it: money left the account outside "
            "the payout service",
        )
    elif (w_account, -w_amount, status) != (account, amount, WithdrawalStatus.PAID):
        report.add(
            "withdrawal",
            subject,
            f"{WITHDRAWAL_CLAUSE}: its withdrawal #{withdrawal} is {status}, of {w_amount} "
            f"from account #{w_account}",
        )
    if not _one_event(
        events,
        PAY_ACTION,
        "withdrawal",
        subject,
        WITHDRAWAL_CLAUSE,
        report,
        missing="it was written outside the payout service",
    ):
        return
    for _, sequence, object_type, object_id, actor_id, event_after in events:
        said = {
            "withdrawal": (f"{object_type} {object_id}", f"withdrawal {withdrawal}"),
            "paid by": (actor_id, paid_by),
            "amount": (event_after.get("amount"), -amount),
            "balance": (event_after.get("balance_after"), after),
        }
        _disagreements(said, sequence, "withdrawal", subject, WITHDRAWAL_CLAUSE, report)
