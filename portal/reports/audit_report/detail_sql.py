"""The audit report's detail on PostgreSQL: its rows made by the database and streamed by
``COPY (SELECT …) TO STDOUT (FORMAT csv)``, for the CSV file (the very bytes the Python path
makes) and for the Parquet file (plain typed values).

Every cell that needs Python is worked out once per distinct value, before the COPY, and
bound as small arrays the SQL reads by place (no join, so no plan hangs on the planner's
guess of how many rows they hold):

- per offering of the scope: its holder's span of instants, its holder's and its own name,
  as the CSV shows them (``safe_cell``) and as they are;
- per distinct recorded odds: the "Odds (to 1)" cell of each kind any odds names; for each
  of the 52 legal spots its house edge as paid (``figures.Edges``, reading:round-up): the
  odds' own edge as the percent text the CSV writes (``percent_number``) and as an exact
  fraction, and, where fractional odds make a return round up (``jinzi.rounding_period``
  is not 1), the multiples of the stake the 13 outcomes return, so the SQL adds up what an
  even stake is paid, exactly as ``jinzi.settle`` rounds it (a ceiling division), and
  rounds 100 × that edge to 3 places half-even in whole numbers;
- per wheel and first colour: each outcome's colour.

Each round's own cells are worked out once (the rounds in id order behind ``OFFSET 0``),
its bets read in order per round (a ``LATERAL`` index scan), so the rows come out in the
order they are sorted by with no sort of the whole. Dates are written as
``datetime.isoformat()`` writes a UTC time, text that a spreadsheet would run as a formula
gets ``safe_cell``'s quote, a blank is a NULL (COPY writes an empty string as ``""``, the
csv module as nothing), and each row's ``\n`` becomes ``\r\n`` (libpq hands COPY data over a
row at a time, so the row's last byte is its end even where a quoted name holds a line
break). A test holds the bytes to the Python path's. The statements are fixed; their
values are bound by psycopg's adapters (``_statement``: COPY takes no server-side
parameters, and psycopg binds a COPY's on the client in any case).

The percent of an edge that depends on the stake is exact here as long as its fraction's
denominator stays small against a float's precision (the Python path rounds the float);
``stake × (|edge| + 1)`` below ``EXACT_BELOW`` keeps it so, and every product within 64
bits. **Where that cannot be promised** (a round staking more than that on odds that round
returns up), or a recorded odds or wheel cannot be read (the Python path fails on it in
the same way), ``copy_csv`` and ``record_batches`` decline, and the writers use the Python
path (``detail.DetailRows`` iterated) for that file. A spot outside the 52 legal ones (a
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

from django.db import connection
from psycopg import sql

import jinzi
from portal.core.csv_export import safe_cell
from portal.reports.audit_report.scope import Scope
from portal.reports.render.tabular import percent_number

EXACT_BELOW = 10**9  # stake × (|edge| + 1): the percent of a rounded edge stays exact below
FLUSH = 1 << 20  # bytes gathered before each write to the file
TERMS = 2  # the non-zero multiples a spot's 13 outcomes return (odds + 1, and a half on 0)

# --- The fixed SQL -------------------------------------------------------------------------

# The scope's rounds, as ``Scope.q`` picks them: those of the scope's offerings, each
# started within its holder's span of instants (looked up by the offering's place in the
# bound arrays), with an id no higher than the last stored when the report began. The
# outer bounds of every span let the planner use the index on the start and count well.
_PLACE = "array_position({offering_ids}::bigint[], r.offering_id)"
_SCOPE = f"""
    FROM game_round r
    WHERE r.offering_id = ANY({{offering_ids}}::bigint[])
        AND r.started_at >= {{earliest}}::timestamptz AND r.started_at < {{latest}}::timestamptz
        AND r.started_at >= ({{offering_firsts}}::timestamptz[])[{_PLACE}]
        AND r.started_at < ({{offering_ends}}::timestamptz[])[{_PLACE}]
        AND r.id <= {{last_round}}
"""

# Each distinct recorded odds, wheel and first colour, with the most a round staked on them.
DISTINCT_SQL = f"""
    SELECT r.paytable_odds::text AS odds, r.wheel_order::text AS wheel,
           r.first_colour AS first_colour, MAX(r.total_staked) AS most_staked
    {_SCOPE}
    GROUP BY r.paytable_odds, r.wheel_order, r.first_colour
"""

# ``datetime.isoformat()`` of a UTC time: microseconds only when there are some.
_ISO = (
    "to_char({0} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE WHEN "
    "to_char({0}, 'US') = '000000' THEN '' ELSE to_char({0}, '.US') END || '+00:00'"
)
_EPOCH_US = "(extract(epoch FROM {0}) * 1000000)::bigint"
_SAFE = "CASE WHEN left({0}, 1) IN ('=', '+', '-', '@') THEN '''' || {0} ELSE NULLIF({0}, '') END"
_WHEEL = "array_position({wheel_keys}::jsonb[], jsonb_build_array(r.first_colour, r.wheel_order))"
_TIMES = ("started_at", "bets_closed_at", "ended_at")


def _rounds(cells: str, wheel: str, names: tuple[str, str]) -> str:
    """The scope's rounds in id order, each with its cells worked out once (``cells``),
    its colour (``wheel``: the bound array it is read from), its holder's and offering's
    names (``names``: the bound arrays), and the place of its odds in ``odds_values``."""
    holder, offering = names
    return f"""
    SELECT r.id, r.balance_before, r.balance_after, {cells},
           ({{{wheel}}}::text[])[({_WHEEL} - 1) * 13 + r.outcome + 1] AS colour,
           ({{{holder}}}::text[])[{_PLACE}] AS holder,
           ({{{offering}}}::text[])[{_PLACE}] AS offering,
           r.id = ANY({{voided}}::bigint[]) AS void,
           array_position({{odds_values}}::jsonb[], r.paytable_odds) AS odds_id
    {_SCOPE}
    ORDER BY r.id
    OFFSET 0
    """


def _round_cells(instant: str, text: str) -> str:
    """A round's own cells: its instants through ``instant``, its free texts through
    ``text`` (each a format with one place for the column)."""
    return ", ".join(
        [
            "r.sequence",
            "'P' || r.player_id AS player",
            "r.rules_submission_id || ' v' || r.rules_version AS rules",
            "r.layout_id || ' v' || r.layout_version AS layout",
            "r.paytable_id || ' v' || r.paytable_version AS paytable",
            *(f"{instant.format(f'r.{name}')} AS {name}" for name in _TIMES),
            "r.rng_raw",
            f"{text.format('r.rng_method')} AS rng_method",
            "r.outcome",
            f"{text.format('r.hash')} AS hash",
        ]
    )


_CSV_ROUND_CELLS = _round_cells(_ISO, _SAFE)
_TYPED_ROUND_CELLS = _round_cells(_EPOCH_US, "{}")

# The bets of each round, in order, each with its places in the lookups: its kind's odds
# cell at (odds − 1) × kinds + kind, its spot's edge at (odds − 1) × 52 + spot.
_BETS = """
    CROSS JOIN LATERAL (
        SELECT b.position, b.spot, b.stake, b.returned,
               (r.odds_id - 1) * {kind_count} + array_position({kind_kinds}::text[], b.kind)
                   AS kind_at,
               (r.odds_id - 1) * 52 + ({spot_places}::jsonb ->> b.spot)::int AS spot_at
        FROM game_bet b
        WHERE b.round_id = r.id
        ORDER BY b.position
        OFFSET 0
    ) b
    ORDER BY r.id, b.position
"""


def _spot_at(name: str, kind: str = "bigint") -> str:
    """The bet's spot's value in the lookup ``name``."""
    return f"({{spot_{name}}}::{kind}[])[b.spot_at]"


# An even stake on a spot whose returns round up: what it is paid over the 13 outcomes.
_PAID = " + ".join(
    f"{_spot_at(f'c{n}')} * ((b.stake * {_spot_at(f'n{n}')} + {_spot_at(f'd{n}')} - 1)"
    f" / {_spot_at(f'd{n}')})"
    for n in (1, 2)
).join("()")
_ROUNDED = f"{_spot_at('rounds', 'bool')} AND b.stake >= 2 AND b.stake % 2 = 0"
# 13 × stake × edge = 13 × stake − paid; its percent × 1,000, half-even, in integers.
_EDGE_X13S = f"(13 * b.stake - {_PAID})"
_SCALED = f"(abs({_EDGE_X13S}) * 100000)"
_MILLI = (
    f"({_SCALED} / (13 * b.stake) + CASE"
    f" WHEN 2 * ({_SCALED} % (13 * b.stake)) > 13 * b.stake THEN 1"
    f" WHEN 2 * ({_SCALED} % (13 * b.stake)) < 13 * b.stake THEN 0"
    f" ELSE ({_SCALED} / (13 * b.stake)) % 2 END)"
)
_PERCENT = (
    f"CASE WHEN {_spot_at('percents', 'text')} IS NULL THEN NULL WHEN {_ROUNDED} THEN"
    f" CASE WHEN {_EDGE_X13S} < 0 THEN '-' ELSE '' END"
    f" || ({_MILLI} / 1000)::text || '.' || lpad(({_MILLI} % 1000)::text, 3, '0')"
    f" ELSE {_spot_at('percents', 'text')} END"
)
_KIND = "({{kind_{0}}}::text[])[b.kind_at]"

CSV_SQL = f"""
    COPY (
    SELECT r.id, r.sequence, r.player, r.holder, r.offering, r.rules, r.layout, r.paytable,
           {_KIND.format("cells")}, r.started_at, r.bets_closed_at, r.ended_at, r.rng_raw,
           r.rng_method,
           r.outcome, r.colour, {_SAFE.format("b.spot")}, b.stake, b.returned,
           b.stake - b.returned, {_PERCENT}, r.balance_before, r.balance_after, r.hash,
           CASE WHEN r.void THEN 'void' END
    FROM ({_rounds(_CSV_ROUND_CELLS, "wheel_cells", ("holder_cells", "offering_cells"))}) r
    {_BETS}
    ) TO STDOUT (FORMAT csv)
"""

# The same rows' recorded values as they are (the columns ``detail.detail_rows`` reads),
# nothing worked out: the yardstick a bench holds the CSV route to.
BARE_SQL = f"""
    COPY (
    SELECT r.id, r.sequence, r.player_id, r.offering_id, r.rules_submission_id,
           r.rules_version, r.layout_id, r.layout_version, r.paytable_id, r.paytable_version,
           r.paytable_odds, r.wheel_order, r.first_colour, r.started_at, r.bets_closed_at,
           r.ended_at, r.rng_raw, r.rng_method, r.outcome, b.spot, b.kind, b.stake,
           b.returned, r.balance_before, r.balance_after, r.hash
    FROM (SELECT r.* {_SCOPE} ORDER BY r.id OFFSET 0) r
    CROSS JOIN LATERAL (
        SELECT b.position, b.spot, b.kind, b.stake, b.returned
        FROM game_bet b
        WHERE b.round_id = r.id
        ORDER BY b.position
        OFFSET 0
    ) b
    ORDER BY r.id, b.position
    ) TO STDOUT (FORMAT csv)
"""

# The Parquet's columns, plain: text as it is, times in microseconds since the epoch, the
# edge as an exact fraction (numerator, denominator) that the reader divides.
TYPED_COLUMNS = (
    "round",
    "sequence",
    "player",
    "holder",
    "offering",
    "rules",
    "layout",
    "paytable",
    "odds",
    "started",
    "bets_closed",
    "ended",
    "rng_raw",
    "rng_method",
    "outcome",
    "colour",
    "spot",
    "stake",
    "returned",
    "win",
    "edge_numerator",
    "edge_denominator",
    "balance_before",
    "balance_after",
    "hash",
    "state",
)
TYPED_SQL = f"""
    COPY (
    SELECT r.id, r.sequence, r.player, r.holder, r.offering, r.rules, r.layout, r.paytable,
           COALESCE({_KIND.format("values")}, ''), r.started_at, r.bets_closed_at,
           r.ended_at, r.rng_raw, r.rng_method, r.outcome, r.colour, b.spot, b.stake, b.returned,
           b.stake - b.returned,
           CASE WHEN {_spot_at("percents", "text")} IS NULL THEN NULL
                WHEN {_ROUNDED} THEN {_EDGE_X13S} ELSE {_spot_at("numerators")} END,
           CASE WHEN {_spot_at("percents", "text")} IS NULL THEN NULL
                WHEN {_ROUNDED} THEN 13 * b.stake ELSE {_spot_at("denominators")} END,
           r.balance_before, r.balance_after, r.hash, CASE WHEN r.void THEN 'void' ELSE '' END
    FROM ({_rounds(_TYPED_ROUND_CELLS, "wheel_colours", ("holder_names", "offering_names"))}) r
    {_BETS}
    ) TO STDOUT (FORMAT csv)
"""


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
    }
    with connection.cursor() as cursor:
        cursor.execute(_statement(DISTINCT_SQL, params))
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
    with connection.cursor() as cursor, cursor.copy(_statement(text, params)) as copy:
        yield from copy


def _statement(text: str, params: dict[str, Any]) -> sql.Composed:
    """The fixed ``text`` with its ``{name}`` parameters bound by psycopg's adapters (COPY
    takes no server-side parameters: psycopg binds a COPY's on the client in any case)."""
    return sql.SQL(text).format(**{name: sql.Literal(value) for name, value in params.items()})


def bare_copy(scope: Scope) -> tuple[int, int]:
    """The bench's yardstick: the COPY of the detail's recorded values (``BARE_SQL``) read
    into the process and dropped; (rows, bytes)."""
    params = _params(scope)
    rows = size = 0
    for row in _rows(BARE_SQL, params):
        rows += 1
        size += len(row)
    return rows, size


def usable() -> bool:
    return connection.vendor == "postgresql"


def copy_csv(scope: Scope, out: BinaryIO) -> bool:
    """The detail's CSV rows, written straight to ``out``: the bytes ``write_csv`` would
    make from ``detail_rows``. False, writing nothing, where the Python path must do it."""
    if not usable():
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
    """The detail as Arrow record batches of ``schema`` (its fields in ``detail.COLUMNS``
    order, each naming its column's key in its metadata), ``rows`` rows each, read from a
    COPY of the plain values (``TYPED_SQL``) by pyarrow's CSV reader with every column's
    type given; None where the Python path must do it."""
    if not usable():
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
    typed = {name: pa.string() for name in TYPED_COLUMNS}
    for key, field in zip(keys, schema, strict=True):
        if pa.types.is_integer(field.type) or pa.types.is_timestamp(field.type):
            typed[key] = pa.int64()
    typed["edge_numerator"] = typed["edge_denominator"] = pa.int64()
    options = {
        "read_options": csv.ReadOptions(
            column_names=list(TYPED_COLUMNS), block_size=1 << 22, use_threads=False
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
                numerator = table["edge_numerator"].cast(pa.float64())
                value = pc.divide(numerator, table["edge_denominator"].cast(pa.float64()))
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
