"""Block settlement (``jinzi.columns``): many rounds at once, as NumPy columns, paying and
measuring exactly what the round-at-a-time tables pay and measure."""

from __future__ import annotations

import numpy as np

import jinzi
from jinzi.columns import BlockTables


def test_617b8_f_block_settlement_pays_what_settle_columns_pays_on_every_spot_and_outcome():
    generous = jinzi.Paytable.of({**jinzi.Paytable(jinzi.MINIMUM_ODDS).as_dict(), "split": "16/3"})
    tables = [jinzi.SettlementTable.for_(), jinzi.SettlementTable.for_(generous)]
    block = BlockTables(tables)
    rng = np.random.default_rng(26)
    count = 5_000
    table = rng.integers(0, 2, count)
    outcome = rng.integers(0, 13, count)
    spot = rng.integers(0, 52, count)
    stake = rng.integers(1, 5_000, count) * 2

    paid = block.returns(table, outcome, spot, stake)

    for i in range(count):
        expected = tables[table[i]].settle_columns(int(outcome[i]), [int(spot[i])], [int(stake[i])])
        assert paid[i] == expected[0]


def test_617b8_g_block_moments_are_the_exact_moments_of_each_round():
    generous = jinzi.Paytable.of({**jinzi.Paytable(jinzi.MINIMUM_ODDS).as_dict(), "split": "16/3"})
    tables = [jinzi.SettlementTable.for_(), jinzi.SettlementTable.for_(generous)]
    moments = [jinzi.RoundMomentsTable.for_(t.paytable, t.wheel) for t in tables]
    block = BlockTables(tables)
    rng = np.random.default_rng(617)
    sizes = rng.integers(1, 12, 300)
    round_table = rng.integers(0, 2, len(sizes))
    spot = rng.integers(0, 52, sizes.sum())
    stake = rng.integers(1, 500, sizes.sum()) * 2
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    table = np.repeat(round_table, sizes)

    mean_x13, variance_x169 = block.moments(table, spot, stake, starts)

    for r, (lo, n) in enumerate(zip(starts.tolist(), sizes.tolist(), strict=True)):
        exact = moments[round_table[r]].moments(
            spot[lo : lo + n].tolist(), stake[lo : lo + n].tolist()
        )
        assert (mean_x13[r], variance_x169[r]) == (exact.mean_return_x13, exact.variance_x169)
    assert block.fits(round_table, np.full(len(sizes), 1 << 40), np.full(len(sizes), 2)).sum() == 0
