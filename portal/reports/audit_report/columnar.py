"""The audit report's pass on PostgreSQL, a block of rounds at a time, as columns.

The same pass as ``resettle.reference_pass`` (which a test holds it to, round for round,
on histories with planted faults), at the speed the database hands the rows over:

1. **read**: the scope's round ids are cut into blocks of ``BLOCK`` rounds; each block's
   rounds, then their bets, are copied out of PostgreSQL (``COPY … TO STDOUT (FORMAT
   csv)``, the fixed statements of ``sql``) and decoded in bulk into typed columns
   (pyarrow's CSV reader), so memory holds one block however long the period;
2. **settle**: every bet is settled again, and every round's exact moments taken, from
   the odds and wheel the round recorded, through ``jinzi.columns`` (NumPy, vectorised over
   the block). Each distinct recorded odds, wheel, spot, kind and number list is decoded
   once per block, not once per round. A round the block path cannot take exactly (no
   bets, a spot or stake no table takes, odds whose returns round up, a very large round)
   is settled by the reference's own ``settle_round``, so it says what the reference says;
3. **hash**: each round's canonical bytes (``portal.game.chain.round_digest``'s JSON:
   sorted keys, no spaces, UTF-8) are built from the columns, a column at a time, and
   hashed with SHA-256; the link to the player's previous round is checked as the
   reference checks it (``Pass.link``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
from django.db import connection

import jinzi
from jinzi.columns import BlockTables
from portal.game.chain import LATER_ROUND_FIELDS, ROUND_FIELDS
from portal.reports.audit_report import sql
from portal.reports.audit_report.figures import odds_key
from portal.reports.audit_report.found import (
    BET_COLUMNS,
    CONTENT_CHANGED,
    SPOT_INDEX,
    Pass,
    Tables,
    check_totals,
    settle_round,
)
from portal.reports.audit_report.scope import Scope

BLOCK = 20_000  # rounds per block (about 200,000 bets)
_INSTANTS = ("started_at", "ended_at", "bets_closed_at")
_JSON = ("paytable_odds", "wheel_order")
_INTEGERS = {
    "player_id", "offering_id", "rules_submission_id", "rules_version", "layout_id",
    "layout_version", "paytable_id", "paytable_version", "rng_raw", "outcome",
    "total_staked", "total_returned", "balance_before", "balance_after", "sequence",
}  # fmt: skip
_NEEDS_ESCAPE = r'[\x00-\x1f"\\]'  # what JSON writes otherwise than as itself in a string


def available() -> bool:
    """The columnar pass reads with PostgreSQL's COPY."""
    return connection.vendor == "postgresql"


def _types(columns: tuple[tuple[str, str], ...]) -> dict[str, pa.DataType]:
    kinds = {
        "int": pa.int64(),
        "text": pa.string(),
        "instant": pa.timestamp("us", tz="UTC"),
    }
    return {name: kinds[kind] for name, kind in columns}


_ROUND_TYPES = _types(sql.ROUND_COLUMNS)
_BET_TYPES = _types(sql.BET_COLUMNS)


def _copied(cursor, statement: str, params: list, types: dict[str, pa.DataType]):
    """One COPY's rows, decoded into typed columns named as the statement names them (one
    record batch)."""
    data = bytearray()
    with cursor.copy(sql.bound(statement, params)) as copy:
        read = copy.read
        while block := read():
            data += block
    if not data:
        return pa.record_batch([pa.array([], type=kind) for kind in types.values()], list(types))
    table = pacsv.read_csv(
        pa.py_buffer(data),
        read_options=pacsv.ReadOptions(column_names=list(types)),
        parse_options=pacsv.ParseOptions(newlines_in_values=True),
        convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
    )
    return table.combine_chunks().to_batches()[0]


def columnar_pass(
    scope: Scope, progress: Callable[[int], None] | None = None, *, part: bool = False
) -> Pass:
    found = Pass(part=part)
    if not scope.holders:
        return found
    tables = Tables()
    where, params = sql.scope_condition(scope)
    with connection.cursor() as cursor:
        ids = _copied(cursor, sql.ids_statement(where), params, {"id": pa.int64()})
        ids = ids.column("id").to_numpy()
        for at in range(0, len(ids), BLOCK):
            first, last = int(ids[at]), int(ids[min(at + BLOCK, len(ids)) - 1])
            rounds = _copied(
                cursor, sql.rounds_statement(where), [*params, first, last], _ROUND_TYPES
            )
            bets = _copied(
                cursor,
                sql.bets_statement(where),
                [first, last, *params, first, last],
                _BET_TYPES,
            )
            _Block(found, tables, scope, rounds, bets).check()
            if progress is not None:
                progress(found.rounds_checked)
    return found


class _Block:
    """One block of rounds (in id order) and their bets (in round and position order)."""

    def __init__(self, found: Pass, tables: Tables, scope: Scope, rounds, bets) -> None:
        self.found, self.tables, self.scope = found, tables, scope
        self.rounds, self.bets = rounds, bets
        self.n = rounds.num_rows
        self.ids = rounds.column("id").to_numpy()
        bet_rounds = bets.column("round_id").to_numpy()
        where = np.searchsorted(self.ids, bet_rounds)
        inside = where < self.n
        inside[inside] = self.ids[where[inside]] == bet_rounds[inside]
        if not inside.all():  # a bet whose round the block does not hold: passed over
            self.bets = bets = bets.filter(pa.array(inside))
            where = where[inside]
        self.round_of_bet = where  # per bet, its round's row in the block
        self.counts = np.bincount(where, minlength=self.n)
        self.starts = np.concatenate(([0], np.cumsum(self.counts)[:-1]))
        self.stake = bets.column("stake").to_numpy()
        self.returned = bets.column("returned").to_numpy()

    def check(self) -> None:
        found = self.found
        simple = self._settle_simple()
        # Every round of the block in id order: the ones the block path could not take are
        # settled by the reference, then each is hashed and linked as the reference does.
        digests = self._digests()
        columns = self.rounds.select(["id", "player_id", "sequence", "prev_hash", "hash"])
        ids, players, sequences, prevs, hashes = (c.to_pylist() for c in columns.columns)
        hard = np.flatnonzero(~simple)
        hard_set = set(hard.tolist())
        if hard.size:
            records = self._records(hard)
        for row in range(self.n):
            if row in hard_set:
                settle_round(found, self.tables, self.scope, *records[row])
            if digests[row] != hashes[row]:
                found.chain_problem(ids[row], players[row], CONTENT_CHANGED)
            found.link(ids[row], players[row], sequences[row], prevs[row], hashes[row])

    # --- settlement and moments -----------------------------------------------------------

    def _settle_simple(self):
        """Settle, and take the moments of, every round the block path can take exactly;
        returns which rounds those were."""
        found, n = self.found, self.n
        col = self.rounds.column
        setups = pc.binary_join_element_wise(
            col("paytable_odds"), col("wheel_order"), col("first_colour"), "\x00"
        ).dictionary_encode()
        setup_of_round = setups.indices.to_numpy(zero_copy_only=False)
        compiled, usable, odds_of_setup = [], [], []
        for text in setups.dictionary.to_pylist():
            odds_text, wheel_text, first = text.split("\x00")
            odds = json.loads(odds_text)
            odds_of_setup.append(odds)
            try:
                settlement, _ = self.tables.of(odds, json.loads(wheel_text), first)
            except (jinzi.JinziError, KeyError, ValueError, TypeError, AttributeError):
                settlement = None
            if settlement is not None:
                usable.append(len(compiled))
                compiled.append(settlement)
            else:
                usable.append(-1)
        table_of_setup = np.array(usable, dtype=np.int64)
        table_of_round = table_of_setup[setup_of_round]
        block_tables = BlockTables(compiled)

        spots = self.bets.column("spot").dictionary_encode()
        index_of_spot = np.array(
            [SPOT_INDEX.get(text, -1) for text in spots.dictionary.to_pylist()] or [-1],
            dtype=np.int64,
        )
        spot = index_of_spot[spots.indices.to_numpy(zero_copy_only=False)]
        outcome = col("outcome").to_numpy()
        stake, rob = self.stake, self.round_of_bet
        odd_bet = (spot < 0) | (stake <= 0) | (stake % 2 != 0)
        good_stake = np.where(odd_bet, 0, stake)
        staked = np.bincount(rob, weights=good_stake, minlength=n)
        largest = np.zeros(n, dtype=np.int64)
        np.maximum.at(largest, rob, good_stake)
        simple = (
            (table_of_round >= 0)
            & (self.counts > 0)
            & (np.bincount(rob, weights=odd_bet, minlength=n) == 0)
            & (outcome >= 0)
            & (outcome < jinzi.WHEEL_SIZE)
        )
        simple &= block_tables.fits(np.maximum(table_of_round, 0), staked, largest)

        bet_simple = simple[rob]
        b_round = rob[bet_simple]
        b_table = table_of_round[b_round]
        b_spot, b_stake = spot[bet_simple], stake[bet_simple]
        b_returned = self.returned[bet_simple]
        settled = block_tables.returns(b_table, outcome[b_round], b_spot, b_stake)
        self._differences(b_round, np.flatnonzero(bet_simple), settled, b_returned)
        s_rows = np.flatnonzero(simple)
        s_counts = self.counts[s_rows]
        s_starts = np.concatenate(([0], np.cumsum(s_counts)[:-1])) if s_rows.size else s_counts
        mean_x13, var_x169 = (
            block_tables.moments(b_table, b_spot, b_stake, s_starts)
            if s_rows.size
            else (s_counts, s_counts)
        )
        found.bets_checked += int(bet_simple.sum())
        found.rounds_checked += int(s_rows.size)
        self._totals(s_rows, b_round, b_stake, b_returned)
        self._add_figures(s_rows, mean_x13, var_x169, setup_of_round, odds_of_setup)
        return simple

    def _differences(self, b_round, bet_rows, settled, paid) -> None:
        wrong = np.flatnonzero(settled != paid)
        if not wrong.size:
            return
        ids = self.ids[b_round[wrong]]
        rows = bet_rows[wrong]
        positions = self.bets.column("position").to_numpy()[rows]
        spots = self.bets.column("spot").take(pa.array(rows)).to_pylist()
        for i, at in enumerate(wrong.tolist()):
            self.found.discrepancy(
                round=int(ids[i]), position=int(positions[i]), spot=spots[i],
                stake=int(self.stake[rows[i]]), paid=int(paid[at]), settled=int(settled[at]),
                problem="paid differs from the re-settlement",
            )  # fmt: skip

    def _totals(self, s_rows, b_round, b_stake, b_returned) -> None:
        """Each simple round's recorded totals against its bets' sums."""
        staked = np.bincount(b_round, weights=b_stake, minlength=self.n)
        paid = np.bincount(b_round, weights=b_returned, minlength=self.n)
        col = self.rounds.column
        total_staked, total_returned = (
            col("total_staked").to_numpy(),
            col("total_returned").to_numpy(),
        )
        off = s_rows[
            (staked[s_rows] != total_staked[s_rows]) | (paid[s_rows] != total_returned[s_rows])
        ]
        for row in off.tolist():
            mine = self.round_of_bet == row
            check_totals(
                self.found, int(self.ids[row]), int(total_staked[row]), int(total_returned[row]),
                self.stake[mine].tolist(), self.returned[mine].tolist(),
            )  # fmt: skip

    def _add_figures(self, s_rows, mean_x13, var_x169, setup_of_round, odds_of_setup) -> None:
        """The simple rounds that count as play: their moments by group and gaming day,
        their bets by group, odds, spot and stake."""
        found, scope, col = self.found, self.scope, self.rounds.column
        played = np.array([int(i) not in scope.voided for i in self.ids[s_rows]], dtype=bool)
        if scope.voided and not played.all():
            s_rows, mean_x13, var_x169 = s_rows[played], mean_x13[played], var_x169[played]
        if not s_rows.size:
            return
        offering = col("offering_id").to_numpy()[s_rows]
        paytable = col("paytable_id").to_numpy()[s_rows]
        version = col("paytable_version").to_numpy()[s_rows]
        staked = col("total_staked").to_numpy()[s_rows]
        returned = col("total_returned").to_numpy()[s_rows]
        day = self._days(s_rows, offering)
        # One key per group and day: the sums are taken exactly, as Python integers.
        unique, inverse = _grouped(offering, paytable, version, day)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(len(unique) + 1)).tolist()
        values = [a[order] for a in (staked, returned, mean_x13, var_x169)]
        for k, (o, p, v, d) in enumerate(unique):
            lo, hi = bounds[k], bounds[k + 1]
            sums = [sum(a[lo:hi].tolist()) for a in values]
            found.groups[(o, p, v)].add_sums(hi - lo, *sums)
            found.days[scope.start + _DAY * d].add_sums(hi - lo, *sums)
        self._add_spots(s_rows, setup_of_round, odds_of_setup)

    def _days(self, s_rows, offering) -> np.ndarray:
        """Each round's gaming day, as days after the scope's first (its holder's days)."""
        scope = self.scope
        started = self.rounds.column("started_at").cast(pa.int64()).to_numpy()[s_rows]
        day = np.zeros(len(s_rows), dtype=np.int64)
        holder = np.array([scope.offerings[o][0] for o in offering.tolist()], dtype=np.int64)
        for pk, h in scope.holders.items():
            mine = holder == pk
            if mine.any():
                starts = np.array([_micros(t) for t in h.day_starts], dtype=np.int64)
                day[mine] = np.searchsorted(starts, started[mine], side="right") - 1
        return day

    def _add_spots(self, s_rows, setup_of_round, odds_of_setup) -> None:
        """The bets of ``s_rows`` by group, recorded odds, spot and stake."""
        col = self.rounds.column
        names = ("offering_id", "paytable_id", "paytable_version")
        groups, group_of_round = _grouped(
            *(col(name).to_numpy()[s_rows] for name in names), setup_of_round[s_rows]
        )
        code_of_round = np.full(self.n, -1, dtype=np.int64)
        code_of_round[s_rows] = group_of_round
        bet_code = code_of_round[self.round_of_bet]
        bet_rows = np.flatnonzero(bet_code >= 0)
        spots = self.bets.column("spot").take(pa.array(bet_rows)).dictionary_encode()
        spot = spots.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        stakes, stake = np.unique(self.stake[bet_rows], return_inverse=True)
        size = (len(groups), len(spots.dictionary), len(stakes))
        key = (bet_code[bet_rows] * size[1] + spot) * size[2] + stake.reshape(-1)
        paid = self.returned[bet_rows]
        if size[0] * size[1] * size[2] <= 1 << 22 and int(paid.sum()) < 1 << 53:
            # Few enough keys to count them in place; each sum exact in a float64.
            counts = np.bincount(key, minlength=size[0] * size[1] * size[2])
            sums = np.bincount(key, weights=paid, minlength=len(counts))
            present = np.flatnonzero(counts)
            totals = sums[present].astype(np.int64).tolist()
            counted = zip(present.tolist(), counts[present].tolist(), totals, strict=True)
        else:
            present, inverse = np.unique(key, return_inverse=True)
            counts = np.bincount(inverse)
            order = np.argsort(inverse, kind="stable")
            bounds = np.searchsorted(inverse[order], np.arange(len(present) + 1)).tolist()
            ordered = paid[order]
            counted = (
                (k, n, sum(ordered[bounds[i] : bounds[i + 1]].tolist()))
                for i, (k, n) in enumerate(zip(present.tolist(), counts.tolist(), strict=True))
            )
        spot_texts = spots.dictionary.to_pylist()
        stake_values = stakes.tolist()
        keys_of_setup = [odds_key(odds) for odds in odds_of_setup]
        for k, bets, returned in counted:
            rest, at_stake = divmod(k, size[2])
            at_group, at_spot = divmod(rest, size[1])
            offering, paytable, version, setup = groups[at_group]
            odds = keys_of_setup[setup]
            self.found.odds.setdefault(odds, odds_of_setup[setup])
            stake_value = stake_values[at_stake]
            self.found.add_spot(
                ((offering, paytable, version), odds, spot_texts[at_spot], stake_value),
                bets, bets * stake_value, returned,
            )  # fmt: skip

    # --- hashing ------------------------------------------------------------------------

    def _digests(self) -> list[str]:
        """Each round's SHA-256, made again from its columns and its bets'."""
        bets = _bets_json(self.bets)
        offsets = pa.array(np.concatenate(([0], np.cumsum(self.counts))).astype(np.int32))
        lists = pa.ListArray.from_arrays(offsets, bets)
        joined = pc.binary_join(lists, ",")
        payloads = _rounds_json(self.rounds, joined).cast(pa.binary()).to_pylist()
        sha256 = hashlib.sha256
        return [sha256(payload).hexdigest() for payload in payloads]

    def _records(self, rows: np.ndarray) -> dict[int, tuple[dict, list]]:
        """The rounds at ``rows`` (and their bets) as the reference reads them."""
        taken = self.rounds.take(pa.array(rows))
        named = taken.to_pylist()
        found = {}
        for row, r in zip(rows.tolist(), named, strict=True):
            record = dict(r, pk=r["id"])
            for name in _JSON:
                record[name] = json.loads(record[name])
            found[row] = record
        bet_rows = np.flatnonzero(np.isin(self.round_of_bet, rows))
        bets_of = {row: [] for row in rows.tolist()}
        chosen = self.bets.take(pa.array(bet_rows)).to_pylist()
        for at, bet in zip(self.round_of_bet[bet_rows].tolist(), chosen, strict=True):
            bet = dict(bet, numbers=json.loads(bet["numbers"]))
            bets_of[at].append(tuple(bet[name] for name in BET_COLUMNS))
        return {row: (found[row], bets_of[row]) for row in rows.tolist()}


_DAY = __import__("datetime").timedelta(days=1)


def _grouped(*columns: np.ndarray) -> tuple[list[tuple], np.ndarray]:
    """The distinct rows of some integer columns, and each row's index among them."""
    codes, values = [], []
    for column in columns:
        distinct, code = np.unique(column, return_inverse=True)
        values.append(distinct.tolist())
        codes.append(code.reshape(-1).astype(np.int64))
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for code, distinct in zip(codes, values, strict=True):
        key = key * len(distinct) + code
    keys, inverse = np.unique(key, return_inverse=True)
    unique = []
    for combined in keys.tolist():
        row = []
        for distinct in reversed(values):
            combined, at = divmod(combined, len(distinct))
            row.append(distinct[at])
        unique.append(tuple(reversed(row)))
    return unique, inverse.reshape(-1)


def _micros(instant) -> int:
    return round(instant.timestamp() * 1_000_000)


# --- canonical JSON, a column at a time ---------------------------------------------------


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


def _value(table: pa.Table, name: str) -> pa.Array:
    column = table.column(name)
    if name in _INTEGERS or name == "position" or name in ("stake", "returned"):
        return pc.cast(column, pa.string())
    if name in _INSTANTS:
        return _instant(column)
    if name in _JSON or name == "numbers":
        return _json_value(column)
    return _json_text(column)


def _bets_json(bets: pa.Table) -> pa.Array:
    parts: list = []
    for index, name in enumerate(
        sorted(("position", "kind", "numbers", "spot", "stake", "returned"))
    ):
        parts += ["{" if index == 0 else ",", f'"{name}":', _value(bets, name)]
    parts.append("}")
    made = _concat(*parts)
    return made.combine_chunks() if isinstance(made, pa.ChunkedArray) else made


def _rounds_json(rounds: pa.Table, bets_text: pa.Array) -> pa.Array:
    """Each round's ``round_digest`` payload: the later fields only where the round has a
    "no more bets" instant, as the reference hashes them."""
    later = pc.is_valid(rounds.column("bets_closed_at"))
    parts: list = ["{"]
    for index, name in enumerate(sorted((*ROUND_FIELDS, *LATER_ROUND_FIELDS, "bets"))):
        key = f'{"," if index else ""}"{name}":'
        if name == "bets":
            parts += [key, "[", bets_text, "]"]
        elif name in LATER_ROUND_FIELDS:
            parts.append(pc.if_else(later, _concat(key, _value(rounds, name)), ""))
        else:
            parts += [key, _value(rounds, name)]
    parts.append("}")
    return _concat(*parts)
