"""Each round's SHA-256 made again on PostgreSQL's columns, a block at a time: the round's
canonical bytes (``portal.game.chain.round_digest``'s JSON: sorted keys, no spaces, UTF-8)
built from the block's columns a column at a time, each column written as its kind
(``reading.columns``) is, and hashed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from portal.game.chain import BET_FIELDS, LATER_ROUND_FIELDS, ROUND_FIELDS, WHEN_RECORDED_FIELDS
from portal.reports.audit_report.reading.columns import PASS_BET_COLUMNS, PASS_ROUND_COLUMNS

_ROUND_COLUMN_TYPES = dict(PASS_ROUND_COLUMNS)
_BET_COLUMN_TYPES = dict(PASS_BET_COLUMNS)
_NEEDS_ESCAPE = r'[\x00-\x1f"\\]'  # what JSON writes otherwise than as itself in a string


def round_digests(rounds: pa.RecordBatch, bets: pa.RecordBatch, counts: np.ndarray) -> list[str]:
    """Each round's SHA-256, made again from its columns and its bets' (``counts``: each
    round's number of bets, the bets in round order)."""
    bets_text = _bets_json(bets)
    offsets = pa.array(np.concatenate(([0], np.cumsum(counts))).astype(np.int32))
    lists = pa.ListArray.from_arrays(offsets, bets_text)
    joined = pc.binary_join(lists, ",")
    payloads = _rounds_json(rounds, joined).cast(pa.binary()).to_pylist()
    sha256 = hashlib.sha256
    return [sha256(payload).hexdigest() for payload in payloads]


def _concat(*parts) -> pa.Array:
    return pc.binary_join_element_wise(*parts, "")


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _each_distinct(column, make: Callable[[str], str]) -> pa.Array:
    """``make`` applied once per distinct value of a text column."""
    encoded = pc.dictionary_encode(column)
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.combine_chunks()
    made = pa.array([make(text) for text in encoded.dictionary.to_pylist()], type=pa.string())
    return made.take(encoded.indices)


def _json_text(column) -> pa.Array:
    """A text column as JSON strings (as ``json.dumps`` writes them, non-ASCII as is)."""
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if pc.any(pc.match_substring_regex(column, _NEEDS_ESCAPE)).as_py():
        return pa.array([json.dumps(text, ensure_ascii=False) for text in column.to_pylist()])
    return _concat('"', column, '"')


def _json_value(column) -> pa.Array:
    """A JSON column (PostgreSQL's text of it) in canonical form, per distinct value."""
    return _each_distinct(column, lambda text: _canonical(json.loads(text)))


def _instant(column) -> pa.Array:
    """An instant as ``hashed_instant_text`` writes it (UTC, six digits of microseconds)."""
    values = column.to_numpy(zero_copy_only=False)  # datetime64[us], UTC; NaT where null
    text = pa.array(np.datetime_as_string(values, unit="us"), mask=np.isnat(values))
    return _concat('"', text, '+00:00"')


def _value(table: pa.Table, name: str, kinds: dict[str, str]) -> pa.Array:
    """A column as its JSON values, by its kind (``kinds``: the columns read)."""
    column, kind = table.column(name), kinds[name]
    if kind == "int":
        return pc.cast(column, pa.string())
    if kind == "instant":
        return _instant(column)
    if kind == "json":
        return _json_value(column)
    return _json_text(column)


def _bets_json(bets: pa.Table) -> pa.Array:
    parts: list = []
    for index, name in enumerate(sorted(BET_FIELDS)):
        parts += ["{" if index == 0 else ",", f'"{name}":', _value(bets, name, _BET_COLUMN_TYPES)]
    parts.append("}")
    made = _concat(*parts)
    return made.combine_chunks() if isinstance(made, pa.ChunkedArray) else made


def _rounds_json(rounds: pa.Table, bets_text: pa.Array) -> pa.Array:
    """Each round's ``round_digest`` payload: the later fields only where the round has a
    "no more bets" instant, its session and its software's identity each only where it has
    one (not blank), as the reference hashes them."""
    later = pc.is_valid(rounds.column("bets_closed_at"))
    recorded = {
        name: pc.fill_null(pc.not_equal(rounds.column(name), ""), False)
        for name in WHEN_RECORDED_FIELDS
    }
    parts: list = ["{"]
    every = (*ROUND_FIELDS, *LATER_ROUND_FIELDS, *WHEN_RECORDED_FIELDS, "bets")
    for index, name in enumerate(sorted(every)):
        key = f'{"," if index else ""}"{name}":'
        if name == "bets":
            parts += [key, "[", bets_text, "]"]
        elif name in LATER_ROUND_FIELDS or name in recorded:
            present = recorded.get(name, later)
            parts.append(
                pc.if_else(present, _concat(key, _value(rounds, name, _ROUND_COLUMN_TYPES)), "")
            )
        else:
            parts += [key, _value(rounds, name, _ROUND_COLUMN_TYPES)]
    parts.append("}")
    return _concat(*parts)
