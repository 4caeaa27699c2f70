"""The audit report's account lines on PostgreSQL: the ledger entries of the period copied
out (``COPY … TO STDOUT (FORMAT csv)``, ``statements.ledger_statement``) and checked a chunk
of entries at a time, as columns.

The same lines as ``ledger.account_lines`` makes from the ORM: per account (or older single
wallet), in account, wallet and entry order, its opening balance, the sums moved by kind, its
closing balance, and the first problem the one ledger check (``portal.game.ledger``) finds.
For speed the running balances are NumPy sums, and the entries the check may fail on are
flagged as vectors (off the running balance, a stake or return off its round's recorded
balance, a round not there, a carry-over out that leaves money); each flagged entry of a line
is then judged by the check itself (``entry_problem``), in entry order, so the problem and its
words are the check's. ``tests/portal/reports/test_columnar_pass.py`` holds these lines to
the ORM's and to the check run over every entry (``ledger_problems``), with forged entries.
"""

from __future__ import annotations

import datetime

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from portal.core.replica import read_connection
from portal.game.ledger import (
    ACCOUNT,
    CARRIED_OUT,
    PLAY_ENTRY_KINDS,
    STAKE,
    Entry,
    entry_problem,
    ledger_of,
)
from portal.game.models import LedgerKind
from portal.reports.audit_report.reading.account_line import KIND_SUM, new_line
from portal.reports.audit_report.reading.columns import LEDGER_COLUMNS
from portal.reports.audit_report.reading.copy_out import arrow_types, bound
from portal.reports.audit_report.reading.statements import ledger_statement
from portal.reports.audit_report.scope import Scope

CHUNK = 16 << 20  # bytes of entries decoded at a time
_TYPES = arrow_types(LEDGER_COLUMNS)


def copied_lines(
    scope: Scope,
    first: datetime.datetime,
    end: datetime.datetime,
    holders: list[int] | None,
    openings: dict,
) -> list[dict]:
    rows: list[dict] = []
    statement, params = ledger_statement(first, end, holders)
    pending = bytearray()
    with read_connection().cursor() as cursor, cursor.copy(bound(statement, params)) as copy:
        read = copy.read
        while block := read():
            pending += block
            if len(pending) >= CHUNK:
                cut = pending.rindex(b"\n") + 1
                _chunk(scope, rows, openings, pending[:cut])
                del pending[:cut]
    if pending:
        _chunk(scope, rows, openings, pending)
    for row in rows:
        row["ok"] = not row["problem"]
    return rows


def _chunk(scope: Scope, rows: list[dict], openings: dict, data: bytearray) -> None:
    table = pacsv.read_csv(
        pa.py_buffer(bytes(data)),
        read_options=pacsv.ReadOptions(column_names=list(_TYPES)),
        convert_options=pacsv.ConvertOptions(column_types=_TYPES, strings_can_be_null=False),
    ).combine_chunks()

    def column(name: str, fill: int = -1) -> np.ndarray:
        values = table.column(name).combine_chunks()
        return values.fill_null(fill).to_numpy() if values.null_count else values.to_numpy()

    account, wallet = column("account_id"), column("wallet_id")
    # Holders as NumPy too (-1: no account): only a line's first entry's is read.
    holder, player = column("account__holder_id"), column("wallet__player_id")
    entry_id = column("id")
    kinds = table.column("kind").combine_chunks().dictionary_encode()
    names = kinds.dictionary.to_pylist()
    kind = kinds.indices.to_numpy(zero_copy_only=False)
    amount, after = column("amount"), column("balance_after")
    round_id = column("round_id")
    r_before, r_staked, r_after = (
        column(f"round__{name}", 0) for name in ("balance_before", "total_staked", "balance_after")
    )
    # An entry naming a round that is not there reads no balances of it.
    no_round = (round_id >= 0) & _nulls(table, "round__balance_before")
    # Entries of one line are together: a line starts where the key changes.
    key = np.where(account >= 0, account * 2, wallet * 2 + 1)
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    bounds = [*starts.tolist(), len(key)]
    summed = np.cumsum(amount)
    is_stake = _of_kinds(names, kind, (STAKE,))
    is_round = _of_kinds(names, kind, PLAY_ENTRY_KINDS)
    is_out = _of_kinds(names, kind, (CARRIED_OUT,))
    recorded = np.where(is_stake, r_before - r_staked, r_after)
    # The entries the one check may fail on, but for their running balance (a line's).
    flagged = (is_round & (after != recorded)) | no_round | (is_out & (after != 0))
    sums = {
        name: np.add.reduceat(np.abs(amount) * _of_kinds(names, kind, picks), starts)
        for name, picks in _picks(names).items()
    }
    for i, (lo, hi) in enumerate(zip(bounds, bounds[1:], strict=False)):
        line = ledger_of(int(wallet[lo]), int(account[lo]) if account[lo] >= 0 else None)
        if rows and rows[-1]["key"] == line:
            row = rows[-1]  # the line goes on from the chunk before
        else:
            row = new_line(
                scope, line, line[1] if line[0] == ACCOUNT else None,
                int(holder[lo]) if holder[lo] >= 0 else None,
                int(wallet[lo]), int(player[lo]), openings.get(line) or 0,
            )  # fmt: skip
            rows.append(row)
        base = row["closing"] - (int(summed[lo - 1]) if lo else 0)
        running = summed[lo:hi] + base
        row["entries"] += hi - lo
        for name, values in sums.items():
            row[name] += int(values[i])
        if not row["problem"]:
            for at in np.flatnonzero((after[lo:hi] != running) | flagged[lo:hi]).tolist():
                n = lo + at
                entry = Entry(
                    line, int(entry_id[n]), names[kind[n]], int(amount[n]), int(after[n]),
                    int(round_id[n]) if round_id[n] >= 0 else None,
                    None if no_round[n] or round_id[n] < 0
                    else (int(r_before[n]), int(r_staked[n]), int(r_after[n])),
                )  # fmt: skip
                problem = entry_problem(entry, int(running[at]))
                if problem is not None:
                    row["problem"] = problem.said()
                    break
        row["closing"] = int(running[-1])


def _nulls(table: pa.Table, name: str) -> np.ndarray:
    """Where the column ``name`` is null, as booleans."""
    return table.column(name).combine_chunks().is_null().to_numpy(zero_copy_only=False)


def _of_kinds(names: list[str], kind: np.ndarray, wanted) -> np.ndarray:
    """Where an entry's kind (its index in ``names``) is one of ``wanted``: looked up in a
    table of the chunk's few kinds, cheaper than ``np.isin`` over every entry."""
    return np.array([name in wanted for name in names], dtype=bool)[kind]


def _picks(names: list[str]) -> dict[str, list[str]]:
    """Each sum of a line, and the kinds of this chunk it adds up."""
    picks: dict[str, list[str]] = {}
    for name in names:
        picks.setdefault(KIND_SUM[LedgerKind(name)], []).append(name)
    return picks
