"""The audit report's values: how it keys a group of rounds and the odds they recorded, and
its exact figures written as text (expected wins and standard
deviations are not whole cents, so the report gives them as decimal strings in cents, to
1/10,000 of a cent)."""

from __future__ import annotations

import decimal
from fractions import Fraction

import jinzi
from jinzi.stats import REVIEW_Z

GroupKey = tuple[int, int, int]  # offering pk, paytable pk, paytable version
PLACES = decimal.Decimal("0.0001")
_CONTEXT = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN)


def odds_key(odds: dict) -> tuple[tuple[str, str], ...]:
    """Recorded odds as a key (the same odds, however their JSON was ordered)."""
    return tuple(sorted((str(kind), str(value)) for kind, value in odds.items()))


def decimal_text(value: Fraction | int) -> str:
    """``value`` rounded half-even to 4 decimal places (an error below 0.00005 cent)."""
    value = Fraction(value)
    quotient = _CONTEXT.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator))
    return str(quotient.quantize(PLACES, context=_CONTEXT))


def sqrt_text(value: Fraction | int) -> str:
    """The square root of ``value`` (a variance), to 4 decimal places."""
    value = Fraction(value)
    if value <= 0:
        return str(decimal.Decimal(0).quantize(PLACES))
    root = _CONTEXT.sqrt(
        _CONTEXT.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator))
    )
    return str(root.quantize(PLACES, context=_CONTEXT))


def ratio(numerator: Fraction | int, denominator: int) -> float | None:
    """A share (hold %, as a fraction 0.04 = 4 %); None when nothing was staked."""
    return float(Fraction(numerator) / denominator) if denominator else None


def band_text(
    expected_win: Fraction | int, variance: Fraction | int, handle: int, win: int
) -> dict:
    """The band a fair period's win keeps to 95 % of the time, E ± 1.96 SD
    (``jinzi.fair_band``, from E and SD as the report writes them), in cents to 4 places, as
    hold (a fraction of the handle; None when nothing was staked), and whether the win
    ``win`` lies inside it: {"z", "low", "high", "hold_low", "hold_high", "inside"}."""
    low, high = jinzi.fair_band(Fraction(decimal_text(expected_win)), Fraction(sqrt_text(variance)))
    return {
        "z": REVIEW_Z,
        "low": decimal_text(low),
        "high": decimal_text(high),
        "hold_low": float(_decimal(low) / handle) if handle else None,
        "hold_high": float(_decimal(high) / handle) if handle else None,
        "inside": bool(low <= win <= high),
    }


def _decimal(value: Fraction) -> decimal.Decimal:
    """A band's end as a Decimal: exact (E and SD have 4 places, z two)."""
    return _CONTEXT.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator))
