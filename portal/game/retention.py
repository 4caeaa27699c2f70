"""The game records as stored, and as an archive file that verifies on its own (§ 811a.7:
game play reconstructable for ten years; the records are § 810a.11's).

The file (see ``portal.core.archive_files``): a header, then every wallet (its
player's chain head, and the single wallet's balance from before accounts per holder),
every account with a holder (§ 812a.4: its balance and what it holds back), every round
with every column and its bets, ordered by player and sequence, every ledger entry (each
names its account, or none for the single wallet's, and its round, if any), ordered by
wallet and id, every deposit (§ 812a.7) and every withdrawal (§ 812a.10) by id, and a
closing line counting them. ``verify_round_chain --from-export`` checks from it alone what
it checks in the database: each round's hash, each player's chain to their wallet's head,
each account's and wallet's ledger, and each deposit and withdrawal against its entry.

A file written before accounts per holder has no accounts, deposits or withdrawals, and
entries without an account: it still reads, and verifies as it did (the format's version
is unchanged; what a record lacks takes its column's default). A file written before the
player's limits became rows of their own (§ 814a.2, ``AccountLimit``) has them on each
account as ``limits`` and ``pending_limits``: they are read past. They are no game record,
and every change of them is in the audit trail and its export.

A wallet's balance and chain head move with every round, so the export, and
``verify_round_chain`` on the database, read all three from one snapshot of the database:
a repeatable-read, read-only transaction on PostgreSQL (it blocks no one); on SQLite an
ordinary transaction, which holds the database's write lock, so play waits until the
export is written or the check is done (export or check a copy of a busy SQLite file).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from django.db import connection, transaction
from django.db.models import QuerySet

from portal.core import archive_files as archive
from portal.game.chain import (
    ACCOUNT_CHECKED,
    DEPOSIT_CHECKED,
    LEDGER_CHECKED,
    WALLET_CHECKED,
    WITHDRAWAL_CHECKED,
    GameRecordsReport,
    verify_game_records,
)
from portal.game.models import (
    Bet,
    Deposit,
    GamingAccount,
    LedgerEntry,
    Round,
    Wallet,
    Withdrawal,
)

FORMAT = "jinzi-roulette/game-records"
WALLET, ROUND, ENTRY = "wallet", "round", "entry"
ACCOUNT, DEPOSIT, WITHDRAWAL = "account", "deposit", "withdrawal"
# An account's columns in files written before its limits became rows (game 0011).
RETIRED_ACCOUNT_COLUMNS = ("limits", "pending_limits")


def stored_rounds() -> Iterator[Round]:
    """Every round with its bets prefetched, by player and sequence, streamed."""
    return (
        Round.objects.order_by("player_id", "sequence")
        .prefetch_related("bets")
        .iterator(chunk_size=1000)
    )


def stored_wallets() -> QuerySet[Wallet]:
    return Wallet.objects.order_by("pk")


def stored_ledger() -> QuerySet[LedgerEntry]:
    return LedgerEntry.objects.order_by("wallet_id", "pk")


def stored_accounts() -> QuerySet[GamingAccount]:
    return GamingAccount.objects.order_by("pk")


def stored_deposits() -> QuerySet[Deposit]:
    return Deposit.objects.order_by("pk")


def stored_withdrawals() -> QuerySet[Withdrawal]:
    return Withdrawal.objects.order_by("pk")


def verify_stored() -> GameRecordsReport:
    """The game records in the database, checked from one snapshot as the export reads
    them: wallets, rounds and ledger entries written by play during the walk are not seen
    halfway (a round without its wallet's new head, an entry without its round)."""
    with snapshot():
        return verify_game_records(
            ((round_obj, round_obj.bets.all()) for round_obj in stored_rounds()),
            stored_wallets().values(*WALLET_CHECKED),
            stored_ledger().values_list(*LEDGER_CHECKED).iterator(chunk_size=5000),
            list(stored_accounts().values_list(*ACCOUNT_CHECKED)),
            stored_deposits().values_list(*DEPOSIT_CHECKED).iterator(chunk_size=5000),
            stored_withdrawals().values_list(*WITHDRAWAL_CHECKED).iterator(chunk_size=5000),
        )


@contextmanager
def snapshot() -> Iterator[None]:
    """One consistent view of the database for the whole export (see the module's notes).
    Inside a transaction already begun, that transaction's view is the one read."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def export_to(path: Path) -> dict[str, int]:
    """Write the archive to ``path``; how many of each record it holds is returned."""
    counts = {WALLET: 0, ACCOUNT: 0, ROUND: 0, "bet": 0, ENTRY: 0, DEPOSIT: 0, WITHDRAWAL: 0}
    with archive.archive_writer(path) as out, snapshot():
        out.write(archive.json_line(archive.header(FORMAT)))
        for wallet in stored_wallets().iterator(chunk_size=5000):
            out.write(archive.json_line({"type": WALLET, **archive.values_of(wallet)}))
            counts[WALLET] += 1
        for account in stored_accounts().iterator(chunk_size=5000):
            out.write(archive.json_line({"type": ACCOUNT, **archive.values_of(account)}))
            counts[ACCOUNT] += 1
        for round_obj in stored_rounds():
            bets = [archive.values_of(bet) for bet in round_obj.bets.all()]
            out.write(
                archive.json_line({"type": ROUND, **archive.values_of(round_obj), "bets": bets})
            )
            counts[ROUND] += 1
            counts["bet"] += len(bets)
        for entry in stored_ledger().iterator(chunk_size=5000):
            out.write(archive.json_line({"type": ENTRY, **archive.values_of(entry)}))
            counts[ENTRY] += 1
        for kind, records in ((DEPOSIT, stored_deposits()), (WITHDRAWAL, stored_withdrawals())):
            for record in records.iterator(chunk_size=5000):
                out.write(archive.json_line({"type": kind, **archive.values_of(record)}))
                counts[kind] += 1
        closing = (WALLET, ACCOUNT, ROUND, ENTRY, DEPOSIT, WITHDRAWAL)
        out.write(archive.json_line({"type": archive.END, **{k: counts[k] for k in closing}}))
    return counts


def _rounds_from(
    reader: archive.ArchiveReader,
) -> Iterator[tuple[SimpleNamespace, list[SimpleNamespace]]]:
    for line, values in reader.records(ROUND):
        bets = values.pop("bets", None)
        if not isinstance(bets, list) or not all(isinstance(bet, dict) for bet in bets):
            raise archive.ArchiveError(f"line {line}: the round's bets are not a list of records")
        yield (
            archive.record_of(Round, values, line),
            [archive.record_of(Bet, bet, line) for bet in bets],
        )


def _entries_from(reader: archive.ArchiveReader) -> Iterator[tuple]:
    for line, values in reader.records(ENTRY):
        entry = archive.record_of(LedgerEntry, values, line)
        yield tuple(getattr(entry, name) for name in LEDGER_CHECKED)


def _checked_from(
    reader: archive.ArchiveReader,
    record_type: str,
    model,
    columns: tuple[str, ...],
    retired: tuple[str, ...] = (),
) -> Iterator[tuple]:
    for line, values in reader.records(record_type):
        for name in retired:
            values.pop(name, None)
        record = archive.record_of(model, values, line)
        yield tuple(getattr(record, name) for name in columns)


def _wallets_from(reader: archive.ArchiveReader) -> Iterator[dict]:
    for line, values in reader.records(WALLET):
        wallet = archive.record_of(Wallet, values, line)
        yield {name: getattr(wallet, name) for name in WALLET_CHECKED}


def verify_archive(path: Path) -> GameRecordsReport:
    """The game records of an archive file, checked as ``verify_stored`` checks the
    database's. Reads no database."""
    with archive.archive_reader(path, FORMAT) as reader:
        wallets = list(_wallets_from(reader))
        accounts = list(
            _checked_from(
                reader, ACCOUNT, GamingAccount, ACCOUNT_CHECKED, retired=RETIRED_ACCOUNT_COLUMNS
            )
        )
        report = verify_game_records(
            _rounds_from(reader),
            wallets,
            _entries_from(reader),
            accounts,
            _checked_from(reader, DEPOSIT, Deposit, DEPOSIT_CHECKED),
            _checked_from(reader, WITHDRAWAL, Withdrawal, WITHDRAWAL_CHECKED),
        )
        if report.ok:
            reader.finish()
        else:
            reader.refuse_if_cut_short()
    return report
