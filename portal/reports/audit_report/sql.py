"""The audit report's fixed statements on PostgreSQL: what the columnar pass copies out.

The pass first copies the ids of the scope's rounds, and cuts them into blocks; each block
is then two ``COPY (SELECT …) TO STDOUT (FORMAT csv)`` statements: the scope's rounds from
the block's first id to its last, then those rounds' bets. The columns
are named here once, in the order the statements select them, and read back by these
names (``columnar``); a test holds the rows against the ORM's. The scope's condition is the
same as ``Scope.q()``'s; its values go in as literals quoted by psycopg (``bound``), since
COPY takes no parameters.
"""

from __future__ import annotations

from psycopg import sql as pgsql

from portal.compliance.models import Offering
from portal.game.models import Bet, GamingAccount, LedgerEntry, Round, Wallet
from portal.reports.audit_report.scope import Scope

# (column, kind): "int", "text" (JSON columns come as their text) or "instant".
ROUND_COLUMNS = (
    ("id", "int"),
    ("player_id", "int"),
    ("offering_id", "int"),
    ("rules_submission_id", "int"),
    ("rules_version", "int"),
    ("layout_id", "int"),
    ("layout_version", "int"),
    ("paytable_id", "int"),
    ("paytable_version", "int"),
    ("paytable_odds", "text"),
    ("wheel_order", "text"),
    ("first_colour", "text"),
    ("game_name", "text"),
    ("software_version", "text"),
    ("portal_version", "text"),
    ("idempotency_key", "text"),
    ("started_at", "instant"),
    ("bets_closed_at", "instant"),
    ("ended_at", "instant"),
    ("rng_raw", "int"),
    ("rng_method", "text"),
    ("outcome", "int"),
    ("total_staked", "int"),
    ("total_returned", "int"),
    ("balance_before", "int"),
    ("balance_after", "int"),
    ("sequence", "int"),
    ("prev_hash", "text"),
    ("status", "text"),
    ("hash", "text"),
)
BET_COLUMNS = (
    ("round_id", "int"),
    ("position", "int"),
    ("kind", "text"),
    ("numbers", "text"),
    ("spot", "text"),
    ("stake", "int"),
    ("returned", "int"),
)
# The ledger entries of a span of instants, with what the account lines need of each.
LEDGER_COLUMNS = (
    ("account_id", "int"),
    ("holder_id", "int"),
    ("wallet_id", "int"),
    ("player_id", "int"),
    ("kind", "text"),
    ("amount", "int"),
    ("balance_after", "int"),
    ("round_id", "int"),
    ("r_before", "int"),
    ("r_staked", "int"),
    ("r_after", "int"),
)
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


def bound(statement: str, params: list) -> pgsql.Composed:
    """The statement with its parameters as literals, quoted by psycopg (a COPY takes no
    bound parameters)."""
    return pgsql.SQL(statement.replace("%s", "{}")).format(*map(pgsql.Literal, params))


def _select(columns, alias: str) -> str:
    return ", ".join(f"{alias}.{name}" for name, _ in columns)


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
        f"COPY (SELECT {_select(ROUND_COLUMNS, 'r')} FROM {ROUNDS} r "
        f"JOIN {OFFERINGS} o ON o.id = r.offering_id "
        f"WHERE {where} AND r.id >= %s AND r.id <= %s ORDER BY r.id) TO STDOUT (FORMAT csv)"
    )


def bets_statement(where: str) -> str:
    """The bets of the scope's rounds with ids from one to another (parameters: the first
    id, the last, the scope's, the first id, the last), in round and position order."""
    return (
        f"COPY (SELECT {_select(BET_COLUMNS, 'b')} FROM {BETS} b "
        f"WHERE b.round_id >= %s AND b.round_id <= %s AND b.round_id IN ("
        f"SELECT r.id FROM {ROUNDS} r JOIN {OFFERINGS} o ON o.id = r.offering_id "
        f"WHERE {where} AND r.id >= %s AND r.id <= %s) "
        f"ORDER BY b.round_id, b.position) TO STDOUT (FORMAT csv)"
    )


def ledger_statement(first, end, holders: list[int] | None) -> tuple[str, list]:
    """The entries made from ``first`` until ``end`` (of ``holders``' accounts only, when
    given), in account, wallet and entry order: as ``reconcile.accounts`` reads them."""
    where, params = "e.created_at >= %s AND e.created_at < %s", [first, end]
    if holders is not None:
        where += " AND a.holder_id = ANY(%s)"
        params.append(holders)
    statement = (
        "COPY (SELECT e.account_id, a.holder_id, e.wallet_id, w.player_id, e.kind, e.amount, "
        "e.balance_after, e.round_id, r.balance_before, r.total_staked, r.balance_after "
        f"FROM {LedgerEntry._meta.db_table} e "
        f"LEFT JOIN {GamingAccount._meta.db_table} a ON a.id = e.account_id "
        f"JOIN {Wallet._meta.db_table} w ON w.id = e.wallet_id "
        f"LEFT JOIN {ROUNDS} r ON r.id = e.round_id "
        f"WHERE {where} ORDER BY e.account_id, e.wallet_id, e.id) TO STDOUT (FORMAT csv)"
    )
    return statement, params
