"""Fractional odds round a return up (reading:round-up), so the house edge, the edge ≤ 0
flag and the expected win follow what each allowed stake is paid, not the odds alone.

Worked by hand, minor units (cents), stakes even (reading:even-stakes):

- **Split 1-2 at 16 to 3, a 2-cent stake.** A win returns 2 × 19/3 = 38/3 = 12.67, paid 13,
  on 2 of the 13 outcomes; 0 returns half, 1; the other 10 lose. Paid over the 13 outcomes:
  2 × 13 + 1 = 27 for 13 × 2 = 26 staked: edge 1 − 27/26 = −1/26, expected win
  2 × (−1/26) = −1/13 of a cent. The odds alone give 1 − (2 × 19/3 + 1/2)/13 = −1/78, an
  expected win of −1/39: that is what an unrounded figure would have said.
- **Straight up 5 at 34 to 3.** The odds alone: 1 − (37/3 + 1/2)/13 = 1/78 > 0, so no flag.
  But on 2 cents a win returns 74/3 = 24.67, paid 25: 25 + 1 = 26 for 26 staked, edge 0;
  on 4 cents 148/3 = 49.33, paid 50: 50 + 2 = 52 for 52, edge 0; on 6 cents 74, exact: 1/78.
  So every straight up but 0 is flagged over every even stake. Straight up 0 (no half-back):
  on 2 cents 25 for 26, edge 1/26 > 0; not flagged.
- **The same straight at a table whose minimum stake is 6 cents.** r(s) = (−37·s) mod 3
  thirds of a cent are added to a win: r(8) = 1, r(10) = 2, r(14) = 1, r(16) = 2, … The gain
  per cent of stake, r/(3·13·s), is largest at 10 (2/10): edge 1/78 − 2/(39 × 10) = 1/130.
  And no stake from 6 = 1/(13 × 1/78) up can be flagged (bound 2 of ``jinzi.edge``).
- **A chip unit of 100.** r(100) = (−3,700) mod 3 = 2: edge 1/78 − 2/(39 × 100) = 4/325;
  every multiple of 100 repeats r = 2, 1, 0 with a larger stake, so 4/325 is the lowest.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jinzi
from jinzi import (
    EVERY_EVEN_STAKE,
    HoldRange,
    InvalidStake,
    Paytable,
    Stakes,
    Wager,
    edge_table,
    highest_edge,
    hold_range,
    house_edge,
    lowest_edge,
    paytable_flags,
    round_moments,
    rounding_period,
    settle,
    spot_edges,
)
from jinzi.edge import _first_in_range

MINIMUM = {kind.value: odds for kind, odds in jinzi.MINIMUM_ODDS.items()}
SPLIT_16_3 = Paytable.from_dict({**MINIMUM, "split": "16/3"})
STRAIGHT_34_3 = Paytable.from_dict({**MINIMUM, "straight": "34/3"})
SPLIT_1_2 = Wager("split", (1, 2))
STRAIGHT_5 = Wager("straight", (5,))
STRAIGHT_0 = Wager("straight", (0,))


def paid_edge(wager, stake, paytable):
    """The edge by the definition: what ``settle`` pays on each of the 13 outcomes."""
    paid = sum(settle(wager, stake, o, paytable=paytable) for o in jinzi.NUMBERS)
    return 1 - Fraction(paid, 13 * stake)


def test_reading_round_up_split_at_16_to_3_on_a_2_cent_stake_worked_by_hand():
    assert [settle(SPLIT_1_2, 2, o, paytable=SPLIT_16_3) for o in (1, 2, 0, 5)] == [13, 13, 1, 0]
    assert house_edge(SPLIT_1_2, paytable=SPLIT_16_3, stake=2) == Fraction(-1, 26)
    assert house_edge(SPLIT_1_2, paytable=SPLIT_16_3) == Fraction(-1, 78)
    # The expected win of the bet: what the audit report's E adds for it.
    moments = round_moments([(SPLIT_1_2, 2)], paytable=SPLIT_16_3)
    assert moments.expected_win == 2 * Fraction(-1, 26) == Fraction(-1, 13)
    assert moments.expected_win != 2 * house_edge(SPLIT_1_2, paytable=SPLIT_16_3)  # −1/39
    # And it is the lowest edge over every even stake: 2 cents gains the most per cent.
    low = lowest_edge(SPLIT_1_2, paytable=SPLIT_16_3)
    assert (low.edge, low.stake) == (Fraction(-1, 26), 2)


def test_reading_round_up_straight_up_at_34_to_3_is_flagged_though_its_odds_are_not():
    assert house_edge(STRAIGHT_5, paytable=STRAIGHT_34_3) == Fraction(1, 78)
    assert paytable_flags(STRAIGHT_34_3) == ()  # the odds alone: not flagged
    edges = [house_edge(STRAIGHT_5, paytable=STRAIGHT_34_3, stake=s) for s in (2, 4, 6)]
    assert edges == [0, 0, Fraction(1, 78)]

    flags = paytable_flags(STRAIGHT_34_3, stakes=EVERY_EVEN_STAKE)

    assert [f.wager.spot for f in flags] == [f"straight:{n}" for n in range(1, 13)]
    assert {(f.edge, f.stake) for f in flags} == {(Fraction(0), 2)}
    assert flags[4].message == (
        "Straight up 5 has a house edge of 0.000 % on a stake of 2 minor units, its return "
        "rounded up: the paytable favours the player there and needs explicit approval"
    )
    zero = lowest_edge(STRAIGHT_0, paytable=STRAIGHT_34_3)
    assert (zero.edge, zero.stake) == (Fraction(1, 26), 2)  # 25 paid for 26 staked


def test_reading_round_up_the_stakes_a_table_allows_decide_the_flag():
    from_six = Stakes(unit=2, lowest=6)
    low = lowest_edge(STRAIGHT_5, from_six, paytable=STRAIGHT_34_3)
    assert (low.edge, low.stake) == (Fraction(1, 130), 10)
    assert paytable_flags(STRAIGHT_34_3, stakes=from_six) == ()
    # Only 2 and 4 cents leave no edge: a table allowing them is flagged, whatever its top.
    assert len(paytable_flags(STRAIGHT_34_3, stakes=Stakes(2, 2, 4))) == 12
    assert len(paytable_flags(STRAIGHT_34_3, stakes=Stakes(4, 4, 400))) == 12

    hundreds = Stakes(unit=100, lowest=100, highest=50_000)
    low = lowest_edge(STRAIGHT_5, hundreds, paytable=STRAIGHT_34_3)
    assert (low.edge, low.stake) == (Fraction(4, 325), 100)
    assert paytable_flags(STRAIGHT_34_3, stakes=hundreds) == ()
    # 300 is a multiple of 3: paid exactly, the odds' own edge is the highest.
    high = highest_edge(STRAIGHT_5, hundreds, paytable=STRAIGHT_34_3)
    assert (high.edge, high.stake) == (Fraction(1, 78), 300)
    # A table whose only stakes are 100 and 200: r = 2 then 1, so 200 is the highest.
    narrow = highest_edge(STRAIGHT_5, Stakes(100, 100, 200), paytable=STRAIGHT_34_3)
    assert (narrow.edge, narrow.stake) == (Fraction(1, 78) - Fraction(1, 39 * 200), 200)


def test_reading_round_up_edge_table_and_range_of_hold_over_every_even_stake():
    rows = {row.kind: row for row in edge_table(STRAIGHT_34_3, stakes=EVERY_EVEN_STAKE)}
    straight = rows["straight"]
    # Lowest: straight 1–12 on 2 cents; highest: straight 0's own edge, 1 − 37/39.
    assert (straight.lowest, straight.lowest_stake, straight.highest) == (0, 2, Fraction(2, 39))
    assert rows["red"].uniform and rows["red"].lowest == Fraction(1, 26)
    assert hold_range(STRAIGHT_34_3, stakes=EVERY_EVEN_STAKE) == HoldRange(
        not_covering_zero=(Fraction(0), Fraction(1, 26)),
        covering_zero=(Fraction(1, 26), Fraction(1, 13)),
    )
    # Without stakes, the odds' own figures, as before.
    assert edge_table(STRAIGHT_34_3)[0].lowest == Fraction(1, 78)
    assert edge_table(STRAIGHT_34_3)[0].lowest_stake is None


def test_reading_round_up_whole_and_half_odds_are_paid_exactly_at_every_even_stake():
    halves = Paytable({**MINIMUM, "straight": 12, "split": Fraction(11, 2)})
    for paytable in (Paytable.minimum(), halves):
        for wager in jinzi.legal_wagers():
            own = house_edge(wager, paytable=paytable)
            assert rounding_period(wager, paytable=paytable) == 1
            assert lowest_edge(wager, paytable=paytable).edge == own
            assert highest_edge(wager, paytable=paytable).edge == own
    assert spot_edges(stakes=EVERY_EVEN_STAKE) == tuple(
        jinzi.SpotEdge(e.wager, e.edge, 2) for e in spot_edges()
    )


def test_reading_even_stakes_a_table_allows_multiples_of_an_even_chip_unit():
    stakes = Stakes(unit=100, lowest=200, highest=1_000)
    assert (stakes.count, stakes.first(3)) == (9, (200, 300, 400))
    assert 500 in stakes and 150 not in stakes and 1_100 not in stakes and 100 not in stakes
    assert Stakes(2, 2, None) == EVERY_EVEN_STAKE and EVERY_EVEN_STAKE.count is None
    for bad in ({"unit": 3}, {"unit": 2, "lowest": 5}, {"unit": 4, "lowest": 8, "highest": 4}):
        with pytest.raises(InvalidStake):
            Stakes(**bad)
    with pytest.raises(InvalidStake, match="multiple of the chip unit 100"):
        Stakes(100, 100, 250)


# --- The finite search, against brute force ----------------------------------------------


def test_reading_round_up_the_euclid_step_finds_the_first_multiple_in_a_range():
    for m in range(1, 24):
        for a in range(2 * m):
            for lo in range(m):
                for hi in range(lo, m):
                    first = next((x for x in range(m + 1) if lo <= a * x % m <= hi), None)
                    assert _first_in_range(a, m, lo, hi) == first, (a, m, lo, hi)
    # Nine-digit moduli, answered by the definition it must meet.
    a, m = 999_999_937, 2 * 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 + 1
    x = _first_in_range(a, m, m - 3, m - 1)
    assert m - 3 <= a * x % m <= m - 1
    assert all(not m - 3 <= a * y % m for y in range(1, min(x, 200_000)))


def _odds_and_stakes(rng: random.Random):
    kind = rng.choice(list(MINIMUM))
    base = int(MINIMUM[kind])
    denominator = rng.randint(1, 30)
    odds = Fraction(base * denominator + rng.randint(0, 2 * denominator), denominator)
    paytable = Paytable({**MINIMUM, kind: odds})
    wager = rng.choice([w for w in jinzi.legal_wagers() if w.kind.value == kind])
    unit = 2 * rng.randint(1, 8)
    lowest = unit * rng.randint(1, 4)
    highest = None if rng.random() < 0.5 else lowest + unit * rng.randint(0, 40)
    return wager, paytable, Stakes(unit, lowest, highest)


@pytest.mark.parametrize("seed", range(4))
def test_reading_round_up_the_lowest_edge_lies_within_one_period_of_the_stakes(seed):
    """Bound 1: the rounding repeats every ``rounding_period`` stakes and gains less per
    cent on a larger stake, so the lowest edge over all stakes is among the first period's,
    and the search finds it (with the smallest stake reaching it)."""
    rng = random.Random(seed)
    for _ in range(150):
        wager, paytable, stakes = _odds_and_stakes(rng)
        period = rounding_period(wager, stakes, paytable=paytable)
        # Three periods by the definition: the first holds the lowest, the others repeat.
        edges = [(paid_edge(wager, s, paytable), s) for s in stakes.first(3 * period)]
        in_first = edges[:period]
        assert min(edges) == min(in_first)
        low = lowest_edge(wager, stakes, paytable=paytable)
        assert (low.edge, low.stake) == min(in_first)
        if stakes.count is not None:
            everything = [(paid_edge(wager, s, paytable), s) for s in stakes.first(stakes.count)]
            high = highest_edge(wager, stakes, paytable=paytable)
            top = max(edge for edge, _ in everything)
            assert high.edge == top
            assert high.stake == min(s for edge, s in everything if edge == top)
        else:
            assert highest_edge(wager, stakes, paytable=paytable).edge == house_edge(
                wager, paytable=paytable
            )


@given(
    kind=st.sampled_from(["straight", "split", "street", "corner", "column", "red"]),
    numerator_extra=st.integers(0, 60),
    denominator=st.integers(2, 60),
)
def test_reading_round_up_no_stake_past_the_bound_is_flagged(kind, numerator_extra, denominator):
    """Bound 2: a win gains under n/(13·s) per cent of stake from rounding, so where the
    odds' own edge e is positive no stake s ≥ n/(13·e) has an edge of zero or less."""
    odds = Fraction(int(MINIMUM[kind]) * denominator + numerator_extra, denominator)
    paytable = Paytable({**MINIMUM, kind: odds})
    wager = next(w for w in jinzi.legal_wagers() if w.kind.value == kind and not w.covers_zero)
    own = house_edge(wager, paytable=paytable)
    if own <= 0:
        assert lowest_edge(wager, paytable=paytable).flagged
        return
    covered = len(wager.covers())
    bound = math.ceil(Fraction(covered, 13) / own)
    first = bound + bound % 2
    past = [paid_edge(wager, s, paytable) for s in range(first, first + 2 * denominator + 2, 2)]
    assert all(edge > 0 for edge in past)
    flagged_below = any(paid_edge(wager, s, paytable) <= 0 for s in range(2, first, 2))
    assert lowest_edge(wager, paytable=paytable).flagged is flagged_below


def test_reading_round_up_nine_digit_denominators_are_searched_exactly():
    """A win gains r(s)/b of a cent from rounding, r(s) = (−a·s) mod b; the odds here make a
    2-cent stake gain 1/b and each larger even stake 2j gain j/b, the same per cent of stake:
    all of the first b − 1 even stakes tie, and the search still answers (a walk over the
    stakes one by one would take b steps)."""
    b = 999_999_937  # prime
    a = (b - 1) // 2  # −2·a ≡ 1 (mod b): r(2) = 1, r(2j) = j
    multiple = Fraction(a + 12 * b, b)  # a win returns more than 12 times the stake
    paytable = Paytable({**MINIMUM, "straight": multiple - 1})
    own = house_edge(STRAIGHT_5, paytable=paytable)
    low = lowest_edge(STRAIGHT_5, paytable=paytable)
    assert low.stake == 2
    assert low.edge == own - Fraction(1, 13 * b * 2) == paid_edge(STRAIGHT_5, 2, paytable)
    assert paid_edge(STRAIGHT_5, 2 * 12_345, paytable) == low.edge  # r = 12,345: a tie
    assert rounding_period(STRAIGHT_5, paytable=paytable) == b
    high = highest_edge(STRAIGHT_5, paytable=paytable)
    assert (high.edge, high.stake) == (own, 2 * b)
