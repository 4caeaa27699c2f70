"""Ledger entries against their rounds, deposits, paid withdrawals and audit events;
accounts and the single wallets against their ledgers (§ 810a.11, § 811a.7, § 812a.7,
§ 812a.10).

The database returns the rows that may be wrong (anti-joins, a window of running sums, sums
per account and wallet); each is judged again here. What a ledger must add up to (an entry's
running balance, the balance its round recorded, a carry-over's zero, an account's or
wallet's balance) is judged and worded by the one ledger check, ``portal.game.ledger``."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from portal.audit.models import AuditEvent
from portal.game.ledger import (
    ACCOUNT,
    WALLET,
    balance_problem,
    carry_over_problem,
    ledger_of,
    round_problem,
    running_problem,
)
from portal.game.models import (
    CORRECTION_KINDS,
    ROUND_ENTRY_KINDS,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Round,
    Wallet,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money.services.deposits import DEPOSIT_ACTION, TOP_UP_ACTION
from portal.game.money.services.withdrawals import WITHDRAWAL_ACTIONS
from portal.integrity.records.report import (
    ACCOUNT_CLAUSE,
    CHUNK,
    DEPOSIT_CLAUSE,
    MONEY_CLAUSE,
    RECORDS_CLAUSE,
    WITHDRAWAL_CLAUSE,
    RecordsReport,
    first_of,
    merged,
)

STAKE, RETURN, TOP_UP = LedgerKind.STAKE, LedgerKind.RETURN, LedgerKind.TOP_UP
DEPOSIT, WITHDRAWAL = LedgerKind.DEPOSIT, LedgerKind.WITHDRAWAL
CARRIED_OUT, CARRIED_IN = LedgerKind.CARRIED_OUT, LedgerKind.CARRIED_IN
# A void's and an adjustment's entries (CORRECTION_KINDS) each name their round, checked
# against its correction in ``portal.integrity.records.voids_and_adjustments``.
# Kinds that always move a holder account's money, and those of the single wallet only.
ACCOUNT_KINDS = (DEPOSIT, WITHDRAWAL, CARRIED_IN, *CORRECTION_KINDS)
WALLET_KINDS = (TOP_UP, CARRIED_OUT)
PAY_ACTION = WITHDRAWAL_ACTIONS["pay"]


def _clause_of(kind: str) -> str:
    return {DEPOSIT: DEPOSIT_CLAUSE, WITHDRAWAL: WITHDRAWAL_CLAUSE}.get(kind, MONEY_CLAUSE)


def _entry_subject(entry: int, wallet: int, account: int | None, kind: str, amount: int) -> str:
    where = f"account #{account}" if account is not None else f"wallet #{wallet}"
    shown = kind.replace("_", "-") if kind == TOP_UP else kind.replace("_", " ")
    return f"ledger entry #{entry} ({where}, {shown} {amount:+d})"


# Ledger entries against their rounds and their accounts ----------------------------------

ENTRY_COLUMNS = (
    *("pk", "wallet_id", "wallet__player_id", "kind", "amount", "balance_after", "round_id"),
    *("round__player_id", "round__total_staked", "round__total_returned"),
    *("round__balance_before", "round__balance_after"),
    *("account_id", "account__player_id", "account__holder_id", "round__offering__holder_id"),
)


def check_round_entries(report: RecordsReport) -> None:
    """Each stake or return entry moves its round's total, to the balance the round
    recorded, in its player's account with the round's holder (§ 812a.4); deposits,
    withdrawals and carry-overs in name no round; every entry with an account is in its
    player's wallet; a carry-over out of the single wallet leaves it at zero. The database
    returns the rows that may be wrong; each is judged again here."""
    same_player = Q(wallet__player_id=F("round__player_id"))
    same_holder = Q(account__isnull=True) | Q(account__holder_id=F("round__offering__holder_id"))
    stake_ok = Q(
        same_player,
        same_holder,
        round__isnull=False,
        amount=-F("round__total_staked"),
        balance_after=F("round__balance_before") - F("round__total_staked"),
    )
    return_ok = Q(
        same_player,
        same_holder,
        round__isnull=False,
        amount=F("round__total_returned"),
        balance_after=F("round__balance_after"),
    )
    bad = LedgerEntry.objects.filter(
        (Q(kind=STAKE) & ~stake_ok)
        | (Q(kind=RETURN) & ~return_ok)
        | (~Q(kind__in=ROUND_ENTRY_KINDS) & Q(round__isnull=False))
        | (Q(kind__in=CORRECTION_KINDS) & ~Q(same_player, same_holder, round__isnull=False))
        | Q(kind__in=ACCOUNT_KINDS, account__isnull=True)
        | Q(kind__in=WALLET_KINDS, account__isnull=False)
        | (Q(account__isnull=False) & ~Q(account__player_id=F("wallet__player_id")))
        | (Q(kind=CARRIED_OUT) & ~Q(balance_after=0))
        | ~Q(kind__in=LedgerKind.values)
    ).order_by("pk")
    for row in bad.values_list(*ENTRY_COLUMNS).iterator(chunk_size=CHUNK):
        problem = _entry_problem(row)
        if problem is None:
            continue
        entry, wallet, _, kind, amount, *_rest = row
        report.add("ledger", _entry_subject(entry, wallet, row[12], kind, amount), problem)


def _entry_problem(row: tuple) -> str | None:
    (entry_id, wallet, player, kind, amount, after, round_id, r_player, staked, returned,
     r_before, r_after, account, a_player, a_holder, r_holder) = row  # fmt: skip
    ledger = ledger_of(wallet, account)
    clause = _clause_of(kind)
    if kind not in LedgerKind.values:
        return f"{MONEY_CLAUSE}: its kind {kind!r} is none the ledger knows"
    if kind in ACCOUNT_KINDS and account is None:
        return f"{clause}: a {kind} entry that names no account: it belongs to a holder account"
    if kind in WALLET_KINDS and account is not None:
        return (
            f"{MONEY_CLAUSE}: a {kind} entry names account #{account}; it belongs to the "
            "single wallet of before accounts per holder"
        )
    if account is not None and a_player != player:
        return (
            f"{clause}: it is in player {player}'s wallet, its account #{account} is player "
            f"{a_player}'s"
        )
    if kind not in ROUND_ENTRY_KINDS:
        if round_id is not None:
            what = "a top-up" if kind == TOP_UP else f"a {kind} entry"
            return (
                f"{clause}: {what} names round #{round_id}; only stakes, returns, voids and "
                "adjustments belong to a round"
            )
        carried = carry_over_problem(ledger, entry_id, kind, after)
        return f"{MONEY_CLAUSE}: {carried.said('it')}" if carried is not None else None
    if round_id is None:
        return f"{MONEY_CLAUSE}: a {kind} entry that names no round: no round backs it"
    if r_player != player:
        return (
            f"{MONEY_CLAUSE}: it is in player {player}'s wallet, its round #{round_id} is "
            f"player {r_player}'s"
        )
    if account is not None and a_holder != r_holder:
        return (
            f"{ACCOUNT_CLAUSE}: it is in account #{account} with holder #{a_holder}, its round "
            f"#{round_id} was played at a table of holder #{r_holder}"
        )
    if kind in CORRECTION_KINDS:
        return None  # its amount is its correction's: ``check_corrections``
    moved = -staked if kind == STAKE else returned
    if amount != moved:
        return f"{MONEY_CLAUSE}: it moves {amount:+d}, its round #{round_id} recorded {moved:+d}"
    off = round_problem(ledger, entry_id, kind, after, round_id, (r_before, staked, r_after))
    return f"{MONEY_CLAUSE}: {off.said('it')}" if off is not None else None


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
    subject = _entry_subject(entry_id, wallet, account, kind, amount)
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
    subject = _entry_subject(entry_id, wallet, account, kind, amount)
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


# Accounts and wallets --------------------------------------------------------------------


def check_wallets(report: RecordsReport) -> None:
    """Each entry's balance_after is its account's running sum (or, for an entry of the
    single wallet, that wallet's), so the last one is the ledger's sum; each account's
    balance is its ledger's sum and what it holds back the sum of its pending withdrawals;
    each single wallet's balance is the sum of its own entries, and what was carried out of
    it is what was carried into the accounts. The database sums (a window of running sums,
    one sum per account and wallet) and returns the rows that may be wrong; each is judged,
    and worded, by the one ledger check (``portal.game.ledger``)."""
    legacy_wallet = Case(
        When(account_id__isnull=True, then=F("wallet_id")),
        default=Value(None),
        output_field=BigIntegerField(),
    )
    running = Window(
        Sum("amount"), partition_by=[F("account_id"), legacy_wallet], order_by=F("pk").asc()
    )
    off = (
        LedgerEntry.objects.annotate(running=running, legacy=legacy_wallet)
        .filter(~Q(balance_after=F("running")))
        .order_by("account_id", "legacy", "pk")
        .values_list("account_id", "legacy", "pk", "balance_after", "running")
    )
    for (account, wallet), group in groupby(
        off.iterator(chunk_size=CHUNK), key=lambda row: row[:2]
    ):
        ledger = ledger_of(wallet, account)
        found = [
            problem
            for _, _, entry_id, after, total in group
            if (problem := running_problem(ledger, entry_id, after, total)) is not None
        ]
        if not found:
            continue
        more = f" (and {len(found) - 1} later entries)" if len(found) > 1 else ""
        report.add(
            ledger[0],
            f"{ledger[0]} #{ledger[1]}",
            f"{MONEY_CLAUSE}: {found[0].said()}{more}",
        )
    report.count("wallets", Wallet.objects.count())
    report.count("accounts", GamingAccount.objects.count())
    report.count("ledger entries", LedgerEntry.objects.count())
    _check_accounts(report)
    wrong = (
        Wallet.objects.values("pk", "player_id", "balance")
        .annotate(
            total=Coalesce(
                Sum("entries__amount", filter=Q(entries__account__isnull=True)), Value(0)
            )
        )
        .filter(~Q(balance=F("total")))
        .order_by("pk")
    )
    for wallet_id, player, balance, summed in wrong.values_list(
        "pk", "player_id", "balance", "total"
    ).iterator(chunk_size=CHUNK):
        problem = balance_problem((WALLET, wallet_id), balance, summed)
        if problem is not None:
            report.add(
                "wallet",
                f"wallet #{wallet_id} (player {player})",
                f"{MONEY_CLAUSE}: {problem.said('it')}",
            )
    _check_carried(report)


def _sum_of(queryset, column: str = "amount"):
    """The sum of ``queryset``'s ``column`` for the outer account, as a subquery."""
    return Coalesce(
        Subquery(queryset.values("account_id").annotate(total=Sum(column)).values("total")[:1]),
        Value(0),
        output_field=BigIntegerField(),
    )


def _check_accounts(report: RecordsReport) -> None:
    entries = LedgerEntry.objects.filter(account_id=OuterRef("pk")).order_by()
    pending = Withdrawal.objects.filter(
        account_id=OuterRef("pk"), status=WithdrawalStatus.PENDING
    ).order_by()
    wrong = (
        GamingAccount.objects.annotate(total=_sum_of(entries), pending=_sum_of(pending))
        .filter(~Q(balance=F("total")) | ~Q(held=F("pending")))
        .order_by("pk")
        .values_list("pk", "player_id", "holder_id", "balance", "total", "held", "pending")
    )
    for account, player, holder, balance, total, held, waiting in wrong.iterator(chunk_size=CHUNK):
        subject = f"account #{account} (player {player}, holder #{holder})"
        problem = balance_problem((ACCOUNT, account), balance, total)
        if problem is not None:
            report.add("account", subject, f"{MONEY_CLAUSE}: {problem.said('it')}")
        if held != waiting:
            report.add(
                "account",
                subject,
                f"{WITHDRAWAL_CLAUSE}: it holds back {held} for withdrawals, its pending "
                f"withdrawals add up to {waiting}",
            )


def _check_carried(report: RecordsReport) -> None:
    """What was carried out of each single wallet was carried into its accounts, once."""
    of_kind = {
        kind: Coalesce(
            Sum("entries__amount", filter=Q(entries__kind=kind)),
            Value(0),
            output_field=BigIntegerField(),
        )
        for kind in (CARRIED_OUT, CARRIED_IN)
    }
    wrong = (
        Wallet.objects.values("pk", "player_id")
        .annotate(
            out=of_kind[CARRIED_OUT],
            into=of_kind[CARRIED_IN],
            outs=Count("entries", filter=Q(entries__kind=CARRIED_OUT)),
        )
        .filter(~Q(into=-F("out")) | Q(outs__gt=1))
        .order_by("pk")
    )
    for wallet_id, player, out, into, outs in wrong.values_list(
        "pk", "player_id", "out", "into", "outs"
    ).iterator(chunk_size=CHUNK):
        subject = f"wallet #{wallet_id} (player {player})"
        if outs > 1:
            report.add(
                "wallet",
                subject,
                f"{MONEY_CLAUSE}: {outs} entries carry it over; the single wallet is carried "
                "over once",
            )
        if into != -out:
            report.add(
                "wallet",
                subject,
                f"{MONEY_CLAUSE}: {-out} was carried out of it, its accounts received {into}",
            )
