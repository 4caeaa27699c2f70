"""A paytable's PAR sheet: per wager kind, split by whether it covers 0, the probabilities of
a win, of zero's half-back (§ 617b.8(g)(2)) and of a loss; the pay as paid over the allowed
stakes (rounded up, reading:round-up), the return to player and the house edge as paid, the
hit frequency and the standard deviation per unit staked; then the hold to expect over a
number of rounds of a betting mix, with its 95 % band.

Everything is exact (``Fraction``) but the standard deviations and the bands, which are
square roots: ``Decimal`` at ``PRECISION`` significant digits. The edges and pays come from
``jinzi.edge`` (the lowest and highest over the stakes, each paid through ``jinzi.settle``),
the round's moments from ``jinzi.hold``: the sheet adds no game maths of its own.

A line's standard deviation is the spread of one spin's return per unit staked at the odds'
own returns (before round-up); a mix's band is built from the exact variance of each round's
return as paid at its stakes, since a round's bets share one outcome.
"""

from __future__ import annotations

import decimal
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from jinzi.edge import EVERY_EVEN_STAKE, Stakes, highest_edge, lowest_edge, return_variance
from jinzi.game import WHEEL_SIZE
from jinzi.hold import round_moments
from jinzi.paytable import Paytable
from jinzi.settlement import resolve_setup, settle
from jinzi.stats import REVIEW_Z
from jinzi.wagers import LEGAL_WAGERS, Wager, WagerKind
from jinzi.wheel import Wheel

PRECISION = 12  # significant digits of a square root
PERIODS = (1_000, 10_000, 100_000, 1_000_000)  # rounds the expected hold is given for
DEFAULT_MIX = "one unit on every spot"  # as the sheet states it

_CONTEXT = decimal.Context(prec=PRECISION, rounding=decimal.ROUND_HALF_EVEN)


_WORKING = decimal.Context(prec=PRECISION + 20, rounding=decimal.ROUND_HALF_EVEN)


def decimal_sqrt(value: Fraction) -> decimal.Decimal:
    """The square root of an exact value, rounded to ``PRECISION`` significant digits (worked
    with 20 guard digits, so the last digit shown is the correctly rounded one)."""
    quotient = _WORKING.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator))
    return _CONTEXT.plus(_WORKING.sqrt(quotient))


@dataclass(frozen=True)
class ParLine:
    """One wager kind, covering 0 or not, over the allowed stakes."""

    kind: WagerKind
    covers_zero: bool
    spots: int  # how many of the 52 spots
    numbers: int  # how many outcomes win it
    odds: Fraction
    win: Fraction  # probability of a win
    half_back: Fraction  # probability of zero's half-back (§ 617b.8(g)(2))
    loss: Fraction
    pay: tuple[Fraction, Fraction]  # lowest, highest pay per unit staked on a win, as paid
    pay_stakes: tuple[int, int]  # the smallest stake paying each
    edge: tuple[Fraction, Fraction]  # lowest, highest house edge as paid
    variance: Fraction  # of one spin's return per unit staked, at the odds' own returns

    @property
    def return_to_player(self) -> tuple[Fraction, Fraction]:
        """Lowest and highest, as paid: 1 − the edge."""
        return 1 - self.edge[1], 1 - self.edge[0]

    @property
    def hit(self) -> Fraction:
        """How often it wins."""
        return self.win

    @property
    def hit_or_half(self) -> Fraction:
        """How often it wins or gets half back."""
        return self.win + self.half_back

    @property
    def standard_deviation(self) -> decimal.Decimal:
        return decimal_sqrt(self.variance)


def _pay(wager: Wager, stake: int, paytable: Paytable, wheel: Wheel) -> Fraction:
    """What a win pays per unit staked at ``stake``, rounded up as paid (the return less the
    stake, over the stake)."""
    winning = min(wager.covers(wheel))
    return Fraction(settle(wager, stake, winning, paytable=paytable, wheel=wheel) - stake, stake)


def par_lines(
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    *,
    stakes: Stakes = EVERY_EVEN_STAKE,
) -> tuple[ParLine, ...]:
    """The sheet's lines, in the paytable's order of kinds, the spots not covering 0 first.
    Spots of one line differ only by which numbers they cover, so they share every figure
    (red and black included, each covering six numbers of the wheel)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    groups: dict[tuple[WagerKind, bool], list[Wager]] = {}
    for wager in LEGAL_WAGERS:
        groups.setdefault((wager.kind, wager.covers_zero), []).append(wager)
    lines = []
    order = list(WagerKind)
    for (kind, zero), wagers in sorted(
        groups.items(), key=lambda g: (order.index(g[0][0]), g[0][1])
    ):
        first = wagers[0]
        numbers = len(first.covers(wheel))
        win = Fraction(numbers, WHEEL_SIZE)
        half = Fraction(0) if zero else Fraction(1, WHEEL_SIZE)
        low = lowest_edge(first, stakes, paytable=paytable, wheel=wheel)
        high = highest_edge(first, stakes, paytable=paytable, wheel=wheel)
        lines.append(
            ParLine(
                kind=kind,
                covers_zero=zero,
                spots=len(wagers),
                numbers=numbers,
                odds=paytable.odds(kind),
                win=win,
                half_back=half,
                loss=1 - win - half,
                # The lowest edge pays the most; the highest edge the least.
                pay=(
                    _pay(first, high.stake, paytable, wheel),
                    _pay(first, low.stake, paytable, wheel),
                ),
                pay_stakes=(high.stake, low.stake),
                edge=(low.edge, high.edge),
                variance=return_variance(first, paytable=paytable, wheel=wheel),
            )
        )
    return tuple(lines)


@dataclass(frozen=True)
class HoldForecast:
    """The hold to expect over ``rounds`` rounds of one mix of bets, and its 95 % band."""

    rounds: int
    handle: int  # minor units staked over the rounds
    expected_win: Fraction  # minor units
    win_sd: decimal.Decimal  # minor units

    @property
    def expected_hold(self) -> Fraction:
        return self.expected_win / self.handle

    @property
    def band(self) -> tuple[decimal.Decimal, decimal.Decimal]:
        """The hold's 95 % band: expected ± 1.96 × SD of the win, over the handle."""
        expected = _CONTEXT.divide(
            decimal.Decimal(self.expected_hold.numerator),
            decimal.Decimal(self.expected_hold.denominator),
        )
        spread = _CONTEXT.divide(
            _CONTEXT.multiply(decimal.Decimal(str(REVIEW_Z)), self.win_sd),
            decimal.Decimal(self.handle),
        )
        return _CONTEXT.subtract(expected, spread), _CONTEXT.add(expected, spread)


def default_mix(stakes: Stakes = EVERY_EVEN_STAKE) -> tuple[tuple[Wager, int], ...]:
    """One unit on every spot: the lowest allowed stake on each of the 52."""
    return tuple((wager, stakes.lowest) for wager in LEGAL_WAGERS)


def hold_forecast(
    mix: Iterable[tuple[Wager, int]],
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    periods: Sequence[int] = PERIODS,
) -> tuple[HoldForecast, ...]:
    """The expected hold of ``mix`` (bets of one round, settled as paid) over each number of
    independent rounds in ``periods``, with its 95 % band."""
    moments = round_moments(list(mix), paytable=paytable, wheel=wheel)
    mean_return = Fraction(moments.mean_return_x13, WHEEL_SIZE)
    variance = Fraction(moments.variance_x169, WHEEL_SIZE * WHEEL_SIZE)
    return tuple(
        HoldForecast(
            rounds=n,
            handle=n * moments.stake,
            expected_win=n * (moments.stake - mean_return),
            win_sd=decimal_sqrt(n * variance),
        )
        for n in periods
    )


__all__ = [
    "DEFAULT_MIX",
    "PERIODS",
    "PRECISION",
    "HoldForecast",
    "ParLine",
    "decimal_sqrt",
    "default_mix",
    "hold_forecast",
    "par_lines",
]
