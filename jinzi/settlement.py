"""Settling wagers: what the player gets back, in integer minor units.

A win returns stake × (odds + 1), a loss 0, and when 0 comes up every wager not
placed on zero returns half its stake (§ 617b.8(g)(2)).

**Reading** (reading:placed-on-zero): a wager "placed on zero" is any wager covering 0
(straight 0, splits 0-1/0-2/0-3, both three-number bets). It wins when 0 comes up
and is paid at its own paytable odds; § 617b.8(g)(1)'s "consistent with
subsection (e)" is read as (f).

**Reading** (reading:straight-zero-floor): so a straight up on 0 is paid the paytable's
straight-up odds, of which (g)(1)'s 11 to 1 is the least, never a fixed 11 to 1.

**Reading** (reading:even-stakes): stakes are positive even integers of minor units,
so the zero half-back is always exact.

**Reading** (reading:round-up): if fractional odds make stake × (odds + 1) non-integral,
the return is rounded *up* to the whole minor unit, in the player's favour, so a
payout is never below the odds approved under § 617b.8(f).

``settle`` is the plain, checked path. ``SettlementTable`` compiles one paytable
and wheel into per-outcome, per-spot multiples so that a round's bets settle in
one integer expression each; it agrees exactly with ``settle``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from jinzi.errors import InvalidStake, InvalidWager, describe_value
from jinzi.game import CLAUSE_ZERO, NUMBERS, ZERO, cite
from jinzi.paytable import MINIMUM_PAYTABLE, Paytable
from jinzi.wagers import LEGAL_WAGERS, SPOT_COUNT, SPOT_INDEX_OUT_OF_RANGE, Wager
from jinzi.wheel import STANDARD_WHEEL, Wheel, check_outcome

STAKE_MESSAGE = "stake must be a positive even integer number of minor units, got {got}"
STAKE_ODD_MESSAGE = cite(
    CLAUSE_ZERO,
    "stake must be a positive even integer number of minor units, got {got}: "
    "half of it, returned when 0 comes up, must be a whole minor unit",
)
NOT_A_WAGER = "wager must be a jinzi.Wager (see Wager.parse), got {got}"
NOT_A_PAYTABLE = "paytable must be a jinzi.Paytable (see Paytable.from_dict), got {got}"
NOT_A_WHEEL = "wheel must be a jinzi.Wheel (see Wheel.from_text), got {got}"
BETS_NOT_PAIRS = "bets must be (spot, stake) pairs"
COLUMNS_MISMATCH = "got {spots} spots but {stakes} stakes"

HALF = Fraction(1, 2)
_IS_ODD = (1).__and__
_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)


def check_stake(stake: object) -> int:
    """Return ``stake`` if it is a positive even int (bools, floats, Decimals refused)."""
    if type(stake) is not int or stake <= 0:
        raise InvalidStake(STAKE_MESSAGE.format(got=describe_value(stake)))
    if stake & 1:
        raise InvalidStake(STAKE_ODD_MESSAGE.format(got=stake), clause=CLAUSE_ZERO)
    return stake


def resolve_setup(paytable: Paytable | None, wheel: Wheel | None) -> tuple[Paytable, Wheel]:
    """Fill in the defaults (the § 617b.8(f) minimum paytable, the standard wheel)."""
    paytable = MINIMUM_PAYTABLE if paytable is None else paytable
    wheel = STANDARD_WHEEL if wheel is None else wheel
    if not isinstance(paytable, Paytable):
        raise TypeError(NOT_A_PAYTABLE.format(got=describe_value(paytable)))
    if not isinstance(wheel, Wheel):
        raise TypeError(NOT_A_WHEEL.format(got=describe_value(wheel)))
    return paytable, wheel


def unit_return(
    wager: Wager, outcome: int, *, paytable: Paytable | None = None, wheel: Wheel | None = None
) -> Fraction:
    """The multiple of the stake returned, exact and before rounding: odds + 1 on a win,
    1/2 when 0 comes up on a wager not placed on zero, else 0. The one place the rule lives."""
    if not isinstance(wager, Wager):
        raise TypeError(NOT_A_WAGER.format(got=describe_value(wager)))
    outcome = check_outcome(outcome)
    paytable, wheel = resolve_setup(paytable, wheel)
    if outcome in wager.covers(wheel):
        return paytable.odds(wager.kind) + 1  # at the paytable's posted odds (§ 617a.4)
    if outcome == ZERO:
        return HALF
    return Fraction(0)


def settle(
    wager: Wager,
    stake: int,
    outcome: int,
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
) -> int:
    """What the player gets back, in minor units, for ``stake`` on ``wager``."""
    stake = check_stake(stake)
    multiple = unit_return(wager, outcome, paytable=paytable, wheel=wheel)
    return -(-stake * multiple.numerator // multiple.denominator)


def spot_index_of(spot: object) -> int:
    if isinstance(spot, Wager):
        return spot.spot_index
    if type(spot) is int and 0 <= spot < SPOT_COUNT:
        return spot
    raise InvalidWager(SPOT_INDEX_OUT_OF_RANGE.format(got=describe_value(spot)))


def spot_indices(spots: Sequence[object]) -> Sequence[int]:
    kinds = set(map(type, spots))
    if kinds == {int} and min(spots) >= 0 and max(spots) < SPOT_COUNT:
        return spots
    if kinds == {Wager}:
        return [spot.spot_index for spot in spots]
    return [spot_index_of(spot) for spot in spots]


def check_stakes_each(stakes: Sequence[object]) -> None:
    if set(map(type, stakes)) == {int} and min(stakes) > 0 and not any(map(_IS_ODD, stakes)):
        return
    for stake in stakes:
        check_stake(stake)


@dataclass(frozen=True, slots=True, eq=False)
class SettlementTable:
    """One paytable and wheel compiled for fast settlement of many bets.

    ``multiples(outcome)[spot_index]`` is the exact multiple of the stake returned
    (``unit_return``). Bets name their spot by ``Wager`` or by its ``spot_index``.
    Use ``SettlementTable.for_(paytable, wheel)`` to share compiled tables.
    """

    paytable: Paytable = MINIMUM_PAYTABLE
    wheel: Wheel = STANDARD_WHEEL
    _multiples: tuple[tuple[Fraction, ...], ...] = field(init=False, repr=False)
    _numerators: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    _denominators: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    # Returns per half-stake; None when some odds make them fractional.
    per_half_stake: tuple[tuple[int, ...], ...] | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        paytable, wheel = resolve_setup(self.paytable, self.wheel)
        multiples = tuple(
            tuple(unit_return(w, o, paytable=paytable, wheel=wheel) for w in LEGAL_WAGERS)
            for o in NUMBERS
        )
        doubled = [[2 * m for m in row] for row in multiples]
        integral = all(d.denominator == 1 for row in doubled for d in row)
        set_ = functools.partial(object.__setattr__, self)
        set_("paytable", paytable)
        set_("wheel", wheel)
        set_("_multiples", multiples)
        set_("_numerators", tuple(tuple(m.numerator for m in row) for row in multiples))
        set_("_denominators", tuple(tuple(m.denominator for m in row) for row in multiples))
        per_half = tuple(tuple(map(int, row)) for row in doubled) if integral else None
        set_("per_half_stake", per_half)

    @classmethod
    def for_(cls, paytable: Paytable | None = None, wheel: Wheel | None = None) -> SettlementTable:
        """A shared compiled table (cached by paytable and wheel, both hashable)."""
        return _compiled(*resolve_setup(paytable, wheel))

    @property
    def spots(self) -> tuple[Wager, ...]:
        """The 52 legal wagers, in spot-index order."""
        return LEGAL_WAGERS

    def multiples(self, outcome: int) -> tuple[Fraction, ...]:
        """Per spot, the exact multiple of the stake returned when ``outcome`` comes up."""
        return self._multiples[check_outcome(outcome)]

    def settle(self, spot: Wager | int, stake: int, outcome: int) -> int:
        """One bet; same answer as ``jinzi.settle``."""
        return self.settle_columns(outcome, (spot,), (stake,))[0]

    def settle_many(self, outcome: int, bets: Iterable[tuple[Wager | int, int]]) -> list[int]:
        """Returns for ``(spot, stake)`` bets, in order, when ``outcome`` comes up."""
        bets = bets if isinstance(bets, Sequence) else list(bets)
        if not bets:
            check_outcome(outcome)
            return []
        try:
            pairs = set(map(len, bets)) == {2}
        except TypeError:
            pairs = False
        if not pairs:
            raise TypeError(BETS_NOT_PAIRS)
        spots = list(map(_FIRST, bets))
        stakes = list(map(_SECOND, bets))
        return self.settle_columns(outcome, spots, stakes)

    def settle_columns(
        self, outcome: int, spots: Sequence[Wager | int], stakes: Sequence[int]
    ) -> list[int]:
        """Like ``settle_many`` with the spots and stakes given as two sequences."""
        outcome = check_outcome(outcome)
        if len(spots) != len(stakes):
            raise ValueError(COLUMNS_MISMATCH.format(spots=len(spots), stakes=len(stakes)))
        if not spots:
            return []
        indices = spot_indices(spots)
        check_stakes_each(stakes)
        if self.per_half_stake is not None:
            per_half = self.per_half_stake[outcome]
            return [(s >> 1) * per_half[i] for i, s in zip(indices, stakes, strict=True)]
        nums, dens = self._numerators[outcome], self._denominators[outcome]
        return [-(-s * nums[i] // dens[i]) for i, s in zip(indices, stakes, strict=True)]


@functools.lru_cache(maxsize=64)
def _compiled(paytable: Paytable, wheel: Wheel) -> SettlementTable:
    return SettlementTable(paytable, wheel)
