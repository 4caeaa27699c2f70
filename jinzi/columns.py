"""Settlement and round moments for a block of many rounds at once, as NumPy columns.

The same maths as ``SettlementTable.settle_columns`` and ``RoundMomentsTable.moments``,
vectorised over a block: the audit report re-settles millions of recorded bets with it.
Each return is the stake times the table's exact multiple, rounded up to the cent where
the odds make it fractional (reading:round-up), in integer arithmetic. A round large
enough that its 13 outcome sums, squared and added, could leave 64-bit integers (``fits``)
is for the exact path: every figure here is an exact integer.

Stakes are even and positive (the caller checks: a stake no table takes goes to the exact
path, which says why it cannot be settled).

NumPy is imported here only: the rest of ``jinzi`` needs nothing beyond the standard
library.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jinzi.game import WHEEL_SIZE
from jinzi.settlement import SettlementTable
from jinzi.wagers import SPOT_COUNT

# A round's summed return per outcome stays below this, so 13 × Σ R² and (Σ R)² stay below
# 2**63: (13 × 2**27)**2 < 2**61.5.
_ROUND_LIMIT = 1 << 27
_PRODUCT_LIMIT = float(1 << 60)  # a stake times a numerator, before the division


class BlockTables:
    """Several compiled tables, indexed 0..T-1 as the block's rounds name them."""

    def __init__(self, tables: Sequence[SettlementTable]) -> None:
        count = max(len(tables), 1)
        shape = (count, WHEEL_SIZE, SPOT_COUNT)
        numerators = np.zeros(shape, dtype=np.int64)
        denominators = np.ones(shape, dtype=np.int64)
        for index, table in enumerate(tables):
            numerators[index] = np.array(table._numerators, dtype=np.int64)
            denominators[index] = np.array(table._denominators, dtype=np.int64)
        # [table, outcome, spot]: the exact multiple of the stake returned, as a fraction.
        self.numerators, self.denominators = numerators, denominators
        self.largest_numerator = numerators.max(axis=(1, 2))  # per table
        self.largest_multiple = (numerators / denominators).max(axis=(1, 2))

    def fits(self, table: np.ndarray, stakes: np.ndarray, largest_stake: np.ndarray) -> np.ndarray:
        """Per round (its table, the sum of its stakes and its largest stake): whether it
        can be settled, and its moments taken, here exactly."""
        returns = stakes * self.largest_multiple[table] + WHEEL_SIZE * 4 * SPOT_COUNT
        products = largest_stake.astype(np.float64) * self.largest_numerator[table]
        return (returns < _ROUND_LIMIT) & (products < _PRODUCT_LIMIT)

    def returns(
        self, table: np.ndarray, outcome: np.ndarray, spot: np.ndarray, stake: np.ndarray
    ) -> np.ndarray:
        """Per bet (its round's table and outcome, its spot index and stake): the amount
        returned, as ``settle_columns`` pays it (rounded up to the cent, reading:round-up)."""
        at = (table, outcome, spot)
        return -((-stake * self.numerators[at]) // self.denominators[at])

    def moments(
        self, table: np.ndarray, spot: np.ndarray, stake: np.ndarray, starts: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per round, its ``RoundMoments``' (13 × mean, 169 × variance) of the return:
        ``table``, ``spot`` and ``stake`` per bet, the bets of a round together, and
        ``starts`` the index of each round's first bet (every round has one)."""
        numerators = self.numerators[table, :, spot]
        denominators = self.denominators[table, :, spot]
        per_outcome = -((-stake[:, None] * numerators) // denominators)
        sums = np.add.reduceat(per_outcome, starts, axis=0)
        mean_x13 = sums.sum(axis=1)
        variance_x169 = WHEEL_SIZE * (sums * sums).sum(axis=1) - mean_x13 * mean_x13
        return mean_x13, variance_x169
