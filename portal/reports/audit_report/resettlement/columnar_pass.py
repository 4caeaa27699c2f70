"""The audit report's pass on PostgreSQL, a block of rounds at a time, as columns.

The same pass as ``reference_pass`` (which a test holds it to, round for round, on
histories with planted faults), at the speed the database hands the rows over:

1. **read**: the scope's rounds and their bets come a block at a time as typed columns
   (``reading.block_copy``), so memory holds one block however long the period;
2. **settle**: every bet is settled again, and every round's exact moments taken, from
   the odds and wheel the round recorded, through ``jinzi.columns`` (NumPy, vectorised over
   the block). Each distinct recorded odds, wheel, spot, kind and number list is decoded
   once per block, not once per round. A round the block path cannot take exactly (no
   bets, a spot or stake no table takes, odds whose returns round up, a very large round)
   is settled by the reference's own ``round_checks.settle_round``, so it says what the
   reference says;
3. **hash**: each round's SHA-256 is made again from the columns (``round_hashes``) and
   checked, and linked to the player's previous round, as the reference checks it
   (``round_checks.check_link``).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import jinzi
from jinzi.columns import BlockTables
from portal.reports.audit_report.reading.block_copy import blocks
from portal.reports.audit_report.reading.columns import (
    PASS_BET_COLUMNS,
    PASS_ROUND_COLUMNS,
    names,
    of_kind,
)
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.round_checks import (
    SPOT_INDEX,
    Tables,
    check_link,
    check_totals,
    settle_round,
)
from portal.reports.audit_report.resettlement.round_hashes import round_digests
from portal.reports.audit_report.scope import Scope
from portal.reports.audit_report.values import odds_key

_ROUND_JSON = of_kind(PASS_ROUND_COLUMNS, "json")
_BET_JSON = of_kind(PASS_BET_COLUMNS, "json")
_BET_NAMES = names(PASS_BET_COLUMNS)
_DAY = datetime.timedelta(days=1)


def columnar_pass(
    scope: Scope, progress: Callable[[int], None] | None = None, *, part: bool = False
) -> Pass:
    """The pass over the scope, a block at a time, not finished (``finishing.finish``);
    ``progress(rounds done)`` after each block. ``part``: the scope is one part of a
    period."""
    found = Pass(part=part)
    if not scope.holders:
        return found
    tables = Tables()
    for rounds, bets in blocks(scope):
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
        digests = round_digests(self.rounds, self.bets, self.counts)
        columns = self.rounds.select(["id", "player_id", "sequence", "prev_hash", "hash"])
        ids, players, sequences, prevs, hashes = (c.to_pylist() for c in columns.columns)
        hard = np.flatnonzero(~simple)
        hard_set = set(hard.tolist())
        if hard.size:
            records = self._records(hard)
        for row in range(self.n):
            if row in hard_set:
                settle_round(found, self.tables, self.scope, *records[row])
            check_link(
                found, ids[row], players[row], sequences[row], prevs[row], hashes[row],
                digests[row],
            )  # fmt: skip

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

    def _records(self, rows: np.ndarray) -> dict[int, tuple[dict, list]]:
        """The rounds at ``rows`` (and their bets) as the reference reads them."""
        taken = self.rounds.take(pa.array(rows))
        named = taken.to_pylist()
        found = {}
        for row, record in zip(rows.tolist(), named, strict=True):
            for name in _ROUND_JSON:
                record[name] = json.loads(record[name])
            found[row] = record
        bet_rows = np.flatnonzero(np.isin(self.round_of_bet, rows))
        bets_of = {row: [] for row in rows.tolist()}
        chosen = self.bets.take(pa.array(bet_rows)).to_pylist()
        for at, bet in zip(self.round_of_bet[bet_rows].tolist(), chosen, strict=True):
            for name in _BET_JSON:
                bet[name] = json.loads(bet[name])
            bets_of[at].append(tuple(bet[name] for name in _BET_NAMES))
        return {row: (found[row], bets_of[row]) for row in rows.tolist()}


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
