"""Mean and variance of one round's return (reading:expected-win), checked by hand and
against a brute-force enumeration of the 13 outcomes with ``jinzi.settle``.

Stakes are in minor units and must be even, so "1 unit" below is a stake of 2: in
minor units returns and means are 2 × those per unit, variances 2² = 4 ×.
"""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jinzi
from jinzi import (
    NUMBERS,
    SPOT_COUNT,
    InvalidStake,
    InvalidWager,
    Paytable,
    RoundMoments,
    RoundMomentsTable,
    SettlementTable,
    Wager,
    Wheel,
    house_edge,
    return_variance,
    round_moments,
    settle,
)
from jinzi.errors import describe_value
from jinzi.settlement import COLUMNS_MISMATCH, STAKE_MESSAGE, STAKE_ODD_MESSAGE
from jinzi.wagers import SPOT_INDEX_OUT_OF_RANGE

MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip
# More generous than § 617b.8(f): whole and half odds (returns stay linear in the stake)...
HALVES = Paytable({**MINIMUM, "straight": 12, "split": Fraction(11, 2)})
# ...and odds whose returns round up for some even stakes (2 × 41/20 = 4.1 → 5).
ROUNDING = Paytable({**MINIMUM, "red": Fraction(21, 20), "three_numbers": Fraction(13, 4)})
PAYTABLES = {"minimum": Paytable(MINIMUM), "halves": HALVES, "rounding": ROUNDING}


def brute_force(bets, paytable=None, wheel=None):
    """(stake, mean, variance) by the definition: settle every bet on every outcome."""
    returns = [
        sum(settle(w, s, o, paytable=paytable, wheel=wheel) for w, s in bets) for o in NUMBERS
    ]
    mean = Fraction(sum(returns), 13)
    return sum(s for _, s in bets), mean, sum((r - mean) ** 2 for r in returns) / 13


def brute_force_scaled(bets, paytable=None, wheel=None):
    stake, mean, variance = brute_force(bets, paytable, wheel)
    assert (mean * 13).denominator == (variance * 169).denominator == 1
    return stake, int(mean * 13), int(variance * 169)


def both_forms(bets, paytable=None, wheel=None):
    """The plain path and the compiled table, which must agree."""
    single = round_moments(bets, paytable=paytable, wheel=wheel)
    table = RoundMomentsTable.for_(paytable, wheel)
    assert table.moments([w for w, _ in bets], [s for _, s in bets]) == single
    assert table.moments([w.spot_index for w, _ in bets], [s for _, s in bets]) == single
    return single


def moments(bets, paytable=None):
    """(stake, mean, variance) of a round given as spot ids, by both forms."""
    m = both_forms([(Wager.parse(spot), stake) for spot, stake in bets], paytable)
    return m.stake, m.mean_return, m.variance


# Hand-checked: the returns on each outcome are listed in the comment, in minor units.
HAND_CHECKED = [
    # Straight 5: 24 on 5, 1 on 0 (half back). ΣR = 25, ΣR² = 577, 169·var = 13·577 − 25².
    ("minimum", [("straight:5", 2)], 2, Fraction(25, 13), Fraction(6876, 169)),
    # Red: 4 on the 6 reds, 1 on 0. ΣR = 25, ΣR² = 97, 169·var = 1261 − 625 = 636.
    ("minimum", [("red", 2)], 2, Fraction(25, 13), Fraction(636, 169)),
    # Red + black: 4 on every non-zero outcome, 1 + 1 on 0. ΣR = 50, ΣR² = 196 → 48/169.
    ("minimum", [("red", 2), ("black", 2)], 4, Fraction(50, 13), Fraction(48, 169)),
    # Straight 0: 24 on 0 only (it is placed on zero, § 617b.8(g)(1)). 169·var = 12·576.
    ("minimum", [("straight:0", 2)], 2, Fraction(24, 13), Fraction(6912, 169)),
    # Split 0-1 covers 0, so no half back: 12 on 0 and on 1. 169·var = 13·288 − 24².
    ("minimum", [("split:0-1", 2)], 2, Fraction(24, 13), Fraction(3168, 169)),
    # Straight 0 (2), red (4), split 1-2 (2): 24+2+1 = 27 on 0, 8+12 = 20 on 1, 12 on 2,
    # 8 on each of 3, 5, 8, 10, 12, else 0. ΣR = 99, ΣR² = 1593, 169·var = 20709 − 9801.
    (
        "minimum",
        [("straight:0", 2), ("red", 4), ("split:1-2", 2)],
        8,
        Fraction(99, 13),
        Fraction(10908, 169),
    ),
    # Straight 5 at 12 to 1: 26 on 5, 1 on 0. 169·var = 13·677 − 27².
    ("halves", [("straight:5", 2)], 2, Fraction(27, 13), Fraction(8072, 169)),
    # Split 0-1 at 11 to 2: 13 on 0 and on 1, mean 2 (no edge), variance 26 − 4.
    ("halves", [("split:0-1", 2)], 2, Fraction(2), Fraction(22)),
    # Red at 21 to 20, stake 2: 4.1 rounds up to 5 on the reds, 1 on 0. 169·var = 1963 − 961.
    ("rounding", [("red", 2)], 2, Fraction(31, 13), Fraction(1002, 169)),
    # Stake 20: 41 exactly on the reds, 10 on 0. 169·var = 13·10186 − 256².
    ("rounding", [("red", 20)], 20, Fraction(256, 13), Fraction(66882, 169)),
    # Three numbers 0-1-2 at 13 to 4, stake 4: 17 on 0, 1 and 2. 169·var = 13·867 − 51².
    ("rounding", [("three_numbers:0-1-2", 4)], 4, Fraction(51, 13), Fraction(8670, 169)),
]


@pytest.mark.parametrize(
    ("paytable", "bets", "stake", "mean", "variance"),
    HAND_CHECKED,
    ids=[f"{case[0]}-{'+'.join(spot for spot, _ in case[1])}" for case in HAND_CHECKED],
)
@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_moments_of_hand_checked_rounds(paytable, bets, stake, mean, variance):
    assert moments(bets, PAYTABLES[paytable]) == (stake, mean, variance)


@pytest.mark.clause("617b.8(g)", kind="related")
def test_617b8_g_red_and_black_together_nearly_cancel():
    # 1 unit on each (a stake of 2 minor units each): the round returns 2 units on every
    # non-zero outcome and ½ + ½ = 1 on 0 (half back on both, § 617b.8(g)(2)).
    mean = Fraction(12 * 2 + 1, 13)
    per_unit_each = Fraction(12, 13) * (2 - mean) ** 2 + Fraction(1, 13) * (1 - mean) ** 2
    assert (mean, per_unit_each) == (Fraction(25, 13), Fraction(12, 169))
    # Per unit of *total* stake (2 units): returns 1 and ½, mean 25/26 — the 3/169.
    per_unit_total = (
        Fraction(12, 13) * (1 - Fraction(25, 26)) ** 2
        + Fraction(1, 13) * (Fraction(1, 2) - Fraction(25, 26)) ** 2
    )
    assert per_unit_total == per_unit_each / 4 == Fraction(3, 169)

    together = moments([("red", 2), ("black", 2)])
    assert together == (4, 2 * mean, 4 * per_unit_each)  # minor units: ×2 returns, ×4 variance
    assert together[2] / together[0] ** 2 == Fraction(3, 169)

    # Red alone: 159/169 per unit, so two separate bets would give 2·(4·159/169) = 1272/169
    # in minor units, 26.5 times what the shared outcome gives.
    red = moments([("red", 2)])
    assert red[2] / 4 == Fraction(159, 169) == return_variance(Wager("red"))
    assert 2 * red[2] == Fraction(1272, 169) == Fraction(53, 2) * together[2]


@pytest.mark.clause("reading:expected-win", kind="proves")
@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_expected_win_is_the_stake_times_the_edge_of_each_spot():
    bets = [("straight:0", 2), ("red", 4), ("split:1-2", 2)]
    m = both_forms([(Wager.parse(spot), stake) for spot, stake in bets])
    # 2 × 1/13 + 4 × 1/26 + 2 × 1/26 (reading:expected-win).
    assert (
        m.expected_win
        == Fraction(5, 13)
        == sum(stake * house_edge(Wager.parse(spot)) for spot, stake in bets)
    )
    assert m.edge == Fraction(5, 104)
    straight = moments([("straight:5", 2)])
    assert straight[0] - straight[1] == 2 * Fraction(1, 26)
    assert moments([("straight:5", 2)], HALVES)[1] == 2 + Fraction(1, 13)  # edge −1/26


def test_617b8_c_red_follows_the_wheel():
    # On the wheel 0, 1, 2, …, 12 red is the odd numbers, so red + small win together on
    # 1, 3, 5: returns 8 there, 4 on 2, 4, 6 (small), 4 on 7, 9, 11 (red), 2 on 0.
    wheel = Wheel((0, *range(1, 13)))
    bets = [(Wager("red"), 2), (Wager("small"), 2)]
    m = both_forms(bets, wheel=wheel)
    assert m.mean_return == Fraction(3 * 8 + 6 * 4 + 2, 13)
    assert m.variance == Fraction(13 * (3 * 64 + 6 * 16 + 4) - 50**2, 169)
    assert m == RoundMoments(*brute_force_scaled(bets, wheel=wheel))


def test_an_empty_round_has_no_stake_and_no_edge():
    assert round_moments([]) == RoundMomentsTable.for_().moments([], []) == RoundMoments(0, 0, 0)
    assert RoundMoments(0, 0, 0).edge is None


def test_moments_of_independent_rounds_add():
    red = round_moments([(Wager("red"), 2)])
    both = red + round_moments([(Wager("black"), 2)])
    assert (both.stake, both.mean_return, both.variance) == (4, Fraction(50, 13), 2 * red.variance)
    assert both != round_moments([(Wager("red"), 2), (Wager("black"), 2)])  # one round is not two


odds_steps = st.sampled_from([0, 0, Fraction(1, 2), 1, Fraction(1, 20), Fraction(7, 4), 3])
paytables = st.fixed_dictionaries({kind: odds_steps for kind in MINIMUM}).map(
    lambda extra: Paytable({kind: MINIMUM[kind] + extra[kind] for kind in MINIMUM})
)
wheels = st.permutations(range(1, 13)).map(lambda order: Wheel((0, *order)))
bets_lists = st.lists(
    st.tuples(
        st.integers(0, SPOT_COUNT - 1).map(Wager.at), st.integers(1, 10**6).map(lambda n: 2 * n)
    ),
    max_size=12,
)


@given(bets=bets_lists, paytable=paytables, wheel=wheels)
@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_moments_match_a_brute_force_enumeration_of_the_outcomes(bets, paytable, wheel):
    m = both_forms(bets, paytable, wheel)
    assert (m.stake, m.mean_return, m.variance) == brute_force(bets, paytable, wheel)


@given(
    bets=st.lists(
        st.tuples(
            st.integers(0, SPOT_COUNT - 1).map(Wager.at),
            st.integers(2**40, 2**70).map(lambda n: 2 * n),
        ),
        min_size=1,
        max_size=4,
    ),
    paytable=st.sampled_from(list(PAYTABLES.values())),
)
def test_huge_stakes_stay_exact(bets, paytable):
    # Returns beyond what the compiled table packs per outcome take the plain path.
    m = both_forms(bets, paytable)
    assert (m.stake, m.mean_return, m.variance) == brute_force(bets, paytable)


@pytest.mark.parametrize("half", [(2**64 - 1) // 24, (2**64 - 1) // 24 + 1])
def test_a_return_at_the_edge_of_the_packed_form_stays_exact(half):
    # A straight returns 24 per half-stake: the first stays below 2**64, the second not.
    bets = [(Wager("straight", (5,)), 2 * half)]
    assert both_forms(bets) == RoundMoments(*brute_force_scaled(bets))


@pytest.mark.parametrize("name", list(PAYTABLES))
def test_batch_agrees_with_single_on_random_rounds(name):
    paytable, rnd = PAYTABLES[name], random.Random(617)
    rounds = []
    for _ in range(500):
        count = rnd.randint(0, 10)
        rounds.append(
            (
                [rnd.randrange(SPOT_COUNT) for _ in range(count)],
                [2 * rnd.randint(1, 5000) for _ in range(count)],
            )
        )
    table = RoundMomentsTable.for_(paytable)
    single = [
        round_moments(zip(spots, stakes, strict=True), paytable=paytable)
        for spots, stakes in rounds
    ]
    assert table.moments_many(rounds) == single
    assert table.totals(rounds) == sum(single, RoundMoments(0, 0, 0))
    assert table.totals(iter(rounds)) == table.totals(rounds)


BAD_STAKES = [
    (3, STAKE_ODD_MESSAGE.format(got=3), "617b.8(g)"),
    (0, STAKE_MESSAGE.format(got=0), None),
    (-2, STAKE_MESSAGE.format(got=-2), None),
    (2.0, STAKE_MESSAGE.format(got="2.0 (float)"), None),
    (True, STAKE_MESSAGE.format(got="True (bool)"), None),
]


@pytest.mark.parametrize(("stake", "message", "clause"), BAD_STAKES)
@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
@pytest.mark.clause("reading:even-stakes", kind="proves")
def test_617b8_g_a_stake_that_is_not_a_positive_even_integer_is_refused(stake, message, clause):
    with pytest.raises(InvalidStake) as single:
        round_moments([(Wager("big"), 2), (Wager("red"), stake)])
    with pytest.raises(InvalidStake) as batch:
        RoundMomentsTable.for_().moments_many([([0], [2]), ([Wager("big"), 47], [2, stake])])
    for caught in (single, batch):
        assert (caught.value.message, caught.value.clause) == (message, clause)


@pytest.mark.parametrize("spot", [52, -1, "red", "dozen", True, None])
def test_617b8_d_an_unknown_wager_is_refused(spot):
    message = SPOT_INDEX_OUT_OF_RANGE.format(got=describe_value(spot))
    with pytest.raises(InvalidWager) as single:
        round_moments([(Wager("big"), 2), (spot, 2)])
    with pytest.raises(InvalidWager) as batch:
        RoundMomentsTable.for_().totals([([Wager("big"), spot], [2, 2])])
    for caught in (single, batch):
        assert caught.value.message == message
        assert message.startswith("§ 617b.8(d): ")
        assert caught.value.clause == "617b.8(d)"


def test_617b8_d_an_illegal_spot_cannot_even_be_named():
    with pytest.raises(InvalidWager, match=r"^§ 617b\.8\(d\): split 1-5: numbers are not next"):
        round_moments([(Wager.parse("split:1-5"), 2)])


def test_a_round_needs_one_stake_per_spot():
    with pytest.raises(ValueError, match=COLUMNS_MISMATCH.format(spots=2, stakes=1)):
        RoundMomentsTable.for_().moments([0, 1], [2])


# A straight up at 15 to 1 returns 16 a unit, 32 per half-stake: the largest return of the
# table, and a power of two, so a stake can put a return exactly on 2**64.
FIFTEEN = Paytable({**MINIMUM, "straight": 15})


@pytest.fixture
def plain_settlements(monkeypatch):
    """The outcomes a compiled moments table settles bet by bet (its plain path)."""
    settled = []
    settle_columns = SettlementTable.settle_columns

    def counting(table, outcome, spots, stakes):
        settled.append(outcome)
        return settle_columns(table, outcome, spots, stakes)

    monkeypatch.setattr(SettlementTable, "settle_columns", counting)
    return settled


@pytest.mark.parametrize(("half", "packed"), [(2**59 - 1, True), (2**59, False)])
def test_617b8_f_a_return_of_exactly_2_to_the_64_takes_the_plain_path(
    half, packed, plain_settlements
):
    # 32 × (2**59 − 1) still fits a 64-bit field; 32 × 2**59 = 2**64 would spill into the next.
    bets = [(Wager("straight", (5,)), 2 * half)]
    table = RoundMomentsTable.for_(FIFTEEN)

    assert table.moments([5], [2 * half]) == RoundMoments(*brute_force_scaled(bets, FIFTEEN))
    assert plain_settlements == ([] if packed else list(NUMBERS))


def test_617b8_f_rounds_of_ordinary_stakes_are_added_up_packed(plain_settlements):
    table = RoundMomentsTable.for_()
    bets = [(Wager("straight", (0,)), 2), (Wager("red"), 4), (Wager("split", (1, 2)), 2)]

    assert table.moments(*zip(*bets, strict=True)) == RoundMoments(*brute_force_scaled(bets))
    assert plain_settlements == []
    # Odds that round some returns up are not linear in the stake, so nothing is packed.
    assert RoundMomentsTable.for_(ROUNDING).moments([Wager("red")], [2]).variance_x169 == 1002
    assert plain_settlements == list(NUMBERS)


def test_617b8_f_c_a_compiled_moments_table_is_of_the_paytable_and_wheel_it_was_given():
    wheel = Wheel((0, *range(1, 13)), "black")
    for table in (RoundMomentsTable(HALVES, wheel), RoundMomentsTable.for_(HALVES, wheel)):
        assert table.paytable == HALVES
        assert table.wheel == wheel
    assert RoundMomentsTable.for_().paytable == Paytable.minimum()
    assert RoundMomentsTable.for_().wheel == Wheel.standard()


# --- The band a fair period keeps to (reading:expected-win) ----------------------------------


@pytest.mark.clause("reading:expected-win", kind="proves")
def test_the_fair_band_is_e_plus_or_minus_1_96_sd_exact_with_fractions():
    low, high = jinzi.fair_band(Fraction(100), Fraction(10))

    assert (low, high) == (Fraction(402, 5), Fraction(598, 5))  # 100 ∓ 19.6, exactly
    assert isinstance(low, Fraction) and isinstance(high, Fraction)


def test_the_fair_band_of_a_hold_spreads_the_wins_sd_over_the_handle():
    low, high = jinzi.fair_band(0.05, 30.0, 1_000)

    assert (low, high) == (0.05 - 1.96 * 30.0 / 1_000, 0.05 + 1.96 * 30.0 / 1_000)
    assert isinstance(low, float)


def test_the_fair_band_takes_another_z_and_is_a_point_without_spread():
    assert jinzi.fair_band(Fraction(7), Fraction(2), z=3.29) == (
        Fraction(7) - Fraction(329, 50),
        Fraction(7) + Fraction(329, 50),
    )
    assert jinzi.fair_band(4.0, 0.0) == (4.0, 4.0)
    assert jinzi.fair_band(Fraction(-3), Fraction(0), 2) == (Fraction(-3), Fraction(-3))


@given(
    expected=st.fractions(min_value=-(10**6), max_value=10**6),
    sd=st.fractions(min_value=0, max_value=10**6),
    per=st.integers(min_value=1, max_value=10**6),
)
def test_the_fair_band_is_centred_on_e_and_as_wide_as_3_92_sd(expected, sd, per):
    low, high = jinzi.fair_band(expected, sd, per)

    assert (low + high) / 2 == expected
    assert (high - low) * per == 2 * Fraction(49, 25) * sd
