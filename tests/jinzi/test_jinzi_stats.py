"""The audit report's statistics: the outcome chi-square (§ 810a.5: outcomes uniformly
distributed) and the period's win against its expected band (reading:expected-win)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jinzi
from jinzi.stats import (
    COUNTS_WRONG,
    EVEN_DEGREES,
    EXCEPTION_Z,
    LOW_VOLUME_ROUNDS,
    REVIEW_Z,
    VARIANCE_NEGATIVE,
    HoldCheck,
)


def test_810a5_a_perfectly_even_wheel_has_chi_square_0_and_p_1():
    result = jinzi.outcome_chi_square([10] * 13)

    assert (result.statistic, result.degrees_of_freedom, result.p_value) == (0, 12, 1.0)
    assert not result.alarm


def test_810a5_chi_square_by_hand():
    # 26 spins: expected 2 each. Number 0 came up 4 times, 1 never, the rest twice:
    # (4-2)²/2 + (0-2)²/2 = 2 + 2 = 4.
    counts = [4, 0] + [2] * 11

    result = jinzi.outcome_chi_square(counts)

    assert result.statistic == Fraction(4)
    # 12 degrees of freedom, x = 2: Q = e^-2 (1 + 2 + 2 + 4/3 + 2/3 + 4/15) = 0.98344.
    assert result.p_value == pytest.approx(0.983436, abs=1e-6)


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        (26.217, 12, 0.01),  # the 1 % critical value of chi-square(12)
        (21.026, 12, 0.05),
        (5.991, 2, 0.05),
        (0, 12, 1.0),
    ],
)
def test_810a5_p_values_match_the_tables(statistic, dof, p):
    assert jinzi.chi_square_p(statistic, dof) == pytest.approx(p, abs=2e-5)


def test_810a5_a_loaded_wheel_sets_the_alarm():
    counts = [200] + [100] * 12  # zero twice as often as it should

    result = jinzi.outcome_chi_square(counts)

    assert result.p_value < 0.01 and result.alarm


@pytest.mark.parametrize(
    "counts", [[1] * 12, [1] * 14, [1] * 12 + [-1], [1.0] * 13, [1] * 12 + [True]]
)
def test_outcome_counts_must_be_13_whole_numbers(counts):
    with pytest.raises(jinzi.JinziError, match="13 whole numbers"):
        jinzi.outcome_chi_square(counts)


@pytest.mark.parametrize("dof", [0, 3, -2, 12.0])
def test_the_closed_form_takes_even_degrees_of_freedom_only(dof):
    with pytest.raises(jinzi.JinziError, match="even"):
        jinzi.chi_square_p(10, dof)


@given(st.lists(st.integers(0, 10_000), min_size=13, max_size=13))
def test_810a5_p_is_a_probability_and_falls_as_the_statistic_grows(counts):
    result = jinzi.outcome_chi_square(counts)

    assert 0.0 <= result.p_value <= 1.0
    assert jinzi.chi_square_p(result.statistic + 1, 12) <= result.p_value


def _check(win, expected=Fraction(100), variance=Fraction(2500), rounds=LOW_VOLUME_ROUNDS):
    return jinzi.hold_check(win=win, expected_win=expected, variance=variance, rounds=rounds)


@pytest.mark.parametrize(
    ("win", "flag"),
    [
        (100, "ok"),  # z = 0
        (197, "ok"),  # z = 1.94
        (199, "review"),  # z = 1.98
        (1, "review"),  # z = -1.98
        (264, "review"),  # z = 3.28
        (265, "exception"),  # z = 3.30
        (-65, "exception"),  # z = -3.30
    ],
)
def test_hold_outside_the_expected_band_is_flagged(win, flag):
    # E = 100 cents, SD = 50 cents.
    result = _check(win)

    assert result.sd == 50.0
    assert result.z == pytest.approx((win - 100) / 50)
    assert result.flag == flag


@pytest.mark.clause("reading:low-volume", kind="proves")
def test_a_small_sample_is_low_volume_whatever_z_says():
    result = _check(1_000, rounds=LOW_VOLUME_ROUNDS - 1)

    assert result.z == pytest.approx(18.0)
    assert result.flag == "low volume"


def test_reading_low_volume_is_drawn_at_1000_rounds():
    assert LOW_VOLUME_ROUNDS == 1_000
    # z = 18 either side of the line: judged from 1,000 rounds, flagged low volume below.
    assert _check(1_000, rounds=999).flag == "low volume"
    assert _check(1_000, rounds=1_000).flag == "exception"
    assert _check(100, rounds=999).flag == "low volume"
    assert _check(100, rounds=1_000).flag == "ok"


def test_no_play_has_no_z():
    result = _check(0, expected=Fraction(0), variance=Fraction(0), rounds=0)

    assert (result.sd, result.z, result.flag) == (0.0, None, "low volume")


@pytest.mark.clause("reading:expected-win", kind="proves")
def test_the_band_uses_a_rounds_own_variance_red_and_black_nearly_cancel():
    # 1,000 rounds of red + black, 1 unit (2 cents) each: E per round = 4 - 50/13 cents,
    # variance per round 48/169 cents² (jinzi.round_moments): the band is narrow.
    one = jinzi.round_moments([(jinzi.Wager("red"), 2), (jinzi.Wager("black"), 2)])
    rounds = 1_000
    expected = rounds * one.expected_win
    variance = rounds * one.variance

    result = jinzi.hold_check(
        win=round(expected) + 60, expected_win=expected, variance=variance, rounds=rounds
    )

    assert expected == Fraction(2000, 13)
    assert variance == Fraction(48_000, 169)
    assert result.flag == "exception"  # 60 cents off with SD ≈ 16.9 cents


def test_810a5_a_tiny_statistic_has_a_p_value_of_1_never_more():
    # e^-x · (1 + x + x²/2 + …) comes out at 1.0000000000000002 in floating point for this x;
    # a probability is never above 1.
    assert jinzi.chi_square_p(3.3e-8, 12) == 1.0
    assert jinzi.chi_square_p(Fraction(1, 10**9), 2) <= 1.0


def test_810a5_no_spins_give_a_statistic_of_0_on_12_degrees_of_freedom_and_p_1():
    result = jinzi.outcome_chi_square([0] * 13)

    assert result == jinzi.ChiSquare(Fraction(0), 12, 1.0)
    assert isinstance(result.statistic, Fraction)
    assert not result.alarm


def test_810a5_counts_that_are_not_13_whole_numbers_are_shown_in_the_error():
    with pytest.raises(jinzi.JinziError) as raised:
        jinzi.outcome_chi_square([1] * 12 + [-1])

    assert str(raised.value) == COUNTS_WRONG.format(got=[1] * 12 + [-1])


def test_the_degrees_of_freedom_refused_are_shown_in_the_error():
    with pytest.raises(jinzi.JinziError) as raised:
        jinzi.chi_square_p(10, 3)

    assert str(raised.value) == EVEN_DEGREES.format(got=3)


@pytest.mark.parametrize(
    ("win", "expected", "z", "flag"),
    [
        (198, Fraction(100), REVIEW_Z, "ok"),
        (2, Fraction(100), -REVIEW_Z, "ok"),
        (265, Fraction(201, 2), EXCEPTION_Z, "review"),
        (-64, Fraction(201, 2), -EXCEPTION_Z, "review"),
    ],
)
def test_reading_expected_win_a_z_exactly_on_a_line_is_not_beyond_it(win, expected, z, flag):
    # SD = 50: 98 / 50 = 1.96 and 164.5 / 50 = 3.29 exactly. "Outside E ± 1.96 SD" and
    # "beyond ± 3.29 SD" are strict, so the line itself takes the milder flag.
    result = _check(win, expected=expected)

    assert result.z == z
    assert result.flag == flag


def test_reading_expected_win_a_variance_below_1_still_gives_a_band():
    result = jinzi.hold_check(
        win=1, expected_win=Fraction(0), variance=Fraction(1, 4), rounds=LOW_VOLUME_ROUNDS
    )

    # SD = ½ cent, so a win 1 cent above E is z = 2.
    assert result == HoldCheck(win=1, expected_win=Fraction(0), sd=0.5, z=2.0, flag="review")


def test_reading_expected_win_the_check_reports_the_win_and_expected_win_it_judged():
    result = _check(150, expected=Fraction(301, 3))

    assert (result.win, result.expected_win) == (150, Fraction(301, 3))


def test_a_negative_variance_is_refused():
    with pytest.raises(jinzi.JinziError) as raised:
        _check(100, variance=Fraction(-1, 4))

    assert str(raised.value) == VARIANCE_NEGATIVE.format(got=Fraction(-1, 4))
    assert str(raised.value) == "a variance cannot be negative; got -1/4"
