"""Ledger entries against their rounds and their accounts (§ 810a.11, § 811a.7), and the
words the other money checks share: which kinds of entry move whose money, what clause an
entry answers to, how an entry is named. The entries against the audit events that moved
them are ``movements``'s; accounts and wallets against their ledgers, ``balances``'s.

The database returns the rows that may be wrong (anti-joins, a window of running sums, sums
per account and wallet); each is judged again here. What a ledger must add up to (an entry's
running balance, the balance its round recorded, a carry-over's zero, an account's or
wallet's balance) is judged and worded by the one ledger check, ``portal.game.ledger``."""

from __future__ import annotations

from django.db.models import (
    Case,
    Count,
    F,
    Q,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from portal.game.ledger import (
    carry_over_problem,
    ledger_of,
    round_problem,
)
from portal.game.models import (
    CORRECTION_KINDS,
    ROUND_ENTRY_KINDS,
    LedgerEntry,
    LedgerKind,
    Round,
)
from portal.game.money.services.withdrawals import WITHDRAWAL_ACTIONS
from portal.integrity.records.report import (
    ACCOUNT_CLAUSE,
    CHUNK,
    DEPOSIT_CLAUSE,
    MONEY_CLAUSE,
    WITHDRAWAL_CLAUSE,
    RecordsReport,
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


def clause_of(kind: str) -> str:
    return {DEPOSIT: DEPOSIT_CLAUSE, WITHDRAWAL: WITHDRAWAL_CLAUSE}.get(kind, MONEY_CLAUSE)


def entry_subject(entry: int, wallet: int, account: int | None, kind: str, amount: int) -> str:
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
        report.add("ledger", entry_subject(entry, wallet, row[12], kind, amount), problem)


def _entry_problem(row: tuple) -> str | None:
    (entry_id, wallet, player, kind, amount, after, round_id, r_player, staked, returned,
     r_before, r_after, account, a_player, a_holder, r_holder) = row  # fmt: skip
    ledger = ledger_of(wallet, account)
    clause = clause_of(kind)
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
