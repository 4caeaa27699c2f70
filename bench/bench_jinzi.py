"""Benchmark and Monte Carlo check of the jinzi game engine.

    python bench/bench_jinzi.py [--spins N] [--bets N] [--rounds N] [--seed S]

1. settlement throughput through ``jinzi.settle``, one bet at a time;
2. the same bets through ``SettlementTable.settle_many``, round by round, and the
   batch/single ratio (the two must agree exactly);
3. the exact mean and variance of each round's return (reading:expected-win) for N
   rounds of 1–10 bets through ``RoundMomentsTable``, against ``jinzi.round_moments``
   one round at a time on a sample (the two must agree exactly);
4. a Monte Carlo run of N uniform spins (numpy): the empirical house edge of an
   equal-weight mix of each wager kind's spots, and of the wagers not covering 0 and
   those covering 0 (the range of hold), from the settlement table's per-outcome
   returns times the outcome counts, must lie within the 99 % interval around the
   exact value from ``spot_edges`` and ``hold_range`` (± 2.576 σ / √N, σ² the exact
   per-spin variance over the 13 outcomes).

Exits 1 if the paths disagree or any group falls outside its interval. The seed is
fixed by default so a run is reproducible.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

import numpy as np

try:
    import jinzi
except ModuleNotFoundError:  # run from a checkout that is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import jinzi

Z_99 = 2.576
DEFAULT_SEED = 6178
# How often each kind is bet in the realistic mix (outside bets are the most popular).
KIND_WEIGHTS = {
    "straight": 22, "split": 10, "street": 5, "corner": 5, "three_numbers": 2,
    "column": 8, "red": 14, "black": 14, "small": 10, "big": 10,
}  # fmt: skip
BETS_PER_ROUND = 1_000


def realistic_bets(count: int, rnd: random.Random) -> list[tuple[jinzi.Wager, int]]:
    by_kind = {kind: [w for w in jinzi.legal_wagers() if w.kind == kind] for kind in KIND_WEIGHTS}
    kinds = rnd.choices(list(KIND_WEIGHTS), weights=list(KIND_WEIGHTS.values()), k=count)
    return [(rnd.choice(by_kind[kind]), 100 * rnd.randint(1, 50)) for kind in kinds]


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>14,.0f}"


def bench_settlement(bet_count: int, rnd: random.Random) -> tuple[list[str], bool]:
    bets = realistic_bets(bet_count, rnd)
    rounds = [bets[i : i + BETS_PER_ROUND] for i in range(0, len(bets), BETS_PER_ROUND)]
    outcomes = [rnd.randrange(13) for _ in rounds]
    table = jinzi.SettlementTable.for_()

    start = time.perf_counter()
    single = [
        jinzi.settle(wager, stake, outcome)
        for outcome, round_bets in zip(outcomes, rounds, strict=True)
        for wager, stake in round_bets
    ]
    single_s = time.perf_counter() - start

    start = time.perf_counter()
    batch = []
    for outcome, round_bets in zip(outcomes, rounds, strict=True):
        batch.extend(table.settle_many(outcome, round_bets))
    batch_s = time.perf_counter() - start

    index_rounds = [
        ([w.spot_index for w, _ in round_bets], [s for _, s in round_bets]) for round_bets in rounds
    ]
    start = time.perf_counter()
    columns = []
    for outcome, (spots, stakes) in zip(outcomes, index_rounds, strict=True):
        columns.extend(table.settle_columns(outcome, spots, stakes))
    columns_s = time.perf_counter() - start

    agree = single == batch == columns
    lines = [
        f"{'path':<44} {'bets/s':>14}",
        f"{'jinzi.settle, one bet at a time':<44} {rate(bet_count, single_s)}",
        f"{'SettlementTable.settle_many, (Wager, stake)':<44} {rate(bet_count, batch_s)}",
        f"{'SettlementTable.settle_columns, indices':<44} {rate(bet_count, columns_s)}",
        f"batch/single ratio: {single_s / batch_s:.1f}x "
        f"({bet_count:,} bets in rounds of {BETS_PER_ROUND:,}); "
        f"paths agree: {'yes' if agree else 'NO'}",
    ]
    return lines, agree


def realistic_rounds(count: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``count`` rounds of 1–10 bets as (spot indices, stakes: Python ints), in the
    realistic mix; drawn with numpy, since drawing them is not what is measured."""
    generator = np.random.default_rng(seed)
    spots = jinzi.legal_wagers()
    per_kind = {kind: sum(w.kind == kind for w in spots) for kind in KIND_WEIGHTS}
    weights = np.array([KIND_WEIGHTS[w.kind] / per_kind[w.kind] for w in spots])
    sizes = generator.integers(1, 11, size=count)
    total = int(sizes.sum())
    all_spots = generator.choice(len(spots), size=total, p=weights / weights.sum()).tolist()
    all_stakes = (100 * generator.integers(1, 51, size=total)).tolist()
    ends = np.cumsum(sizes).tolist()
    # Millions of new lists would set off the cyclic garbage collector again and again,
    # for nothing: they hold only ints.
    gc.disable()
    try:
        return [
            (all_spots[end - size : end], all_stakes[end - size : end])
            for size, end in zip(sizes.tolist(), ends, strict=True)
        ]
    finally:
        gc.enable()


def bench_round_moments(count: int, seed: int) -> tuple[list[str], bool]:
    rounds = realistic_rounds(count, seed)
    # The rounds' millions of lists live to the end; without this, every full collection
    # would walk them again, timing the collector rather than the moments.
    gc.freeze()
    sample = rounds[: min(count, 20_000)]
    table = jinzi.RoundMomentsTable.for_()

    start = time.perf_counter()
    totals = table.totals(rounds)
    totals_s = time.perf_counter() - start

    start = time.perf_counter()
    each = table.moments_many(sample)
    each_s = time.perf_counter() - start

    start = time.perf_counter()
    single = [jinzi.round_moments(zip(*r, strict=True)) for r in sample]
    single_s = time.perf_counter() - start

    agree = each == single and table.totals(sample) == sum(single, jinzi.RoundMoments(0, 0, 0))
    gc.unfreeze()
    bets = sum(len(spots) for spots, _ in rounds)
    sd = math.sqrt(totals.variance)
    lines = [
        f"{'path':<44} {'rounds/s':>14}",
        f"{'jinzi.round_moments, one round at a time':<44} {rate(len(sample), single_s)}",
        f"{'RoundMomentsTable.moments_many':<44} {rate(len(sample), each_s)}",
        f"{'RoundMomentsTable.totals':<44} {rate(count, totals_s)}",
        f"batch/single ratio: {single_s / len(sample) / (totals_s / count):.1f}x "
        f"({count:,} rounds, {bets:,} bets; single on the first {len(sample):,}); "
        f"paths agree: {'yes' if agree else 'NO'}",
        f"expected win {float(totals.expected_win):,.0f} ± {sd:,.0f} (1 SD) on a handle of "
        f"{totals.stake:,}: edge {jinzi.format_percent(totals.edge)}",
    ]
    return lines, agree


def bench_rng(count: int) -> list[str]:
    start = time.perf_counter()
    jinzi.spins(count)
    seconds = time.perf_counter() - start
    return [f"jinzi.spins on the OS CSPRNG: {rate(count, seconds).strip()} spins/s ({count:,})"]


def exact_mean_and_variance(returns: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
    mean = sum(returns, Fraction(0)) / len(returns)
    return mean, sum(((r - mean) ** 2 for r in returns), Fraction(0)) / len(returns)


def monte_carlo(spins: int, seed: int) -> tuple[list[str], bool]:
    generator = np.random.default_rng(seed)
    counts = np.zeros(13, dtype=np.int64)
    start = time.perf_counter()
    remaining = spins
    while remaining:
        chunk = min(remaining, 5_000_000)
        counts += np.bincount(generator.integers(0, 13, size=chunk), minlength=13)
        remaining -= chunk
    seconds = time.perf_counter() - start

    table = jinzi.SettlementTable.for_()
    by_outcome = [table.multiples(outcome) for outcome in range(13)]  # [outcome][spot]
    groups = {
        kind.label: [w.spot_index for w in table.spots if w.kind == kind]
        for kind in jinzi.WagerKind
    }
    # An equal-weight mix of spots earns the mean of their edges.
    edges = [e.edge for e in jinzi.spot_edges()]
    exact_edges = {
        label: sum((edges[i] for i in spots), Fraction(0)) / len(spots)
        for label, spots in groups.items()
    }
    hold = jinzi.hold_range()
    for label, covering, (low, high) in (
        ("Not on 0", False, hold.not_covering_zero),
        ("On 0", True, hold.covering_zero),
    ):
        assert low == high, label  # one edge per group under the minimum paytable
        groups[label] = [w.spot_index for w in table.spots if w.covers_zero is covering]
        exact_edges[label] = low

    lines = [
        f"{spins:,} spins (numpy, seed {seed}): {rate(spins, seconds).strip()} spins/s",
        f"{'wager':<14} {'exact edge':>11} {'empirical':>11} {'± 99 %':>9}  result",
    ]
    passed = True
    for label, spots in groups.items():
        # Per spin, the mean return per unit stake over the kind's spots (equal weights).
        returns = [sum((row[i] for i in spots), Fraction(0)) / len(spots) for row in by_outcome]
        mean, variance = exact_mean_and_variance(returns)
        assert 1 - mean == exact_edges[label], label
        empirical_return = float(np.dot(counts, np.array([float(r) for r in returns]))) / spins
        empirical_edge = 1 - empirical_return
        half_width = Z_99 * math.sqrt(float(variance) / spins)
        ok = abs(empirical_edge - float(exact_edges[label])) <= half_width
        passed &= ok
        lines.append(
            f"{label:<14} {float(exact_edges[label]):>11.6f} {empirical_edge:>11.6f} "
            f"{half_width:>9.6f}  {'PASS' if ok else 'FAIL'}"
        )
    spot_ok = 0
    z_family = NormalDist().inv_cdf(1 - 0.01 / (2 * jinzi.SPOT_COUNT))
    for wager in table.spots:
        returns = [row[wager.spot_index] for row in by_outcome]
        mean, variance = exact_mean_and_variance(returns)
        empirical = float(np.dot(counts, np.array([float(r) for r in returns]))) / spins
        spot_ok += abs(empirical - float(mean)) <= z_family * math.sqrt(float(variance) / spins)
    spots_pass = spot_ok == jinzi.SPOT_COUNT
    passed &= spots_pass
    lines.append(
        f"each spot within its family-wise 99 % interval (Bonferroni, z = {z_family:.2f}): "
        f"{spot_ok}/{jinzi.SPOT_COUNT}  {'PASS' if spots_pass else 'FAIL'}"
    )
    return lines, passed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=10_000_000, help="Monte Carlo spins")
    parser.add_argument("--bets", type=int, default=300_000, help="bets for throughput")
    parser.add_argument(
        "--rounds", type=int, default=1_000_000, help="rounds for the moments of a round's return"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)

    print(f"{jinzi.GAME_NAME} engine {jinzi.__version__}, Python {sys.version.split()[0]}")
    print()
    settlement_lines, agree = bench_settlement(args.bets, random.Random(args.seed))
    print("\n".join(settlement_lines))
    print()
    moments_lines, moments_agree = bench_round_moments(args.rounds, args.seed)
    print("\n".join(moments_lines))
    print()
    print("\n".join(bench_rng(1_000_000)))
    print()
    mc_lines, within = monte_carlo(args.spins, args.seed)
    print("\n".join(mc_lines))
    ok = agree and moments_agree and within
    print()
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
