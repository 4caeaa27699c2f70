"""The statistics an audit report runs on a period's play (reading:expected-win).

- ``outcome_chi_square``: whether the 13 outcomes came up equally often, as § 810a.5 asks of
  the RNG (independent, uniformly distributed): Pearson's statistic, exact as a Fraction,
  and its p-value with 12 degrees of freedom.
- ``hold_check``: the period's win W against its expected win E and standard deviation SD
  (``jinzi.round_moments``, which knows that a round's bets share one outcome): z, and a
  flag: "review" outside E ± 1.96 SD, "exception" beyond ± 3.29 SD, "low volume" under
  ``LOW_VOLUME_ROUNDS`` rounds, whatever z says.

**Reading** (reading:low-volume): where we draw "low volume". W is a sum of per-round
results, and the band treats it as normal. A straight-up bet's return is strongly skewed (it
pays 11 to 1 one time in 13), so the normal approximation needs rounds: by the Berry–Esseen
bound its tail probabilities can be off by up to about 0.5 × skewness / √n. At 1,000 rounds
that is about 0.05 for a period of straight-up bets only; below it a "review" would be mostly
noise. So under 1,000 rounds the check is reported, but flagged "low volume" rather than judged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from jinzi.errors import JinziError
from jinzi.game import WHEEL_SIZE

REVIEW_Z = 1.96  # outside E ± 1.96 SD: 5 % of fair periods, worth a look
EXCEPTION_Z = 3.29  # beyond ± 3.29 SD: 0.1 % of fair periods
LOW_VOLUME_ROUNDS = 1_000
CHI_SQUARE_ALARM = 0.01  # flag the outcome counts when p < 0.01

COUNTS_WRONG = "outcome counts are 13 whole numbers, one per number 0–12, not negative; got {got}"
EVEN_DEGREES = "the p-value here is exact for an even number of degrees of freedom; got {got}"
VARIANCE_NEGATIVE = "a variance cannot be negative; got {got}"


@dataclass(frozen=True)
class ChiSquare:
    statistic: Fraction
    degrees_of_freedom: int
    p_value: float

    @property
    def alarm(self) -> bool:
        """The counts are less even than 1 fair wheel in 100 would give."""
        return self.p_value < CHI_SQUARE_ALARM


def chi_square_p(statistic: Fraction | float, degrees_of_freedom: int) -> float:
    """P(X ≥ statistic) for X chi-square with an even number k of degrees of freedom.

    For even k the upper tail has a closed form: with m = k/2 and x = statistic/2,
    Q = e^(-x) · Σ_{i<m} x^i / i!, a finite sum, so no approximation is needed.
    """
    if type(degrees_of_freedom) is not int or degrees_of_freedom <= 0 or degrees_of_freedom % 2:
        raise JinziError(EVEN_DEGREES.format(got=degrees_of_freedom))
    x = float(statistic) / 2
    term, total = 1.0, 1.0
    for i in range(1, degrees_of_freedom // 2):
        term *= x / i
        total += term
    return min(1.0, math.exp(-x) * total)


def outcome_chi_square(counts: Sequence[int]) -> ChiSquare:
    """Pearson's chi-square of the 13 outcome counts against 1/13 each (12 degrees of freedom)."""
    if len(counts) != WHEEL_SIZE or any(type(c) is not int or c < 0 for c in counts):
        raise JinziError(COUNTS_WRONG.format(got=list(counts)))
    total = sum(counts)
    if total == 0:
        return ChiSquare(Fraction(0), WHEEL_SIZE - 1, 1.0)
    expected = Fraction(total, WHEEL_SIZE)
    statistic = sum(((count - expected) ** 2 / expected for count in counts), Fraction(0))
    return ChiSquare(statistic, WHEEL_SIZE - 1, chi_square_p(statistic, WHEEL_SIZE - 1))


@dataclass(frozen=True)
class HoldCheck:
    win: int
    expected_win: Fraction
    sd: float
    z: float | None  # None when SD is 0 (no play, or nothing could vary)
    flag: str  # "ok", "review", "exception" or "low volume"


def hold_check(*, win: int, expected_win: Fraction, variance: Fraction, rounds: int) -> HoldCheck:
    """W against E ± SD, for a period of ``rounds`` rounds (see the module's reading); a
    negative variance, which no period can have, is refused."""
    if variance < 0:
        raise JinziError(VARIANCE_NEGATIVE.format(got=variance))
    sd = math.sqrt(variance)
    z = float((win - expected_win) / Fraction(sd)) if sd else None
    if rounds < LOW_VOLUME_ROUNDS or z is None:
        flag = "low volume"
    elif abs(z) > EXCEPTION_Z:
        flag = "exception"
    elif abs(z) > REVIEW_Z:
        flag = "review"
    else:
        flag = "ok"
    return HoldCheck(win, expected_win, sd, z, flag)
