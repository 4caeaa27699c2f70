"""The audit report's account lines (§ 811a.9: a report of money reconciles it): every
account that moved in the period, read from the ledger.

Per account (reading:one-account-per-holder; and the single wallet of before accounts per
holder, where its older entries fall in the period), in account, wallet and entry order:
its opening balance, the sums moved by kind (``account_line``), its closing balance, and
the first problem the one ledger check (``portal.game.ledger``) finds in its entries, from
its opening balance on: an entry off its running balance, off the balance its round
recorded, or a carry-over that leaves the single wallet with money. On PostgreSQL the
entries are copied out and checked as columns (``ledger_copy``, which has the one check
judge what its vectors flag, and is held to this reader by a test); elsewhere, and for a
report of one offering, the ORM streams them here, through the one check.
"""

from __future__ import annotations

from django.db.models import OuterRef, Subquery, Value

from portal.game.ledger import Entry, Ledgers, ledger_of
from portal.game.models import LEDGER_NEWEST_FIRST, GamingAccount, LedgerEntry, Round, Wallet
from portal.reports.audit_report.reading import copy_out, ledger_copy
from portal.reports.audit_report.reading.account_line import KIND_SUM, new_line
from portal.reports.audit_report.reading.columns import LEDGER_COLUMNS, names
from portal.reports.audit_report.scope import Scope


def account_lines(scope: Scope) -> list[dict]:
    """Per account that moved over the period's instants (and per single wallet, for the
    entries from before accounts per holder): its opening balance (its last entry before
    the period), deposits (older top-ups among them), paid withdrawals, stakes, returns,
    what was carried over in or out, and its closing balance, each entry held to the one
    ledger check (``portal.game.ledger``: its running balance, the balances its round
    recorded and hashed, a carry-over's zero), as ``chain.verify_ledgers`` holds it; a line
    shows the first problem found. A pending withdrawal moves no money: only
    its payout is an entry. A report narrowed to a holder or offering reads only that
    holder's accounts (reading:one-account-per-holder). Two queries; the entries are
    streamed, one account's sums kept at a time."""
    first, end = scope.money_span
    entries = LedgerEntry.objects.filter(created_at__gte=first, created_at__lt=end)
    if scope.holder_id is not None or scope.offering_id is not None:
        entries = entries.filter(account__holder_id__in=list(scope.holders))
    if scope.offering_id is not None:
        entries = entries.filter(wallet__player_id__in=scope_players(scope))
    openings = _openings(entries, first)
    if scope.offering_id is None and copy_out.available():
        # On PostgreSQL the same lines from the entries copied out, a chunk at a time.
        holders = list(scope.holders) if scope.holder_id is not None else None
        return ledger_copy.copied_lines(scope, first, end, holders, openings)
    streamed = entries.order_by("account_id", "wallet_id", "pk")
    streamed = streamed.values_list(*names(LEDGER_COLUMNS))
    ledgers = Ledgers(openings)
    rows: list[dict] = []
    row = None
    for (
        account,
        holder,
        wallet,
        player,
        entry_id,
        kind,
        amount,
        after,
        round_id,
        r_before,
        r_staked,
        r_after,
    ) in streamed.iterator(chunk_size=10_000):
        key = ledger_of(wallet, account)
        if row is None or row["key"] != key:
            opening = openings.get(key) or 0
            row = new_line(scope, key, account, holder, wallet, player, opening)
            rows.append(row)
        row["entries"] += 1
        row[KIND_SUM[kind]] += abs(amount)
        recorded = (r_before, r_staked, r_after) if r_before is not None else None
        problem = ledgers.check(Entry(key, entry_id, kind, amount, after, round_id, recorded))
        row["closing"] = ledgers.total(key)
        if problem is not None and not row["problem"]:
            row["problem"] = problem.said()
    for row in rows:
        row["ok"] = not row["problem"]
    return rows


def _openings(entries, first) -> dict[tuple[str, int], int | None]:
    """Each account's and single wallet's balance before ``first`` (its last entry's), for
    those ``entries`` move: one query."""
    before = LedgerEntry.objects.filter(created_at__lt=first).order_by(*LEDGER_NEWEST_FIRST)
    of_account = before.filter(account=OuterRef("pk")).values("balance_after")[:1]
    of_wallet = before.filter(wallet=OuterRef("pk"), account=None).values("balance_after")[:1]
    accounts = (
        GamingAccount.objects.filter(pk__in=entries.values("account_id"))
        .annotate(kind=Value("account"), opening=Subquery(of_account))
        .order_by()
        .values_list("kind", "pk", "opening")
    )
    wallets = (
        Wallet.objects.filter(pk__in=entries.filter(account=None).values("wallet_id"))
        .annotate(kind=Value("wallet"), opening=Subquery(of_wallet))
        .order_by()
        .values_list("kind", "pk", "opening")
    )
    return {(kind, pk): opening for kind, pk, opening in accounts.union(wallets, all=True)}


def scope_players(scope: Scope):
    return Round.objects.filter(scope.q()).values("player_id").distinct()
