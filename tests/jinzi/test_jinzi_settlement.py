import math
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jinzi import (
    WAGER_KINDS,
    InvalidOutcome,
    InvalidStake,
    InvalidWager,
    Paytable,
    SettlementTable,
    Wager,
    Wheel,
    legal_wagers,
    settle,
    unit_return,
)
from jinzi.settlement import (
    BETS_NOT_PAIRS,
    COLUMNS_MISMATCH,
    NOT_A_PAYTABLE,
    NOT_A_WAGER,
    NOT_A_WHEEL,
    STAKE_MESSAGE,
    STAKE_ODD_MESSAGE,
    spot_indices,
)
from jinzi.wheel import OUTCOME_MESSAGE

# Independent of jinzi: § 617b.8(f) and the layout of § 617b.8(d) written out by hand,
# with red/black for the standard wheel 0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6.
MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip
COVERAGE = {
    **{f"straight:{n}": {n} for n in range(13)},
    "split:0-1": {0, 1}, "split:0-2": {0, 2}, "split:0-3": {0, 3},
    "split:1-2": {1, 2}, "split:2-3": {2, 3}, "split:4-5": {4, 5}, "split:5-6": {5, 6},
    "split:7-8": {7, 8}, "split:8-9": {8, 9}, "split:10-11": {10, 11}, "split:11-12": {11, 12},
    "split:1-4": {1, 4}, "split:4-7": {4, 7}, "split:7-10": {7, 10},
    "split:2-5": {2, 5}, "split:5-8": {5, 8}, "split:8-11": {8, 11},
    "split:3-6": {3, 6}, "split:6-9": {6, 9}, "split:9-12": {9, 12},
    "street:1-2-3": {1, 2, 3}, "street:4-5-6": {4, 5, 6},
    "street:7-8-9": {7, 8, 9}, "street:10-11-12": {10, 11, 12},
    "corner:1-2-4-5": {1, 2, 4, 5}, "corner:2-3-5-6": {2, 3, 5, 6},
    "corner:4-5-7-8": {4, 5, 7, 8}, "corner:5-6-8-9": {5, 6, 8, 9},
    "corner:7-8-10-11": {7, 8, 10, 11}, "corner:8-9-11-12": {8, 9, 11, 12},
    "three_numbers:0-1-2": {0, 1, 2}, "three_numbers:0-2-3": {0, 2, 3},
    "column:1-4-7-10": {1, 4, 7, 10}, "column:2-5-8-11": {2, 5, 8, 11},
    "column:3-6-9-12": {3, 6, 9, 12},
    "red": {1, 3, 5, 8, 10, 12}, "black": {2, 4, 6, 7, 9, 11},
    "small": {1, 2, 3, 4, 5, 6}, "big": {7, 8, 9, 10, 11, 12},
}  # fmt: skip
ON_ZERO = {spot for spot, covered in COVERAGE.items() if 0 in covered}
WINNING_EXAMPLE = {
    "straight": ("straight:7", 7), "split": ("split:5-8", 8), "street": ("street:4-5-6", 6),
    "corner": ("corner:8-9-11-12", 11), "three_numbers": ("three_numbers:0-2-3", 3),
    "column": ("column:2-5-8-11", 2), "red": ("red", 5), "black": ("black", 7),
    "small": ("small", 6), "big": ("big", 7),
}  # fmt: skip


def expected_return(spot, stake, outcome):
    odds = MINIMUM[spot.partition(":")[0]]
    if outcome in COVERAGE[spot]:
        return stake * (odds + 1)
    return stake // 2 if outcome == 0 else 0


def test_617b8_g_2_zero_returns_half_of_straight_up_on_ten():
    assert settle(Wager("straight", (10,)), 1000, 0) == 500


def test_617b8_g_1_straight_up_on_zero_pays_eleven_to_one_when_zero_comes_up():
    assert settle(Wager("straight", (0,)), 1000, 0) == 12000


@pytest.mark.clause("reading:placed-on-zero", kind="proves")
@pytest.mark.parametrize("spot", sorted(ON_ZERO))
def test_617b8_g_wagers_placed_on_zero_win_at_their_own_odds_when_zero_comes_up(spot):
    odds = MINIMUM[spot.partition(":")[0]]
    assert settle(Wager.parse(spot), 100, 0) == 100 * (odds + 1)


@pytest.mark.clause("reading:placed-on-zero", kind="proves")
def test_617b8_g_2_every_wager_not_placed_on_zero_returns_half_when_zero_comes_up():
    others = [w for w in legal_wagers() if w.spot not in ON_ZERO]
    assert len(others) == 46
    assert {settle(w, 250 * 2, 0) for w in others} == {250}


@pytest.mark.parametrize("kind", WAGER_KINDS)
def test_617b8_f_every_wager_kind_pays_exactly_its_minimum_odds_on_a_win(kind):
    spot, outcome = WINNING_EXAMPLE[kind]
    assert settle(Wager.parse(spot), 1000, outcome) == 1000 * (MINIMUM[kind] + 1)


def test_617b8_f_a_losing_wager_returns_nothing():
    assert settle(Wager("red"), 1000, 2) == 0
    assert settle(Wager("split", (0, 1)), 1000, 2) == 0


def test_617b8_f_and_g_the_whole_52_by_13_table_agrees_with_an_independent_computation():
    assert {w.spot for w in legal_wagers()} == set(COVERAGE)
    table = SettlementTable.for_()
    for wager in legal_wagers():
        for outcome in range(13):
            expected = expected_return(wager.spot, 1000, outcome)
            assert settle(wager, 1000, outcome) == expected, (wager.spot, outcome)
            assert table.settle(wager, 1000, outcome) == expected, (wager.spot, outcome)
            assert table.settle(wager.spot_index, 1000, outcome) == expected


def test_the_settlement_table_matches_settle_for_every_spot_outcome_and_paytable():
    generous = Paytable({**MINIMUM, "straight": Fraction(35, 3), "split": Fraction(11, 2)})
    wheel = Wheel((0, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
    for paytable in (Paytable.minimum(), generous):
        table = SettlementTable(paytable, wheel)
        for outcome in range(13):
            for stake in (2, 4, 6, 1000, 10**12):
                bets = [(w, stake) for w in legal_wagers()]
                single = [
                    settle(w, stake, outcome, paytable=paytable, wheel=wheel) for w, _ in bets
                ]
                assert table.settle_many(outcome, bets) == single


@pytest.mark.clause("reading:round-up", kind="proves")
def test_617b8_f_rounding_reading_fractional_odds_round_the_return_up_to_the_minor_unit():
    paytable = Paytable({**MINIMUM, "straight": Fraction(35, 3)})
    straight = Wager("straight", (5,))
    assert settle(straight, 2, 5, paytable=paytable) == 26  # 2 × 38/3 = 25.33…
    assert settle(straight, 6, 5, paytable=paytable) == 76  # exact
    assert settle(straight, 2, 0, paytable=paytable) == 1  # half back stays exact
    assert unit_return(straight, 5, paytable=paytable) == Fraction(38, 3)


@pytest.mark.parametrize(
    ("stake", "message"),
    [
        (0, STAKE_MESSAGE.format(got="0")),
        (-2, STAKE_MESSAGE.format(got="-2")),
        (True, STAKE_MESSAGE.format(got="True (bool)")),
        (2.0, STAKE_MESSAGE.format(got="2.0 (float)")),
        (Decimal(2), STAKE_MESSAGE.format(got="Decimal('2') (Decimal)")),
        (Fraction(2), STAKE_MESSAGE.format(got="Fraction(2, 1) (Fraction)")),
        ("2", STAKE_MESSAGE.format(got="'2' (str)")),
        (None, STAKE_MESSAGE.format(got="None (NoneType)")),
        (3, STAKE_ODD_MESSAGE.format(got=3)),
    ],
)
@pytest.mark.clause("reading:even-stakes", kind="proves")
@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
def test_617b8_g_stakes_must_be_positive_even_ints_never_coerced(stake, message):
    with pytest.raises(InvalidStake) as raised:
        settle(Wager("red"), stake, 1)
    assert str(raised.value) == message
    assert "stake must be a positive even integer number of minor units, got" in message
    with pytest.raises(InvalidStake):
        SettlementTable.for_().settle_many(1, [(Wager("red"), 2), (Wager("red"), stake)])


@pytest.mark.clause("reading:even-stakes", kind="proves")
@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
def test_617b8_g_an_odd_stake_is_refused_citing_the_zero_rule():
    with pytest.raises(InvalidStake) as raised:
        settle(Wager("straight", (10,)), 3, 5)
    assert str(raised.value).startswith(
        "§ 617b.8(g): stake must be a positive even integer number of minor units, got 3"
    )
    assert raised.value.clause == "617b.8(g)"


@pytest.mark.parametrize(
    ("outcome", "shown"), [(13, "13"), (-1, "-1"), (True, "True (bool)"), (1.0, "1.0 (float)")]
)
def test_617b8_c_outcomes_must_be_wheel_numbers(outcome, shown):
    with pytest.raises(InvalidOutcome) as raised:
        settle(Wager("red"), 2, outcome)
    assert str(raised.value) == OUTCOME_MESSAGE.format(got=shown)
    with pytest.raises(InvalidOutcome):
        SettlementTable.for_().settle_many(outcome, [])


def test_settle_takes_wager_paytable_and_wheel_objects_only():
    with pytest.raises(TypeError, match="wager must be a jinzi.Wager"):
        settle("red", 2, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="paytable must be a jinzi.Paytable"):
        settle(Wager("red"), 2, 1, paytable=MINIMUM)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="wheel must be a jinzi.Wheel"):
        settle(Wager("red"), 2, 1, wheel=(0, 1))  # type: ignore[arg-type]


def test_compiled_tables_are_shared_per_paytable_and_wheel():
    assert SettlementTable.for_() is SettlementTable.for_(Paytable(MINIMUM), Wheel.standard())
    assert SettlementTable.for_() is not SettlementTable.for_(Paytable({**MINIMUM, "big": 2}))
    multiples = SettlementTable.for_().multiples(0)
    assert multiples[Wager("straight", (0,)).spot_index] == 12
    assert multiples[Wager("red").spot_index] == Fraction(1, 2)


def test_617b8_d_batch_settlement_rejects_malformed_bets():
    table = SettlementTable.for_()
    assert table.settle_many(3, []) == []
    assert table.settle_many(3, iter([(Wager("red"), 2)])) == [4]
    for bets in ([(Wager("red"), 2, 3)], [Wager("red")], [(Wager("red"),)]):
        with pytest.raises(TypeError, match=re.escape(BETS_NOT_PAIRS)):
            table.settle_many(3, bets)
    for spot in (52, -1, True, "red", 1.0):
        with pytest.raises(InvalidWager, match="is not one of the 52 legal spots"):
            table.settle_many(3, [(0, 2), (spot, 2)])
    with pytest.raises(ValueError, match=COLUMNS_MISMATCH.format(spots=2, stakes=1)):
        table.settle_columns(3, [0, 1], [2])


odds_strategy = st.fixed_dictionaries(
    {
        kind: st.one_of(
            st.integers(min_value=minimum, max_value=500),
            st.fractions(min_value=minimum, max_value=500, max_denominator=12),
        )
        for kind, minimum in MINIMUM.items()
    }
).map(Paytable)
wheel_strategy = st.permutations(range(1, 13)).map(lambda rest: Wheel((0, *rest)))
wager_strategy = st.sampled_from(legal_wagers())
stake_strategy = st.integers(min_value=1, max_value=10**9).map(lambda half: 2 * half)
outcome_strategy = st.integers(min_value=0, max_value=12)


@given(wager_strategy, stake_strategy, outcome_strategy, odds_strategy, wheel_strategy)
def test_settlement_is_never_negative_nor_more_than_the_best_win(
    wager, stake, outcome, paytable, wheel
):
    returned = settle(wager, stake, outcome, paytable=paytable, wheel=wheel)
    assert 0 <= returned <= math.ceil(stake * (paytable.max_odds + 1))
    assert returned >= stake * (paytable.odds(wager.kind) + 1) or returned <= stake // 2


@given(
    st.lists(st.tuples(st.one_of(wager_strategy, st.integers(0, 51)), stake_strategy), max_size=60),
    outcome_strategy,
    odds_strategy,
    wheel_strategy,
)
def test_batch_settlement_equals_single_settlement(bets, outcome, paytable, wheel):
    table = SettlementTable.for_(paytable, wheel)
    expected = [
        settle(
            spot if isinstance(spot, Wager) else legal_wagers()[spot],
            stake,
            outcome,
            paytable=paytable,
            wheel=wheel,
        )
        for spot, stake in bets
    ]
    assert table.settle_many(outcome, bets) == expected


def test_617b8_g_a_stake_of_1_is_refused_as_odd_citing_the_zero_rule():
    # 1 is positive: what is wrong with it is that half of it is no whole minor unit.
    with pytest.raises(InvalidStake) as raised:
        settle(Wager("red"), 1, 1)
    assert str(raised.value) == STAKE_ODD_MESSAGE.format(got=1)
    assert raised.value.clause == "617b.8(g)"


def test_what_was_given_instead_of_a_wager_paytable_or_wheel_is_shown_in_the_error():
    with pytest.raises(TypeError) as raised:
        settle("red", 2, 1)  # type: ignore[arg-type]
    assert str(raised.value) == NOT_A_WAGER.format(got="'red' (str)")
    with pytest.raises(TypeError) as raised:
        settle(Wager("red"), 2, 1, paytable=MINIMUM)  # type: ignore[arg-type]
    assert str(raised.value) == NOT_A_PAYTABLE.format(got=f"{MINIMUM!r} (dict)")
    with pytest.raises(TypeError) as raised:
        settle(Wager("red"), 2, 1, wheel=(0, 1))  # type: ignore[arg-type]
    assert str(raised.value) == NOT_A_WHEEL.format(got="(0, 1) (tuple)")


def test_617b8_f_c_a_compiled_table_is_of_the_paytable_and_wheel_it_was_given():
    generous = Paytable({**MINIMUM, "straight": 12})
    wheel = Wheel((0, *range(1, 13)), "black")
    for table in (SettlementTable(generous, wheel), SettlementTable.for_(generous, wheel)):
        assert table.paytable is generous
        assert table.wheel is wheel
    assert SettlementTable.for_().paytable is Paytable.minimum()
    assert SettlementTable.for_().wheel is Wheel.standard()


def test_617b8_g_whole_returns_per_half_stake_are_compiled_when_every_return_is_whole():
    # Under the minimum paytable every return is a whole multiple of half the stake (the
    # zero half-back is the only fraction), so the table keeps them as integers.
    table = SettlementTable.for_()
    assert table.per_half_stake == tuple(
        tuple(int(2 * multiple) for multiple in table.multiples(outcome)) for outcome in range(13)
    )
    assert table.per_half_stake[0][Wager("straight", (0,)).spot_index] == 24
    assert table.per_half_stake[0][Wager("red").spot_index] == 1
    assert table.per_half_stake[1][Wager("red").spot_index] == 4
    # Halves keep whole returns per half-stake (2 × 13/2 = 13); thirds do not (2 × 38/3).
    halves = SettlementTable.for_(Paytable({**MINIMUM, "split": Fraction(11, 2)}))
    assert halves.per_half_stake[1][Wager("split", (1, 2)).spot_index] == 13
    thirds = SettlementTable.for_(Paytable({**MINIMUM, "straight": Fraction(35, 3)}))
    assert thirds.per_half_stake is None
    assert thirds.settle(Wager("straight", (5,)), 2, 5) == 26  # rounded up, as settle pays


def test_617b8_d_spot_indices_already_in_range_are_used_as_given():
    indices = [0, 51, 17, 0]
    assert spot_indices(indices) is indices
    assert spot_indices([Wager("red"), Wager.at(0)]) == [Wager("red").spot_index, 0]
