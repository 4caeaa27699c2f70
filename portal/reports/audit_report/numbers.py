"""Exact figures written as text: expected wins and standard deviations are not whole
cents, so the report gives them as decimal strings in cents, to 1/10,000 of a cent."""

from __future__ import annotations

import decimal
from fractions import Fraction

PLACES = decimal.Decimal("0.0001")
_CONTEXT = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN)


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
