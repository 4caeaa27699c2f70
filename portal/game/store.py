"""The SQL of a round: one read under the wallet lock, and every write in one go.

A round is the hottest path in the portal, so its statements are fixed SQL
(``portal.core.rawsql``) instead of ORM calls, and as few as the rules allow:

1. **read**: the player's wallet, locked (``FOR UPDATE`` on PostgreSQL; SQLite's
   IMMEDIATE transaction already holds the write lock), with the round already played
   under the same idempotency key, if any, and the offering with everything its
   liveness and settlement need (``offering_play_join`` of the compliance selectors);
2. **write**: the round, its bets, its ledger entries and the wallet's new balance and
   chain head. On PostgreSQL that is one statement (data-modifying CTEs, the bets and
   entries passed as one JSON document each and typed by ``jsonb_to_recordset``, so
   its text never changes and the server keeps it prepared); on SQLite, which has no
   round trips to save, four plain statements.

On PostgreSQL the read sees the database as it was when the statement began, except for
the locked wallet row, which is its newest version: a round committed by another request
of the player while this one waited for the lock is not in the join. The read therefore
also returns the wallet as its snapshot saw it; if the two differ, the service looks the
key up again before anything else (``moved_while_waiting``). The write's
``ON CONFLICT DO NOTHING`` on (player, idempotency key) stays as the last guard: it
writes nothing at all, and the service answers with the round that won.

Both statements share one transaction (``portal.game.transactions``): on PostgreSQL, as a
request plays a round, an implicit one with no BEGIN and no COMMIT.

Only ``portal.game.services`` calls this; values are prepared by the model fields, so
what lands in the tables is what the ORM would have written.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from django.db import connections, router

from portal.compliance.models import Offering
from portal.compliance.selectors import (
    offering_from_play_row,
    offering_play_join,
    offering_play_params,
)
from portal.core.rawsql import RowReader, columns_of, fetch_one, prepared
from portal.game.chain import BET_FIELDS, ROUND_FIELDS
from portal.game.models import Bet, LedgerEntry, Round, Wallet
from portal.game.transactions import RoundTransaction

# Every field the chain hashes (by attname), then the two it does not.
ROUND_COLUMNS = (*ROUND_FIELDS, "request_fingerprint", "hash")
BET_COLUMNS = BET_FIELDS
ENTRY_COLUMNS = ("kind", "amount", "balance_after")
# The constraint round_once_per_key: a second round under a key is not written.
_ON_KEY_CONFLICT = "ON CONFLICT (player_id, idempotency_key) DO NOTHING"


@dataclass(frozen=True)
class RoundInputs:
    wallet: Wallet
    # (id, request fingerprint) of the round already played under this key, if any
    previous: tuple[int, str] | None
    offering: Offering | None
    # The wallet moved between the statement's snapshot and the lock (another request of
    # this player committed meanwhile): ``previous`` may miss a round that request played.
    moved_while_waiting: bool = False


def connection_for_rounds():
    return connections[router.db_for_write(Round)]


def played_under(connection, *, player_id: int, idempotency_key: str) -> tuple[int, str] | None:
    """(id, request fingerprint) of the player's round under ``idempotency_key``, if any."""
    row = fetch_one(
        connection,
        f"SELECT id, request_fingerprint FROM {Round._meta.db_table} "
        "WHERE player_id = %s AND idempotency_key = %s",
        [player_id, idempotency_key],
    )
    return (row[0], row[1]) if row is not None else None


@functools.cache
def _wallet_reader() -> RowReader:
    return RowReader(
        Wallet, ("id", "player", "balance", "rounds_played", "chain_head", "updated_at"), "w"
    )


def read_for_round(
    connection, *, player_id: int, idempotency_key: str, offering_id: int
) -> RoundInputs | None:
    """The wallet (locked until the transaction ends), the round already played under
    ``idempotency_key`` and the offering; None if the player has no wallet yet."""
    wallet_reader = _wallet_reader()
    offering_readers, offering_joins = offering_play_join()
    lock = ""
    if connection.features.has_select_for_update:
        lock = " " + connection.ops.for_update_sql(
            of=("w",) if connection.features.has_select_for_update_of else ()
        )
    row = fetch_one(
        connection,
        f"SELECT {wallet_reader.columns}, r.id, r.request_fingerprint, "
        # The wallet as the snapshot saw it; the locked row above is the newest one.
        f"(SELECT s.rounds_played FROM {Wallet._meta.db_table} s WHERE s.id = w.id), "
        f"{', '.join(reader.columns for reader in offering_readers)} "
        f"FROM {Wallet._meta.db_table} w "
        f"LEFT JOIN {Round._meta.db_table} r "
        "ON r.player_id = w.player_id AND r.idempotency_key = %s "
        f"{offering_joins} "
        f"WHERE w.player_id = %s{lock}",
        [idempotency_key, *offering_play_params(offering_id), player_id],
    )
    if row is None:
        return None
    width = len(wallet_reader)
    wallet = wallet_reader.read(row[:width], connection)
    return RoundInputs(
        wallet=wallet,
        previous=(row[width], row[width + 1]) if row[width] is not None else None,
        offering=offering_from_play_row(row[width + 3 :], connection),
        moved_while_waiting=row[width + 2] != wallet.rounds_played,
    )


def write_round(
    connection,
    tx: RoundTransaction,
    *,
    round_values: dict,
    bets: list[dict],
    entries: list[dict],
    wallet: Wallet,
) -> tuple[int, list[int]] | None:
    """Insert the round, its bets and ledger entries, and move the wallet to ``wallet``'s
    balance, round count and chain head: the last statement of ``tx``, which an implicit
    transaction commits (or rolls back) before this returns. Returns the round's id and
    its bets' ids in position order, or None, having written nothing, if the player
    already has a round under this idempotency key."""
    assert tuple(round_values) == ROUND_COLUMNS, "round values in ROUND_COLUMNS order"
    if connection.vendor == "postgresql":
        return _write_round_postgresql(connection, tx, round_values, bets, entries, wallet)
    assert not tx.implicit, "only PostgreSQL runs a round in an implicit transaction"
    return _write_round_plain(connection, round_values, bets, entries, wallet)


def _record_columns(model, names, connection) -> str:
    """``name type, …`` for jsonb_to_recordset: each column typed as the model's field."""
    return ", ".join(
        f"{model._meta.get_field(name).column} {model._meta.get_field(name).db_type(connection)}"
        for name in names
    )


@functools.cache
def _postgresql_sql(alias: str) -> str:
    connection = connections[alias]
    round_placeholders = ", ".join(["%s"] * len(ROUND_COLUMNS))
    bet_columns = columns_of(Bet, BET_COLUMNS)
    entry_columns = columns_of(LedgerEntry, ENTRY_COLUMNS)
    return (
        "WITH new_round AS ("
        f"INSERT INTO {Round._meta.db_table} ({columns_of(Round, ROUND_COLUMNS)}) "
        f"VALUES ({round_placeholders}) {_ON_KEY_CONFLICT} RETURNING id"
        "), new_bets AS ("
        f"INSERT INTO {Bet._meta.db_table} (round_id, {bet_columns}) "
        f"SELECT new_round.id, {bet_columns} FROM new_round, "
        "ROWS FROM (jsonb_to_recordset(%s::jsonb) "
        f"AS ({_record_columns(Bet, BET_COLUMNS, connection)})) "
        f"WITH ORDINALITY AS b({bet_columns}, ordinality) "
        "ORDER BY ordinality RETURNING id, position"
        "), new_entries AS ("
        f"INSERT INTO {LedgerEntry._meta.db_table} "
        f"(wallet_id, round_id, created_at, {entry_columns}) "
        f"SELECT %s, new_round.id, %s, {entry_columns} FROM new_round, "
        "ROWS FROM (jsonb_to_recordset(%s::jsonb) "
        f"AS ({_record_columns(LedgerEntry, ENTRY_COLUMNS, connection)})) "
        f"WITH ORDINALITY AS e({entry_columns}, ordinality) "
        # Ids follow the list: the stake's entry, then the return's.
        "ORDER BY ordinality"
        "), moved_wallet AS ("
        f"UPDATE {Wallet._meta.db_table} "
        "SET balance = %s, rounds_played = %s, chain_head = %s, updated_at = %s "
        "WHERE id = %s AND EXISTS (SELECT 1 FROM new_round)"
        ") SELECT new_round.id, "
        "(SELECT array_agg(id ORDER BY position) FROM new_bets) FROM new_round"
    )


def _rows_as_json(rows: list[dict], names: tuple[str, ...]) -> str:
    # Bets and ledger entries hold only integers, short strings and lists of integers:
    # plain JSON carries them exactly, typed again by jsonb_to_recordset's column list.
    return json.dumps([{name: row[name] for name in names} for row in rows])


def _wallet_params(wallet: Wallet, connection) -> list:
    return [
        *prepared(
            Wallet,
            {
                "balance": wallet.balance,
                "rounds_played": wallet.rounds_played,
                "chain_head": wallet.chain_head,
                "updated_at": wallet.updated_at,
            },
            connection,
        ),
        wallet.pk,
    ]


def _write_round_postgresql(connection, tx, round_values, bets, entries, wallet):
    created_at = prepared(LedgerEntry, {"created_at": wallet.updated_at}, connection)[0]
    params = [
        *prepared(Round, round_values, connection),
        _rows_as_json(bets, BET_COLUMNS),
        wallet.pk,
        created_at,
        _rows_as_json(entries, ENTRY_COLUMNS),
        *_wallet_params(wallet, connection),
    ]
    with connection.cursor() as cursor:
        with tx.committing_write():
            cursor.execute(_postgresql_sql(connection.alias), params)
        row = cursor.fetchone()
    if row is None:
        return None
    round_id, bet_ids = row
    return round_id, list(bet_ids)


def _values_rows(count: int, width: int) -> str:
    row = "(" + ", ".join(["%s"] * width) + ")"
    return ", ".join([row] * count)


def _write_round_plain(connection, round_values, bets, entries, wallet):
    # RETURNING needs SQLite 3.35; older versions (Django supports 3.31) use lastrowid
    # and read the bets' ids back.
    returning = connection.features.can_return_columns_from_insert
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Round._meta.db_table} ({columns_of(Round, ROUND_COLUMNS)}) "
            f"VALUES {_values_rows(1, len(ROUND_COLUMNS))} {_ON_KEY_CONFLICT}"
            + (" RETURNING id" if returning else ""),
            prepared(Round, round_values, connection),
        )
        if returning:
            row = cursor.fetchone()
            round_id = row[0] if row is not None else None
        else:
            round_id = cursor.lastrowid if cursor.rowcount == 1 else None
        if round_id is None:
            return None
        bet_params = []
        for bet in bets:
            bet_params += [round_id, *prepared(Bet, {n: bet[n] for n in BET_COLUMNS}, connection)]
        cursor.execute(
            f"INSERT INTO {Bet._meta.db_table} (round_id, {columns_of(Bet, BET_COLUMNS)}) "
            f"VALUES {_values_rows(len(bets), len(BET_COLUMNS) + 1)}"
            + (" RETURNING id, position" if returning else ""),
            bet_params,
        )
        if not returning:
            cursor.execute(
                f"SELECT id, position FROM {Bet._meta.db_table} WHERE round_id = %s", [round_id]
            )
        bet_ids = [bet_id for bet_id, _ in sorted(cursor.fetchall(), key=lambda row: row[1])]
        created_at = prepared(LedgerEntry, {"created_at": wallet.updated_at}, connection)[0]
        entry_params = []
        for entry in entries:
            entry_params += [
                wallet.pk,
                round_id,
                created_at,
                *prepared(LedgerEntry, {n: entry[n] for n in ENTRY_COLUMNS}, connection),
            ]
        cursor.execute(
            f"INSERT INTO {LedgerEntry._meta.db_table} "
            f"(wallet_id, round_id, created_at, {columns_of(LedgerEntry, ENTRY_COLUMNS)}) "
            f"VALUES {_values_rows(len(entries), len(ENTRY_COLUMNS) + 3)}",
            entry_params,
        )
        cursor.execute(
            f"UPDATE {Wallet._meta.db_table} "
            "SET balance = %s, rounds_played = %s, chain_head = %s, updated_at = %s "
            "WHERE id = %s",
            _wallet_params(wallet, connection),
        )
    return round_id, bet_ids
