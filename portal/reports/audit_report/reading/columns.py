"""The columns the audit report reads, each list declared once: the ORM readers ask for these
names, the fixed COPY statements select them in this order, and the COPY readers decode
them by their kind.

Each column is (name, kind): "int"; "text"; "json" (a JSON column, its text as PostgreSQL
writes it); "instant" (a timestamp, UTC). A name with ``__`` reaches a related row, as the
ORM does (``round__balance_before``: the entry's round's ``balance_before``).
"""

from __future__ import annotations

Columns = tuple[tuple[str, str], ...]

# What each column of a round holds, in the order the pass selects them.
ROUND_COLUMN_TYPES = {
    "id": "int",
    "player_id": "int",
    "offering_id": "int",
    "rules_submission_id": "int",
    "rules_version": "int",
    "layout_id": "int",
    "layout_version": "int",
    "paytable_id": "int",
    "paytable_version": "int",
    "paytable_odds": "json",
    "wheel_order": "json",
    "first_colour": "text",
    "game_name": "text",
    "software_version": "text",
    "portal_version": "text",
    "idempotency_key": "text",
    "started_at": "instant",
    "bets_closed_at": "instant",
    "ended_at": "instant",
    "session_id": "text",
    "software_identity": "text",
    "rng_raw": "int",
    "rng_method": "text",
    "outcome": "int",
    "total_staked": "int",
    "total_returned": "int",
    "balance_before": "int",
    "balance_after": "int",
    "sequence": "int",
    "prev_hash": "text",
    "status": "text",
    "hash": "text",
}
# What each column of a bet holds: its round's id, then the fields its round's hash covers.
BET_COLUMN_TYPES = {
    "round_id": "int",
    "position": "int",
    "kind": "text",
    "numbers": "json",
    "spot": "text",
    "stake": "int",
    "returned": "int",
}


def _picked(kinds: dict[str, str], *wanted: str) -> Columns:
    return tuple((name, kinds[name]) for name in wanted)


# A round and a bet as the pass reads them: all that settling the round again and hashing
# it again needs (``portal.game.chain``'s fields, and its stored hash), its id first.
PASS_ROUND_COLUMNS = _picked(ROUND_COLUMN_TYPES, *ROUND_COLUMN_TYPES)
PASS_BET_COLUMNS = _picked(BET_COLUMN_TYPES, *BET_COLUMN_TYPES)
# A round and a bet as the detail shows them (one row per bet): the bet's round id and its
# place (the row's order) first, then its own values.
DETAIL_ROUND_COLUMNS = _picked(
    ROUND_COLUMN_TYPES,
    *("id", "sequence", "player_id", "offering_id", "rules_submission_id", "rules_version"),
    *("layout_id", "layout_version", "paytable_id", "paytable_version", "paytable_odds"),
    *("wheel_order", "first_colour", "started_at", "bets_closed_at", "ended_at", "session_id"),
    *("software_identity", "rng_raw", "rng_method", "outcome", "balance_before"),
    *("balance_after", "hash"),
)
DETAIL_BET_COLUMNS = _picked(
    BET_COLUMN_TYPES, "round_id", "position", "spot", "kind", "stake", "returned"
)
# A ledger entry of the period, with what its account line needs: the account's holder,
# the wallet's player, the entry's id (a problem names it), and the balances its round
# recorded.
LEDGER_COLUMNS: Columns = (
    ("account_id", "int"),
    ("account__holder_id", "int"),
    ("wallet_id", "int"),
    ("wallet__player_id", "int"),
    ("id", "int"),
    ("kind", "text"),
    ("amount", "int"),
    ("balance_after", "int"),
    ("round_id", "int"),
    ("round__balance_before", "int"),
    ("round__total_staked", "int"),
    ("round__balance_after", "int"),
)


def names(columns: Columns) -> tuple[str, ...]:
    return tuple(name for name, _ in columns)


def of_kind(columns: Columns, kind: str) -> tuple[str, ...]:
    return tuple(name for name, of in columns if of == kind)
