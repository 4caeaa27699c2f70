"""Exact mean and variance of what one round returns, for the hold statistics of reports.

reading:expected-win: the expected win of a period is the sum, over its rounds, of stake
minus mean return, and its standard deviation comes from each round's variance. The
bets of one round share one outcome (red + black in one round nearly cancel), so the
variance is that of the round's total return over the 13 equally likely outcomes of
§ 617b.8(c), never a sum of per-bet variances. Rounds are independent, so means and
variances of different rounds add.

Returns are what ``jinzi.settle`` pays (whole minor units, rounded up where
fractional odds need it), so the figures are those of the money actually paid.
Because returns are integers and each outcome has probability 1/13, 13 × mean and
169 × variance are integers: ``RoundMoments`` keeps those and gives the fractions on
demand, which keeps the batch form in integer arithmetic.

``round_moments`` is the plain, checked path. ``RoundMomentsTable`` compiles one
paytable and wheel for millions of rounds and agrees exactly with it. ``fair_band`` is the
band a fair period's figure keeps to 95 % of the time, E ± 1.96 SD.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from jinzi.game import NUMBERS, WHEEL_SIZE
from jinzi.paytable import MINIMUM_PAYTABLE, Paytable
from jinzi.settlement import (
    COLUMNS_MISMATCH,
    SettlementTable,
    check_stakes_each,
    resolve_setup,
    settle,
    spot_index_of,
    spot_indices,
)
from jinzi.stats import REVIEW_Z
from jinzi.wagers import LEGAL_WAGERS, SPOT_COUNT, Wager
from jinzi.wheel import STANDARD_WHEEL, Wheel

# The batch form adds up a round's 13 returns at once by packing them into one int,
# 64 bits an outcome; a return must fit its field or it would spill into the next.
_FIELD_BITS = 64
_FIELD_LIMIT = 1 << _FIELD_BITS
_UNPACK = struct.Struct(f"<{WHEEL_SIZE}Q").unpack
_PACKED_BYTES = WHEEL_SIZE * _FIELD_BITS // 8


@dataclass(frozen=True, slots=True)
class RoundMoments:
    """Total stake, mean and variance of the amount returned, in minor units.

    Kept as integers (13 × mean, 169 × variance) so that summing millions of rounds
    stays exact and cheap; ``a + b`` is the moments of two independent rounds together,
    which is how a period's figures are built.
    """

    stake: int
    mean_return_x13: int
    variance_x169: int

    @classmethod
    def of_returns(cls, stake: int, returns: Sequence[int]) -> RoundMoments:
        """From the round's return on each of the 13 outcomes, 0 to 12 in order."""
        return cls(*_scaled_moments(stake, returns))

    @property
    def mean_return(self) -> Fraction:
        return Fraction(self.mean_return_x13, WHEEL_SIZE)

    @property
    def variance(self) -> Fraction:
        return Fraction(self.variance_x169, WHEEL_SIZE * WHEEL_SIZE)

    @property
    def expected_win(self) -> Fraction:
        """The house's mean win: stake − mean return (E of reading:expected-win)."""
        return self.stake - self.mean_return

    @property
    def edge(self) -> Fraction | None:
        """Expected win per unit staked; None when nothing was staked."""
        return self.expected_win / self.stake if self.stake else None

    def __add__(self, other: RoundMoments) -> RoundMoments:
        if not isinstance(other, RoundMoments):
            return NotImplemented
        return RoundMoments(
            self.stake + other.stake,
            self.mean_return_x13 + other.mean_return_x13,
            self.variance_x169 + other.variance_x169,
        )


def fair_band(expected, sd, per: int = 1, *, z: float = REVIEW_Z) -> tuple:
    """The band a fair period's figure keeps to 95 % of the time: ``expected`` ± z·SD, z
    being the hold check's "review" z (``REVIEW_Z``, 1.96): (low, high).

    ``per``: the figure is a share of it (a hold: the win over the handle), ``expected``
    given as that share already and ``sd`` as the win's, so the spread is z·SD/``per``.
    Computed in the numbers given: floats stay floats, and with a ``Fraction`` SD the band
    is exact (z taken as written, 1.96 = 49/25)."""
    if isinstance(sd, Fraction):
        z = Fraction(str(z))
    spread = z * sd / per
    return expected - spread, expected + spread


def _scaled_moments(stake: int, returns: Sequence[int]) -> tuple[int, int, int]:
    total = sum(returns)
    # 13 × mean = ΣR, and 169 × variance = 169 × (E[R²] − E[R]²) = 13 × ΣR² − (ΣR)².
    return stake, total, WHEEL_SIZE * sum(map(operator.mul, returns, returns)) - total**2


def round_moments(
    bets: Iterable[tuple[Wager | int, int]],
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
) -> RoundMoments:
    """Moments of one round's return: every bet settled with ``jinzi.settle`` on each
    of the 13 outcomes. Bets name their spot by ``Wager`` or by its ``spot_index``."""
    paytable, wheel = resolve_setup(paytable, wheel)
    bets = [(LEGAL_WAGERS[spot_index_of(spot)], stake) for spot, stake in bets]
    returns = [
        sum(settle(w, s, o, paytable=paytable, wheel=wheel) for w, s in bets) for o in NUMBERS
    ]
    return RoundMoments.of_returns(sum(s for _, s in bets), returns)


@dataclass(frozen=True, slots=True, eq=False)
class RoundMomentsTable:
    """One paytable and wheel compiled for the moments of many rounds.

    A round is a ``(spots, stakes)`` pair of sequences, spots as ``Wager`` or
    ``spot_index``, as ``SettlementTable.settle_columns`` takes them. Use
    ``RoundMomentsTable.for_(paytable, wheel)`` to share compiled tables.
    """

    paytable: Paytable = MINIMUM_PAYTABLE
    wheel: Wheel = STANDARD_WHEEL
    _settlement: SettlementTable = field(init=False, repr=False)
    # Per spot, its return per half-stake on the 13 outcomes packed into one int (see
    # _FIELD_BITS); None when fractional odds make returns round, so not linear in stake.
    _packed: tuple[int, ...] | None = field(init=False, repr=False)
    _largest: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        settlement = SettlementTable.for_(self.paytable, self.wheel)
        per_half = settlement.per_half_stake  # [outcome][spot], compiled once there
        packed, largest = None, 0
        if per_half is not None:
            packed = tuple(
                sum(per_half[o][i] << (_FIELD_BITS * o) for o in NUMBERS) for i in range(SPOT_COUNT)
            )
            largest = max(map(max, per_half))
        set_ = functools.partial(object.__setattr__, self)
        set_("paytable", settlement.paytable)
        set_("wheel", settlement.wheel)
        set_("_settlement", settlement)
        set_("_packed", packed)
        set_("_largest", largest)

    @classmethod
    def for_(
        cls, paytable: Paytable | None = None, wheel: Wheel | None = None
    ) -> RoundMomentsTable:
        """A shared compiled table (cached by paytable and wheel, both hashable)."""
        return _compiled(*resolve_setup(paytable, wheel))

    def moments(self, spots: Sequence[Wager | int], stakes: Sequence[int]) -> RoundMoments:
        """One round; same answer as ``round_moments``."""
        return RoundMoments(*self._scaled(spots, stakes))

    def moments_many(
        self, rounds: Iterable[tuple[Sequence[Wager | int], Sequence[int]]]
    ) -> list[RoundMoments]:
        """Each round's moments, in order."""
        return [RoundMoments(*self._scaled(spots, stakes)) for spots, stakes in rounds]

    def totals(self, rounds: Iterable[tuple[Sequence[Wager | int], Sequence[int]]]) -> RoundMoments:
        """The moments of all ``rounds`` together: stakes, means and variances summed
        (the rounds are independent), without building a result per round."""
        stake = mean_x13 = variance_x169 = 0
        for spots, stakes in rounds:
            s, m, v = self._scaled(spots, stakes)
            stake += s
            mean_x13 += m
            variance_x169 += v
        return RoundMoments(stake, mean_x13, variance_x169)

    def _scaled(self, spots: Sequence[Wager | int], stakes: Sequence[int]) -> tuple[int, int, int]:
        if len(spots) != len(stakes):
            raise ValueError(COLUMNS_MISMATCH.format(spots=len(spots), stakes=len(stakes)))
        if not spots:
            return 0, 0, 0
        indices = spot_indices(spots)
        check_stakes_each(stakes)
        stake = sum(stakes)
        if self._packed is None or (stake >> 1) * self._largest >= _FIELD_LIMIT:
            returns = [sum(self._settlement.settle_columns(o, indices, stakes)) for o in NUMBERS]
        else:
            # Stakes are even (checked), so half of each times its per-half returns is exact;
            # every field stays below 2**64, so the 13 sums come apart unchanged.
            halves = [s >> 1 for s in stakes]
            packed = sum(map(operator.mul, halves, map(self._packed.__getitem__, indices)))
            returns = _UNPACK(packed.to_bytes(_PACKED_BYTES, "little"))
        return _scaled_moments(stake, returns)


@functools.lru_cache(maxsize=64)
def _compiled(paytable: Paytable, wheel: Wheel) -> RoundMomentsTable:
    return RoundMomentsTable(paytable, wheel)
