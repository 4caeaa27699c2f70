"""reading:straight-zero-floor: the 11 to 1 that § 617b.8(g)(1) pays a straight up on 0 is
the least it pays, the minimum § 617b.8(f) sets for every straight up. A paytable that pays
straight ups more pays a straight 0 that much when 0 comes up, too."""

from fractions import Fraction

import pytest

from jinzi import Paytable, SettlementTable, Wager, settle

MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip
ZERO = Wager("straight", (0,))


@pytest.mark.parametrize(("odds", "paid"), [(11, 1200), (12, 1300), (Fraction(35, 3), 1267)])
def test_reading_straight_zero_floor_a_straight_0_is_paid_what_any_straight_up_is(odds, paid):
    paytable = Paytable({**MINIMUM, "straight": odds})

    # 100 × (odds + 1), rounded up where the odds are fractional (reading:round-up).
    assert settle(ZERO, 100, 0, paytable=paytable) == paid
    assert settle(Wager("straight", (7,)), 100, 7, paytable=paytable) == paid
    assert SettlementTable(paytable).settle(ZERO, 100, 0) == paid


def test_617b8_g_1_the_minimum_paytable_pays_a_straight_0_exactly_11_to_1():
    assert settle(ZERO, 100, 0, paytable=Paytable.minimum()) == 1200
