"""The round's two fixed statements on PostgreSQL: every line of SQL a round sends.

A round is the portal's hottest request. On PostgreSQL, two statements written once
here play it at about twice the rate of the ORM (``bench/bench_rounds.py``):

1. **read**: the player's wallet, locked (``FOR UPDATE OF w``), with the round already
   played under the same idempotency key, if any, the offering with everything its
   liveness and settlement need (its rules submission, layout, paytable and the
   submission's Jinzi Roulette listing) and the player's account with the offering's
   holder (§ 812a.4), its limits in force (§ 814a.2) with it as one JSON object by kind (a
   correlated subquery over its ``AccountLimit`` rows), and the player session the round
   is asked in (§ 812a.9(a)(5)): whether it runs, and its notice (§ 814a.1); and whether
   the game software running is approved (§ 461a.4: an approval in force of its digest);
2. **write**: the round, its bets, its ledger entries, the wallet's new chain head,
   the account's new balance and the session's last activity, in one statement of
   data-modifying CTEs; the bets and entries go as one JSON document each, typed by
   ``jsonb_to_recordset``, so the text never changes and the server keeps it prepared.

Both run inside the caller's ordinary ``transaction.atomic()``. The ORM path of
``portal.game.play.store`` is the reference: a test plays the same seeded rounds both ways
and compares every row. Values go in as the model fields prepare them and come out
through the fields' own converters and ``Model.from_db``; every column is selected under
a name and read by that name, never by position.

The read sees the database as it was when the statement began, except for the locked
wallet row, which is its newest version: a round committed by another request of the
player while this one waited for the lock is not in the join. So the read also returns
the wallet's round count as the snapshot saw it, and the caller looks the key up again
when the two differ. The account is the same: every movement of a player's money (a
round, a deposit, a withdrawal and its decision) takes the wallet's lock first and touches
its row, so when the wallet's ``updated_at`` moved while the read waited, the account it
joined may be stale, and the caller reads the account again (a third statement, only
then). The write's ``ON CONFLICT DO NOTHING`` on (player, idempotency key)
is the last guard: it writes nothing at all, and the caller answers with the round that won.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connections, models

from portal.compliance.models import (
    Game,
    Layout,
    ListedGame,
    Offering,
    Paytable,
    RulesSubmission,
)
from portal.core.software import running_identity
from portal.game.chain import BET_FIELDS, HASHED_ROUND_FIELDS
from portal.game.models import (
    AccountLimit,
    Bet,
    GamingAccount,
    LedgerEntry,
    PlaySession,
    Round,
    Wallet,
)
from portal.game.models.accounts import IN_FORCE_READ
from portal.game.money.terms import TermsStanding
from portal.game.play import read_checks
from portal.game.play.read_checks import LIMIT_READ

ROUND_WRITE_COLUMNS = (*HASHED_ROUND_FIELDS, "request_fingerprint", "hash")
BET_COLUMNS = BET_FIELDS
ENTRY_COLUMNS = ("kind", "amount", "balance_after")
# The wallet with the player's standing (identity verified, excluded): a round's checks.
WALLET_READ = (
    "id",
    "player",
    "balance",
    "rounds_played",
    "chain_head",
    "updated_at",
    "identity_verified_at",
    "excluded_since",
    "excluded_until",
    "notice_minutes",
)
WALLET_WRITTEN = ("rounds_played", "chain_head", "updated_at")
ACCOUNT_WRITTEN = ("balance", "updated_at")
# The session: whether it runs (§ 812a.3(a)(6)), its id for the round, its notice (§ 814a.1).
SESSION_READ = (
    "id",
    "user",
    "public_id",
    "channel",
    "started_at",
    "ended_at",
    "last_activity_at",
    "notices_acknowledged",
    "noticed_at",
)
SESSION_WRITTEN = ("last_activity_at",)
_RECORD_READ = ("id", "status", "version", "effective_date", "expiry_date")

# How these statements treat every concrete field of the four game tables they write, and
# of the limits they read, by field name. A test holds this against the models, so a field
# added to one of them fails until the SQL writes (or reads) it, or a reason here says why
# it need not.
_DATABASE_ASSIGNS = "not written: the database assigns it"
FIELD_COVERAGE: dict[type[models.Model], dict[str, str]] = {
    Round: {
        **dict.fromkeys(ROUND_WRITE_COLUMNS, "written"),
        "id": _DATABASE_ASSIGNS,
    },
    Bet: {
        **dict.fromkeys(BET_COLUMNS, "written"),
        "round": "written: the new round's id",
        "id": _DATABASE_ASSIGNS,
    },
    LedgerEntry: {
        **dict.fromkeys(ENTRY_COLUMNS, "written"),
        "wallet": "written",
        "account": "written",
        "round": "written: the new round's id",
        "created_at": "written: the round's end, as the wallet's updated_at",
        "id": _DATABASE_ASSIGNS,
    },
    Wallet: {
        **dict.fromkeys(WALLET_READ, "read"),
        **dict.fromkeys(WALLET_WRITTEN, "read and written"),
        "tell_every_access": "not read: sign-in reads it, a round never",
    },
    PlaySession: {
        **dict.fromkeys(SESSION_READ, "read"),
        **dict.fromkeys(SESSION_WRITTEN, "read and written"),
        "session_key": "not read: only ending a session from outside it needs it",
    },
    GamingAccount: {
        **{f.name: "read" for f in GamingAccount._meta.concrete_fields},
        **dict.fromkeys(ACCOUNT_WRITTEN, "read and written"),
    },
    AccountLimit: {
        **dict.fromkeys(LIMIT_READ, "read"),
        "in_force_from": "not read: the checks need only each limit's amount",
        "id": "not read: the limits are read by kind",
    },
}
# The constraint round_once_per_key: a second round under a key is not written.
_ON_KEY_CONFLICT = "ON CONFLICT (player_id, idempotency_key) DO NOTHING"


class Selected:
    """Some fields of ``model`` selected under a table alias, read back by column name."""

    def __init__(self, model: type[models.Model], field_names: Iterable[str], alias: str):
        wanted = set(field_names)
        # Model.from_db takes values in the model's field order; keep to it.
        self.fields = [f for f in model._meta.concrete_fields if f.name in wanted]
        missing = wanted - {f.name for f in self.fields}
        if missing:
            raise ValueError(f"{model.__name__} has no column(s) {sorted(missing)}")
        self.model = model
        self.alias = alias
        self.attnames = [f.attname for f in self.fields]
        self.labels = [f"{alias}__{f.attname}" for f in self.fields]
        self.sql = ", ".join(f"{alias}.{f.column} AS {alias}__{f.attname}" for f in self.fields)

    def read(self, row: Mapping[str, Any], connection) -> models.Model | None:
        """The instance in ``row``, or None where a LEFT JOIN found none."""
        values = [row[label] for label in self.labels]
        if values[0] is None:  # the primary key comes first
            return None
        for index, field in enumerate(self.fields):
            column = field.get_col(self.alias)
            for convert in connection.ops.get_db_converters(column) + (
                column.get_db_converters(connection)
            ):
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


def _prepared(model: type[models.Model], values: Mapping[str, Any], connection) -> list:
    """``values`` (by field name) as ``model``'s fields write them to ``connection``."""
    return [
        model._meta.get_field(name).get_db_prep_save(value, connection)
        for name, value in values.items()
    ]


def _columns(model: type[models.Model], field_names: Iterable[str]) -> str:
    return ", ".join(model._meta.get_field(name).column for name in field_names)


# Reads the JSON the database sends as text, as a model's JSONField would.
_JSON = models.JSONField()

# A fixed statement's column names never change: read from its first answer, then kept.
_column_names: dict[str, tuple[str, ...]] = {}


def _fetch_named(connection, sql: str, params: list) -> dict[str, Any] | None:
    """The first row of ``sql`` as {column name: value}, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        if row is None:
            return None
        names = _column_names.get(sql)
        if names is None:
            names = _column_names[sql] = tuple(column[0] for column in cursor.description)
        return dict(zip(names, row, strict=True))


@functools.cache
def _read_parts() -> dict[str, Selected]:
    return {
        "wallet": Selected(Wallet, WALLET_READ, "w"),
        "offering": Selected(
            Offering,
            ("id", "holder", "name", "status", "rules_submission", "layout", "paytable"),
            "o",
        ),
        "rules_submission": Selected(RulesSubmission, _RECORD_READ, "rs"),
        "layout": Selected(Layout, (*_RECORD_READ, "wheel_order", "first_colour"), "l"),
        "paytable": Selected(Paytable, (*_RECORD_READ, "odds"), "p"),
        "listing": Selected(ListedGame, (f.name for f in ListedGame._meta.concrete_fields), "g"),
        "account": Selected(
            GamingAccount, (f.name for f in GamingAccount._meta.concrete_fields), "a"
        ),
        "session": Selected(PlaySession, SESSION_READ, "ps"),
    }


@functools.cache
def _read_sql() -> str:
    parts = _read_parts()
    return (
        f"SELECT {', '.join(part.sql for part in parts.values())}, "
        f"{read_checks.limits_in_force_sql()} AS account_limits, "
        f"{read_checks.terms_in_force_sql('id')} AS terms_id, "
        f"{read_checks.terms_in_force_sql('version')} AS terms_version, "
        f"{read_checks.terms_accepted_sql()} AS terms_accepted, "
        f"{read_checks.software_approved_sql()} AS software_approved, "
        "r.id AS previous_id, r.request_fingerprint AS previous_fingerprint, "
        # The wallet as the statement's snapshot saw it; the locked row is the newest one.
        f"(SELECT s.rounds_played FROM {Wallet._meta.db_table} s WHERE s.id = w.id) "
        "AS snapshot_rounds_played, "
        f"(SELECT s.updated_at FROM {Wallet._meta.db_table} s WHERE s.id = w.id) "
        "AS snapshot_updated_at "
        f"FROM {Wallet._meta.db_table} w "
        f"LEFT JOIN {Round._meta.db_table} r "
        "ON r.player_id = w.player_id AND r.idempotency_key = %s "
        f"LEFT JOIN {Offering._meta.db_table} o ON o.id = %s "
        f"LEFT JOIN {RulesSubmission._meta.db_table} rs ON rs.id = o.rules_submission_id "
        f"LEFT JOIN {Layout._meta.db_table} l ON l.id = o.layout_id "
        f"LEFT JOIN {Paytable._meta.db_table} p ON p.id = o.paytable_id "
        f"LEFT JOIN {ListedGame._meta.db_table} g ON g.submission_id = rs.id AND g.game = %s "
        f"LEFT JOIN {GamingAccount._meta.db_table} a "
        "ON a.player_id = w.player_id AND a.holder_id = o.holder_id "
        f"LEFT JOIN {PlaySession._meta.db_table} ps "
        "ON ps.id = %s AND ps.user_id = w.player_id "
        "WHERE w.player_id = %s FOR UPDATE OF w"
    )


def read_for_round(
    connection, *, player_id: int, idempotency_key: str, offering_id: int, session_id: int
):
    """The read: (wallet, previous, offering, listing, moved_while_waiting, account, terms,
    session, software_approved), or None when the player has no wallet.
    ``software_approved``: whether the software running is approved (§ 461a.4).
    ``session`` is the player's session
    ``session_id``, None if it is not theirs. ``terms`` is the player's standing with the
    holder's terms in force (§ 812a.5). ``account`` is the player's account with the
    offering's holder, or None where it may be stale (or there is none). ``previous`` is
    (id, request fingerprint) of the round already played under ``idempotency_key``; the
    offering comes with its rules submission, layout and paytable attached, as
    ``select_related`` leaves them."""
    row = _fetch_named(
        connection,
        _read_sql(),
        [
            running_identity().digest,
            *(idempotency_key, offering_id, Game.JINZI_ROULETTE.value, session_id, player_id),
        ],
    )
    if row is None:
        return None
    parts = {name: part.read(row, connection) for name, part in _read_parts().items()}
    offering = parts["offering"]
    if offering is not None:
        offering.rules_submission = parts["rules_submission"]
        offering.layout = parts["layout"]
        offering.paytable = parts["paytable"]
    previous = None
    if row["previous_id"] is not None:
        previous = (row["previous_id"], row["previous_fingerprint"])
    wallet = parts["wallet"]
    moved = row["snapshot_rounds_played"] != wallet.rounds_played
    # Every movement of the player's money touches the wallet's row under its lock: if the
    # row changed while this statement waited for it, the account joined from the
    # statement's snapshot may be stale, and None says "read it again".
    fresh = row["snapshot_updated_at"] == row["w__updated_at"]
    account = parts["account"] if fresh else None
    if account is not None:
        # Where ``GamingAccount.limits`` finds them, as the ORM's ``with_limits`` puts them.
        in_force = _JSON.from_db_value(row["account_limits"], None, connection)
        setattr(account, IN_FORCE_READ, in_force)
    terms = None
    if offering is not None:
        in_force = row["terms_id"]
        terms = TermsStanding(
            in_force, row["terms_version"], in_force is None or bool(row["terms_accepted"])
        )
    return (
        *(wallet, previous, offering, parts["listing"], moved, account, terms, parts["session"]),
        bool(row["software_approved"]),
    )


def _typed_columns(model: type[models.Model], names: Iterable[str], connection) -> str:
    """``column type, …`` for jsonb_to_recordset: each column typed as the model's field."""
    fields = [model._meta.get_field(name) for name in names]
    return ", ".join(f"{field.column} {field.db_type(connection)}" for field in fields)


@functools.cache
def _write_sql(alias: str) -> str:
    connection = connections[alias]
    bet_columns = _columns(Bet, BET_COLUMNS)
    entry_columns = _columns(LedgerEntry, ENTRY_COLUMNS)
    wallet_sets = ", ".join(
        f"{Wallet._meta.get_field(name).column} = %s" for name in WALLET_WRITTEN
    )
    account_sets = ", ".join(
        f"{GamingAccount._meta.get_field(name).column} = %s" for name in ACCOUNT_WRITTEN
    )
    session_sets = ", ".join(
        f"{PlaySession._meta.get_field(name).column} = %s" for name in SESSION_WRITTEN
    )
    return (
        "WITH new_round AS ("
        f"INSERT INTO {Round._meta.db_table} ({_columns(Round, ROUND_WRITE_COLUMNS)}) "
        f"VALUES ({', '.join(['%s'] * len(ROUND_WRITE_COLUMNS))}) {_ON_KEY_CONFLICT} RETURNING id"
        "), new_bets AS ("
        f"INSERT INTO {Bet._meta.db_table} (round_id, {bet_columns}) "
        f"SELECT new_round.id, {bet_columns} FROM new_round, "
        "ROWS FROM (jsonb_to_recordset(%s::jsonb) "
        f"AS ({_typed_columns(Bet, BET_COLUMNS, connection)})) "
        f"WITH ORDINALITY AS b({bet_columns}, ordinality) "
        "ORDER BY ordinality RETURNING id, position"
        "), new_entries AS ("
        f"INSERT INTO {LedgerEntry._meta.db_table} "
        f"(wallet_id, account_id, round_id, created_at, {entry_columns}) "
        f"SELECT %s, %s, new_round.id, %s, {entry_columns} FROM new_round, "
        "ROWS FROM (jsonb_to_recordset(%s::jsonb) "
        f"AS ({_typed_columns(LedgerEntry, ENTRY_COLUMNS, connection)})) "
        f"WITH ORDINALITY AS e({entry_columns}, ordinality) "
        # Ids follow the list: the stake's entry, then the return's.
        "ORDER BY ordinality"
        "), moved_wallet AS ("
        f"UPDATE {Wallet._meta.db_table} SET {wallet_sets} "
        "WHERE id = %s AND EXISTS (SELECT 1 FROM new_round)"
        "), moved_account AS ("
        f"UPDATE {GamingAccount._meta.db_table} SET {account_sets} "
        "WHERE id = %s AND EXISTS (SELECT 1 FROM new_round)"
        "), moved_session AS ("
        f"UPDATE {PlaySession._meta.db_table} SET {session_sets} "
        "WHERE id = %s AND EXISTS (SELECT 1 FROM new_round)"
        ") SELECT new_round.id AS round_id, "
        "(SELECT array_agg(id ORDER BY position) FROM new_bets) AS bet_ids FROM new_round"
    )


def _as_json(rows: Iterable[Mapping[str, Any]], names: tuple[str, ...]) -> str:
    # Bets and ledger entries hold only integers, short strings and lists of integers:
    # plain JSON carries them exactly, typed again by jsonb_to_recordset's column list.
    return json.dumps([{name: row[name] for name in names} for row in rows])


def write_round(
    connection,
    *,
    round_obj: Round,
    bets: list[dict],
    entries: list[dict],
    wallet: Wallet,
    account: GamingAccount,
    session: PlaySession,
) -> tuple[int, list[int]] | None:
    """The write: the round's id and its bets' ids in position order, or None, having
    written nothing, if the player already has a round under this idempotency key.
    ``bets`` and ``entries`` hold the values of BET_COLUMNS and ENTRY_COLUMNS by name."""
    params = [
        *_prepared(
            Round, {name: getattr(round_obj, name) for name in ROUND_WRITE_COLUMNS}, connection
        ),
        _as_json(bets, BET_COLUMNS),
        wallet.pk,
        account.pk,
        *_prepared(LedgerEntry, {"created_at": wallet.updated_at}, connection),
        _as_json(entries, ENTRY_COLUMNS),
        *_prepared(Wallet, {name: getattr(wallet, name) for name in WALLET_WRITTEN}, connection),
        wallet.pk,
        *_prepared(
            GamingAccount, {name: getattr(account, name) for name in ACCOUNT_WRITTEN}, connection
        ),
        account.pk,
        *_prepared(
            PlaySession, {name: getattr(session, name) for name in SESSION_WRITTEN}, connection
        ),
        session.pk,
    ]
    row = _fetch_named(connection, _write_sql(connection.alias), params)
    if row is None:
        return None
    return row["round_id"], list(row["bet_ids"])
