"""The audit report's detail on PostgreSQL: its rows made by the database (the fixed SQL of
``detail_statements``) and streamed by ``COPY (SELECT …) TO STDOUT (FORMAT csv)``, for the
CSV file (the very bytes the Python path makes) and for the Parquet file (plain typed
values).

Every cell that needs Python is worked out once per distinct value, before the COPY, and
bound as small arrays the SQL reads by place (no join, so no plan hangs on the planner's
guess of how many rows they hold):

- per offering of the scope: its holder's span of instants, its holder's and its own name,
  as the CSV shows them (``safe_cell``) and as they are;
- per distinct recorded odds: the "Odds (to 1)" cell of each kind any odds names; for each
  of the 52 legal spots its house edge as paid (``spots.Edges``, reading:round-up): the
  odds' own edge as the percent text the CSV writes (``percent_number``) and as an exact
  fraction, and, where fractional odds make a return round up (``jinzi.rounding_period``
  is not 1), the multiples of the stake the 13 outcomes return, so the SQL adds up what an
  even stake is paid, exactly as ``jinzi.settle`` rounds it (a ceiling division), and
  rounds 100 × that edge to 3 places half-even in whole numbers;
- per wheel and first colour: each outcome's colour.

Each row's ``\n`` becomes ``\r\n`` (libpq hands COPY data over a row at a time, so the
row's last byte is its end even where a quoted name holds a line break). A test holds the
bytes to the Python path's.

The percent of an edge that depends on the stake is exact here as long as its fraction's
denominator stays small against a float's precision (the Python path rounds the float);
``stake × (|edge| + 1)`` below ``EXACT_BELOW`` keeps it so, and every product within 64
bits. **Where that cannot be promised** (a round staking more than that on odds that round
returns up), or a recorded odds or wheel cannot be read (the Python path fails on it in
the same way), ``copy_csv`` and ``record_batches`` decline, and the writers use the Python
path (``sections.detail.DetailRows`` iterated) for that file. A spot outside the 52 legal ones (a
row altered outside the portal) has no edge here, where the Python path would read one if
``jinzi`` could parse it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, BinaryIO

import jinzi
from portal.core.csv_export import safe_cell
from portal.core.replica import read_connection
from portal.game.corrections.presenters import STATE_WORDS
from portal.reports.audit_report.reading import copy_out
from portal.reports.audit_report.reading.copy_out import bound
from portal.reports.audit_report.reading.detail_statements import (
    BARE_SQL,
    CSV_SQL,
    DISTINCT_SQL,
    EDGE_PARTS,
    TYPED_SQL,
)
from portal.reports.audit_report.scope import Scope
from portal.reports.render.tabular import percent_number

EXACT_BELOW = 10**9  # stake × (|edge| + 1): the percent of a rounded edge stays exact below
FLUSH = 1 << 20  # bytes gathered before each write to the file
TERMS = 2  # the non-zero multiples a spot's 13 outcomes return (odds + 1, and a half on 0)

# --- The lookups, worked out in Python ------------------------------------------------------


@dataclass(frozen=True)
class _Spot:
    percent: str  # the odds' own edge, as the CSV writes it
    own: Fraction
    rounds: bool  # whether an even stake's return can round up (rounding period above 1)
    terms: tuple[tuple[int, int, int], ...]  # (outcomes, numerator, denominator) per multiple


def _spot(wager: jinzi.Wager, paytable: jinzi.Paytable) -> _Spot:
    own = jinzi.house_edge(wager, paytable=paytable)
    rounds = jinzi.rounding_period(wager, paytable=paytable) != 1
    multiples = Counter(jinzi.unit_return(wager, o, paytable=paytable) for o in jinzi.NUMBERS)
    terms = tuple(
        (count, m.numerator, m.denominator) for m, count in sorted(multiples.items()) if m
    )
    return _Spot(str(percent_number(float(own))), own, rounds, terms)


class _Declined(Exception):
    """The SQL path cannot promise the Python path's values for this scope."""


def _params(scope: Scope) -> dict[str, Any]:
    """The scope as bound parameters, and every lookup, from one GROUP BY over the rounds."""
    offerings = [
        (pk, scope.holders[holder], name)
        for pk, (holder, name) in sorted(scope.offerings.items())
        if holder in scope.holders
    ]
    params: dict[str, Any] = {
        "offering_ids": [pk for pk, _, _ in offerings],
        "offering_firsts": [holder.first for _, holder, _ in offerings],
        "offering_ends": [holder.end for _, holder, _ in offerings],
        "earliest": min((holder.first for _, holder, _ in offerings), default=None),
        "latest": max((holder.end for _, holder, _ in offerings), default=None),
        "last_round": scope.last_round,
        "voided": sorted(scope.voided),
        "adjusted": sorted(scope.adjusted),
        # The round states' words, as the Python path writes them (plain words: no quote).
        **{f"state_{key}": word for key, word in STATE_WORDS.items()},
    }
    with read_connection().cursor() as cursor:
        cursor.execute(bound(DISTINCT_SQL, params))
        names = [column.name for column in cursor.description]
        found = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    odds_ids: dict[str, int] = {}
    most: dict[str, int] = {}
    wheels: set[tuple[str, str]] = set()
    for row in found:
        odds_ids.setdefault(row["odds"], len(odds_ids) + 1)
        most[row["odds"]] = max(most.get(row["odds"], 0), row["most_staked"])
        wheels.add((row["wheel"], row["first_colour"]))

    tables = [json.loads(text) for text in odds_ids]
    if not all(isinstance(odds, dict) for odds in tables):
        raise _Declined("recorded odds that are not a table of kinds")
    kind_names = sorted({kind for odds in tables for kind in odds})
    kinds: list[tuple] = []  # per odds, per kind (in kind_names order)
    for odds in tables:
        for kind in kind_names:
            value = str(odds[kind]) if kind in odds else None
            kinds.append((value, None if value is None else _cell(value)))

    wheel_keys: list[str] = []
    colours: list[str] = []
    for wheel_text, first in sorted(wheels):
        try:
            wheel = jinzi.Wheel.of(json.loads(wheel_text), first)
        except jinzi.JinziError as error:
            raise _Declined("a recorded wheel jinzi cannot read") from error
        wheel_keys.append(json.dumps([first, json.loads(wheel_text)]))
        colours.extend(wheel.color(outcome).value for outcome in range(jinzi.WHEEL_SIZE))

    params |= {
        "odds_values": list(odds_ids),  # an odds' id is its place (from 1)
        "wheel_keys": wheel_keys,  # a wheel's 13 colours follow its place's
        "wheel_colours": colours,
        "wheel_cells": [_cell(colour) for colour in colours],
        "holder_names": [holder.name for _, holder, _ in offerings],
        "holder_cells": [_cell(holder.name) for _, holder, _ in offerings],
        "offering_names": [name for _, _, name in offerings],
        "offering_cells": [_cell(name) for _, _, name in offerings],
        "kind_count": len(kind_names),
        "kind_kinds": kind_names,
        **_columns("kind", ("values", "cells"), kinds),
        **spot_lookup(tables, [most[text] for text in odds_ids]),
    }
    return params


def spot_lookup(tables: list[dict], most: list[int]) -> dict[str, Any]:
    """The edge of each legal spot under each odds of ``tables`` (the odds' ids are their
    places, from 1), as the SQL reads it (``spot_*``); ``most``: the most a round staked
    under each."""
    legal = [wager.spot for wager in jinzi.legal_wagers()]
    spots: list[tuple] = []  # per odds, per legal spot (in legal order)
    for odds, staked in zip(tables, most, strict=True):
        try:
            paytable = jinzi.Paytable.of(odds)
        except (jinzi.JinziError, KeyError):
            # No edge under odds jinzi cannot read: blank, as the Python path.
            spots.extend([(None, 0, 1, False, 0, 0, 1, 0, 0, 1)] * len(legal))
            continue
        for wager in jinzi.legal_wagers():
            spot = _spot(wager, paytable)
            if spot.rounds:
                if len(spot.terms) > TERMS:
                    raise _Declined("a spot whose outcomes return more than two multiples")
                if staked * (abs(spot.own) + 1) >= EXACT_BELOW:
                    raise _Declined("a stake too large for the exact percent in SQL")
            terms = [*spot.terms, *[(0, 0, 1)] * (TERMS - len(spot.terms))]
            spots.append(
                (spot.percent, spot.own.numerator, spot.own.denominator, spot.rounds)
                + tuple(value for term in terms for value in term)
            )
    return {
        "spot_places": json.dumps({spot: place for place, spot in enumerate(legal, 1)}),
        **_columns(
            "spot",
            ("percents", "numerators", "denominators", "rounds", "c1", "n1", "d1", "c2")
            + ("n2", "d2"),
            spots,
        ),
    }


def _cell(text: str) -> str | None:
    """A text cell as the CSV writes it; a blank as NULL (COPY would quote an empty text)."""
    return safe_cell(text) or None


def _columns(prefix: str, names: tuple[str, ...], rows: list[tuple]) -> dict[str, list]:
    """Rows of a lookup as one array per column, named ``<prefix>_<name>``."""
    return {f"{prefix}_{name}": [row[index] for row in rows] for index, name in enumerate(names)}


def _rows(text: str, params: dict[str, Any]) -> Iterator[bytes | memoryview]:
    """The COPY's rows, one at a time, each ending in ``\\n``."""
    with read_connection().cursor() as cursor, cursor.copy(bound(text, params)) as copy:
        yield from copy


def bare_copy(scope: Scope) -> tuple[int, int]:
    """The bench's yardstick: the COPY of the detail's recorded values (``BARE_SQL``) read
    into the process and dropped; (rows, bytes)."""
    params = _params(scope)
    rows = size = 0
    for row in _rows(BARE_SQL, params):
        rows += 1
        size += len(row)
    return rows, size


def copy_csv(scope: Scope, out: BinaryIO) -> bool:
    """The detail's CSV rows, written straight to ``out``: the bytes ``write_csv`` would
    make from ``detail_rows``. False, writing nothing, where the Python path must do it."""
    if not copy_out.available():
        return False
    try:
        params = _params(scope)
    except _Declined:
        return False
    buffer = bytearray()
    for row in _rows(CSV_SQL, params):
        buffer += row
        buffer[-1:] = b"\r\n"
        if len(buffer) >= FLUSH:
            out.write(buffer)
            buffer = bytearray()
    if buffer:
        out.write(buffer)
    return True


def record_batches(scope: Scope, schema, rows: int) -> Iterator | None:
    """The detail as Arrow record batches of ``schema`` (its fields in ``sections.detail.COLUMNS``
    order, each naming its column's key in its metadata), ``rows`` rows each, read from a
    COPY of the plain values (``TYPED_SQL``) by pyarrow's CSV reader with every column's
    type given; None where the Python path must do it."""
    if not copy_out.available():
        return None
    try:
        params = _params(scope)
    except _Declined:
        return None
    return _batches(params, schema, rows)


def _batches(params: dict[str, Any], schema, rows: int) -> Iterator:
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyarrow import csv

    keys = [field.metadata[b"key"].decode() for field in schema]
    # The COPY's columns: the detail's, its edge as two (``EDGE_PARTS``).
    typed = {name: pa.string() for key in keys for name in (EDGE_PARTS if key == "edge" else [key])}
    for key, field in zip(keys, schema, strict=True):
        if pa.types.is_integer(field.type) or pa.types.is_timestamp(field.type):
            typed[key] = pa.int64()
    for name in EDGE_PARTS:
        typed[name] = pa.int64()
    options = {
        "read_options": csv.ReadOptions(
            column_names=list(typed), block_size=1 << 22, use_threads=False
        ),
        "parse_options": csv.ParseOptions(newlines_in_values=True),
        "convert_options": csv.ConvertOptions(
            column_types=typed,
            null_values=[""],
            strings_can_be_null=True,
            quoted_strings_can_be_null=False,
        ),
    }

    def batch(block: bytearray) -> Any:
        table = csv.read_csv(pa.BufferReader(pa.py_buffer(block)), **options)
        arrays = []
        for key, field in zip(keys, schema, strict=True):
            if key == "edge":
                numerator, denominator = (table[name].cast(pa.float64()) for name in EDGE_PARTS)
                value = pc.divide(numerator, denominator)
            else:
                value = table[key]
            arrays.append(value.cast(field.type).combine_chunks())
        return pa.RecordBatch.from_arrays(arrays, schema=schema)

    block, count = bytearray(), 0
    for row in _rows(TYPED_SQL, params):
        block += row
        count += 1
        if count == rows:
            yield batch(block)
            block, count = bytearray(), 0
    if count:
        yield batch(block)
