"""The PAR sheet (``jinzi.par``) against figures worked by hand for the § 617b.8(f) minimum
paytable, and its round-up on a generous one (reading:round-up)."""

from __future__ import annotations

import decimal
from fractions import Fraction

import pytest

from jinzi import Paytable, Stakes, WagerKind
from jinzi.par import DEFAULT_MIX, PERIODS, decimal_sqrt, default_mix, hold_forecast, par_lines
from jinzi.paytable import MINIMUM_PAYTABLE

K = WagerKind
F = Fraction


def line(lines, kind, zero=False):
    return next(x for x in lines if x.kind is kind and x.covers_zero is zero)


@pytest.mark.clause("617b.8(g)(2)", kind="related")
def test_617b8_g_the_minimum_paytables_sheet_is_the_one_worked_by_hand():
    lines = par_lines(MINIMUM_PAYTABLE)

    # By hand: a straight up on 1-12 wins 1/13 (pays 11), gets half back 1/13 (0 wins),
    # loses 11/13; return 12/13 + 1/26 = 25/26, edge 1/26. Its returns per unit are 12, 1/2
    # and 0: E[R²] = (144 + 1/4)/13 = 577/52, variance 577/52 − (25/26)² = 1719/169.
    straight = line(lines, K.STRAIGHT)
    assert (straight.spots, straight.numbers, straight.odds) == (12, 1, 11)
    assert (straight.win, straight.half_back, straight.loss) == (F(1, 13), F(1, 13), F(11, 13))
    assert straight.pay == (11, 11) and straight.edge == (F(1, 26), F(1, 26))
    assert straight.return_to_player == (F(25, 26), F(25, 26))
    assert (straight.hit, straight.hit_or_half) == (F(1, 13), F(2, 13))
    assert straight.variance == F(1719, 169)
    # √1719 / 13 = 3.189294221788…, to 12 significant digits:
    assert straight.standard_deviation == decimal.Decimal("3.18929422179")

    # The straight on 0 covers 0: no half back; returns 12 and 0, variance 1728/169.
    zero = line(lines, K.STRAIGHT, zero=True)
    assert (zero.spots, zero.half_back, zero.loss) == (1, 0, F(12, 13))
    assert zero.edge == (F(1, 13), F(1, 13)) and zero.variance == F(1728, 169)

    # Red: six numbers at 1 to 1, half back on 0: return 12/13 + 1/26, edge 1/26.
    red = line(lines, K.RED)
    assert (red.numbers, red.win, red.half_back, red.loss) == (6, F(6, 13), F(1, 13), F(6, 13))
    assert red.edge == (F(1, 26), F(1, 26)) and red.hit_or_half == F(7, 13)
    # Every spot on one line, every line once: 52 spots.
    assert sum(x.spots for x in lines) == 52
    assert [(x.kind, x.covers_zero) for x in lines if x.covers_zero] == [
        (K.STRAIGHT, True),
        (K.SPLIT, True),
        (K.THREE_NUMBERS, True),
    ]


@pytest.mark.clause("reading:round-up", kind="related")
def test_a_generous_paytables_pay_and_edge_as_paid_over_the_stakes():
    # A split at 16 to 3 returns 2 × 19/3 = 12.67 on a 2-cent stake, paid 13: pays 11/2 per
    # unit there (its highest), and exactly 16/3 at 6 cents (its lowest).
    generous = Paytable.from_dict({**MINIMUM_PAYTABLE.as_dict(), "split": "16/3"})
    split = line(par_lines(generous), K.SPLIT)

    assert split.pay == (F(16, 3), F(11, 2)) and split.pay_stakes == (6, 2)
    assert split.edge[0] < split.edge[1]
    assert split.return_to_player == (1 - split.edge[1], 1 - split.edge[0])
    # Only at the table's stakes: from 6 cents, every third stake is paid exactly.
    table = line(par_lines(generous, stakes=Stakes(unit=6)), K.SPLIT)
    assert table.pay == (F(16, 3), F(16, 3)) and table.edge[0] == table.edge[1]


def test_the_default_mixs_hold_and_band_for_each_period():
    forecasts = hold_forecast(default_mix(), paytable=MINIMUM_PAYTABLE)

    # By hand: 46 spots not covering 0 at 1/26 and 6 covering it at 1/13, one 2-cent unit
    # each: the hold is (46/26 + 6 × 2/26) / 52 = 29/676 ≈ 4.29 %, whatever the period.
    assert DEFAULT_MIX == "one unit on every spot"
    assert [f.rounds for f in forecasts] == list(PERIODS)
    for forecast in forecasts:
        assert forecast.handle == forecast.rounds * 104
        assert forecast.expected_hold == F(29, 676)
        low, high = forecast.band
        assert low < decimal.Decimal(29) / 676 < high
    # The band narrows as 1/√n: a hundred times the rounds, a tenth of the width.
    first, third = forecasts[0].band, forecasts[2].band
    ratio = (first[1] - first[0]) / (third[1] - third[0])
    assert abs(ratio - 10) < decimal.Decimal("1e-9")


def test_the_square_root_is_exact_to_its_precision():
    assert decimal_sqrt(F(1728, 169)) == decimal.Decimal("3.19763226013")
    assert decimal_sqrt(F(4)) == 2
