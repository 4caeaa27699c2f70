"""Accounts and the single wallets against their ledgers (§ 812a.7, § 812a.10): each one's
balance is the sum of its entries, and a wallet carried over to accounts holds nothing."""

from __future__ import annotations

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
from django.db.models.functions import Coalesce

from portal.game.ledger import ACCOUNT, WALLET, balance_problem, ledger_of, running_problem
from portal.game.models import GamingAccount, LedgerEntry, Wallet, Withdrawal, WithdrawalStatus
from portal.integrity.records.money import CARRIED_IN, CARRIED_OUT
from portal.integrity.records.report import CHUNK, MONEY_CLAUSE, WITHDRAWAL_CLAUSE, RecordsReport


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
            ledger[0], f"{ledger[0]} #{ledger[1]}", f"{MONEY_CLAUSE}: {found[0].said()}{more}"
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
