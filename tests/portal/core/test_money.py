"""Money read in dollars, exactly, the same on every page: one ``dollars`` for the portal."""

from __future__ import annotations

from decimal import Decimal

import pytest

from portal.core.money import MINUS_SIGN, cents_of, dollars, typed


@pytest.mark.parametrize(
    ("cents", "shown"),
    [
        (0, "$0.00"),
        (5, "$0.05"),
        (250, "$2.50"),
        (12345, "$123.45"),
        (100_000, "$1,000.00"),
        (123_456_789, "$1,234,567.89"),
        (-100, "-$1.00"),
        (-125_050, "-$1,250.50"),
        ("12345", "$123.45"),  # a stored amount read back as text
        (None, ""),
        ("", ""),
    ],
)
def test_dollars_reads_cents_exactly(cents, shown):
    assert dollars(cents) == shown


def test_dollars_with_the_typeset_minus_sign():
    assert dollars(-100, minus=MINUS_SIGN) == "−$1.00"
    assert dollars(-125_050, minus=MINUS_SIGN) == "−$1,250.50"
    assert dollars(125_050, minus=MINUS_SIGN) == "$1,250.50"
    assert dollars(None, minus=MINUS_SIGN) == ""


@pytest.mark.parametrize("cents", [0, 1, 99, 100, 101, 99_999, 100_000, 10**11 + 7])
def test_dollars_reads_as_a_decimal_amount_would(cents):
    """As the rules pages read a listing's amounts before they shared this one."""
    assert dollars(cents) == f"${Decimal(cents) / 100:,.2f}"


@pytest.mark.parametrize("cents", [0, 250, 100_000, 123_456_789])
def test_an_amount_typed_back_reads_the_same_cents(cents):
    assert cents_of(typed(cents)) == cents
    assert cents_of(dollars(cents)) == cents


def test_typed_has_no_dollar_sign_or_separators():
    assert typed(100_000) == "1000.00"
    assert typed(-250) == "-2.50"
