"""The audit report's fixed statements on PostgreSQL: what the pass and the account lines
copy out.

The pass first copies the ids of the scope's rounds, and cuts them into blocks; each block
is then two ``COPY (SELECT …) TO STDOUT (FORMAT csv)`` statements: the scope's rounds from
the block's first id to its last, then those rounds' bets (``block_copy``). The account lines
copy the period's ledger entries (``ledger_copy``). Each statement selects its columns as
``columns`` declares them, in that order, and they are read back by those names; a test
holds the rows against the ORM's. The scope's condition is the same as ``Scope.q()``'s; its
values go in as literals quoted by psycopg (``copy_out.bound``), since COPY takes no
parameters.
"""

from __future__ import annotations

from portal.compliance.models import Offering
from portal.game.models import Bet, GamingAccount, LedgerEntry, Round, Wallet
from portal.reports.audit_report.reading.columns import (
    LEDGER_COLUMNS,
    PASS_BET_COLUMNS,
    PASS_ROUND_COLUMNS,
    Columns,
)
from portal.reports.audit_report.scope import Scope

ROUNDS = Round._meta.db_table
BETS = Bet._meta.db_table
OFFERINGS = Offering._meta.db_table


def scope_condition(scope: Scope) -> tuple[str, list]:
    """``Scope.q()`` as SQL over ``r`` (the round) and ``o`` (its offering)."""
    parts, params = [], []
    for first, end, holders in scope.spans():
        parts.append("(o.holder_id = ANY(%s) AND r.started_at >= %s AND r.started_at < %s)")
        params += [holders, first, end]
    where = "(" + " OR ".join(parts or ["FALSE"]) + ")"
    if scope.offering_id is not None:
        where += " AND r.offering_id = %s"
        params.append(scope.offering_id)
    where += " AND r.id <= %s"
    params.append(scope.last_round)
    return where, params


# The entry's related rows, by the name a column reaches them with (``LEDGER_COLUMNS``).
_LEDGER_ALIASES = {"": "e", "account": "a", "wallet": "w", "round": "r"}


def _select(columns: Columns, alias: str) -> str:
    return ", ".join(f"{alias}.{name}" for name, _ in columns)


def _ledger_select() -> str:
    """``LEDGER_COLUMNS`` over the entry ``e`` and its related rows."""
    picked = []
    for name, _ in LEDGER_COLUMNS:
        related, _, field = name.rpartition("__")
        picked.append(f"{_LEDGER_ALIASES[related]}.{field}")
    return ", ".join(picked)


def ids_statement(where: str) -> str:
    """The ids of the scope's rounds, in order (parameters: the scope's): the pass's blocks
    are cut from them."""
    return (
        f"COPY (SELECT r.id FROM {ROUNDS} r JOIN {OFFERINGS} o ON o.id = r.offering_id "
        f"WHERE {where} ORDER BY r.id) TO STDOUT (FORMAT csv)"
    )


def rounds_statement(where: str) -> str:
    """The scope's rounds with ids from one to another (parameters: the scope's, the first
    id, the last), in id order."""
    return (
        f"COPY (SELECT {_select(PASS_ROUND_COLUMNS, 'r')} FROM {ROUNDS} r "
        f"JOIN {OFFERINGS} o ON o.id = r.offering_id "
        f"WHERE {where} AND r.id >= %s AND r.id <= %s ORDER BY r.id) TO STDOUT (FORMAT csv)"
    )


def bets_statement(where: str) -> str:
    """The bets of the scope's rounds with ids from one to another (parameters: the first
    id, the last, the scope's, the first id, the last), in round and position order."""
    return (
        f"COPY (SELECT {_select(PASS_BET_COLUMNS, 'b')} FROM {BETS} b "
        f"WHERE b.round_id >= %s AND b.round_id <= %s AND b.round_id IN ("
        f"SELECT r.id FROM {ROUNDS} r JOIN {OFFERINGS} o ON o.id = r.offering_id "
        f"WHERE {where} AND r.id >= %s AND r.id <= %s) "
        f"ORDER BY b.round_id, b.position) TO STDOUT (FORMAT csv)"
    )


def ledger_statement(first, end, holders: list[int] | None) -> tuple[str, list]:
    """The entries made from ``first`` until ``end`` (of ``holders``' accounts only, when
    given), in account, wallet and entry order: as ``ledger.account_lines`` reads them."""
    where, params = "e.created_at >= %s AND e.created_at < %s", [first, end]
    if holders is not None:
        where += " AND a.holder_id = ANY(%s)"
        params.append(holders)
    statement = (
        f"COPY (SELECT {_ledger_select()} "
        f"FROM {LedgerEntry._meta.db_table} e "
        f"LEFT JOIN {GamingAccount._meta.db_table} a ON a.id = e.account_id "
        f"JOIN {Wallet._meta.db_table} w ON w.id = e.wallet_id "
        f"LEFT JOIN {ROUNDS} r ON r.id = e.round_id "
        f"WHERE {where} ORDER BY e.account_id, e.wallet_id, e.id) TO STDOUT (FORMAT csv)"
    )
    return statement, params
