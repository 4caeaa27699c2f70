import dataclasses
import json
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jinzi import (
    WAGER_KINDS,
    InvalidPaytable,
    InvalidWager,
    Paytable,
    RegulationError,
    WagerKind,
    format_odds,
)
from jinzi.paytable import (
    BELOW_MINIMUM,
    MAX_ODDS,
    MISSING_KINDS,
    NOT_A_MAPPING,
    ODDS_NOT_EXACT,
    ODDS_TOO_LARGE,
    ODDS_UNREADABLE,
    UNKNOWN_KINDS,
)

# § 617b.8(f), as published.
MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip
LABELS = {kind.value: kind.label for kind in WagerKind}


def with_odds(**changes):
    return {**MINIMUM, **changes}


def test_617b8_f_minimum_paytable_is_the_published_table():
    assert {kind: Paytable.minimum().odds(kind) for kind in WAGER_KINDS} == MINIMUM
    assert Paytable(MINIMUM) == Paytable.minimum()
    assert Paytable.minimum().is_minimum


@pytest.mark.parametrize("kind", WAGER_KINDS)
def test_617b8_f_odds_below_the_minimum_are_rejected_naming_kind_given_and_minimum(kind):
    given = MINIMUM[kind] - 1
    with pytest.raises(RegulationError) as raised:
        Paytable(with_odds(**{kind: given}))
    label = LABELS[kind]
    expected = f"§ 617b.8(f): {label} pays {given} to 1, below the minimum {MINIMUM[kind]} to 1"
    assert str(raised.value) == expected
    assert str(raised.value) == BELOW_MINIMUM.format(
        label=label, given=f"{given} to 1", minimum=f"{MINIMUM[kind]} to 1"
    )
    assert raised.value.clause == "617b.8(f)"


def test_617b8_f_straight_up_at_ten_to_one_is_rejected_with_the_documented_message():
    with pytest.raises(RegulationError) as raised:
        Paytable(with_odds(straight=10))
    assert str(raised.value) == "§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1"


def test_617b8_f_fractional_odds_below_the_minimum_are_shown_in_lowest_terms():
    with pytest.raises(RegulationError) as raised:
        Paytable(with_odds(straight=Fraction(21, 2)))
    assert str(raised.value) == "§ 617b.8(f): Straight up pays 21 to 2, below the minimum 11 to 1"


def test_617b8_f_every_kind_below_the_minimum_is_named_in_one_message():
    with pytest.raises(RegulationError) as raised:
        Paytable(with_odds(straight=10, big=0))
    assert str(raised.value) == (
        "§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1; "
        "Big pays 0 to 1, below the minimum 1 to 1"
    )


@pytest.mark.parametrize("odds", [0, -1, -11, Fraction(-23, 2)])
def test_617b8_f_zero_and_negative_odds_are_below_the_minimum(odds):
    with pytest.raises(RegulationError, match=r"^§ 617b\.8\(f\): Straight up pays -?\d+ to \d+"):
        Paytable(with_odds(straight=odds))


def test_617b8_f_a_missing_kind_is_rejected():
    odds = dict(MINIMUM)
    del odds["corner"], odds["big"]
    with pytest.raises(RegulationError) as raised:
        Paytable(odds)
    assert str(raised.value) == MISSING_KINDS.format(labels="Corner, Big")
    assert str(raised.value).startswith("§ 617b.8(f): ")
    assert raised.value.clause == "617b.8(f)"


def test_617b8_f_an_unknown_kind_is_rejected():
    with pytest.raises(InvalidPaytable) as raised:
        Paytable(with_odds(foo=3, **{"7": 1}))
    assert str(raised.value) == UNKNOWN_KINDS.format(kinds="'foo', '7'")
    assert raised.value.clause == "617b.8(f)"
    with pytest.raises(InvalidPaytable, match=r"unknown wager kinds 7;"):
        Paytable({**MINIMUM, 7: 1})


@pytest.mark.parametrize(
    ("odds", "shown"),
    [
        (11.0, "11.0 (float)"),
        (11.5, "11.5 (float)"),
        (Decimal("11"), "Decimal('11') (Decimal)"),
        ("11", "'11' (str)"),
        (True, "True (bool)"),
        (None, "None (NoneType)"),
    ],
)
def test_odds_that_are_not_exact_numbers_are_refused_not_coerced(odds, shown):
    with pytest.raises(InvalidPaytable) as raised:
        Paytable(with_odds(straight=odds))
    assert str(raised.value) == ODDS_NOT_EXACT.format(label="Straight up", got=shown)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("odds", [[("straight", 11)], "straight=11", None])
def test_a_paytable_must_be_a_mapping(odds):
    with pytest.raises(InvalidPaytable) as raised:
        Paytable(odds)
    assert str(raised.value).startswith(NOT_A_MAPPING.split("{")[0])


def test_617b8_f_a_more_generous_paytable_is_accepted_and_exact():
    paytable = Paytable(with_odds(straight=Fraction(23, 2), split=6, red=Fraction(2, 1)))
    assert paytable.odds("straight") == Fraction(23, 2)
    assert paytable.odds(WagerKind.SPLIT) == 6
    assert isinstance(paytable.odds("red"), Fraction)
    assert paytable.max_odds == Fraction(23, 2)
    assert not paytable.is_minimum


def test_paytables_are_immutable_and_hashable_by_their_odds():
    a = Paytable(with_odds(straight=12))
    b = Paytable(with_odds(straight=Fraction(24, 2)))
    assert a == b
    assert hash(a) == hash(b)
    assert a != Paytable.minimum()
    with pytest.raises(dataclasses.FrozenInstanceError):
        a._odds = ()  # type: ignore[misc]


def test_617b8_d_asking_for_the_odds_of_an_unknown_kind_is_an_invalid_wager():
    with pytest.raises(InvalidWager, match="unknown wager kind 'foo'"):
        Paytable.minimum().odds("foo")


def test_as_dict_writes_odds_as_strings_and_from_dict_reads_them_back():
    paytable = Paytable(with_odds(straight=Fraction(23, 2), split=6))
    stored = paytable.as_dict()
    assert stored["straight"] == "23/2"
    assert stored["split"] == "6"
    assert list(stored) == list(WAGER_KINDS)
    assert Paytable.from_dict(json.loads(json.dumps(stored))) == paytable
    assert Paytable.from_dict(with_odds(split="11/2")).odds("split") == Fraction(11, 2)
    assert Paytable.from_dict(MINIMUM) == Paytable.minimum()


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("11.5", "'11.5' (str)"),
        (11.5, "11.5 (float)"),
        (11.0, "11.0 (float)"),
        (" 11", "' 11' (str)"),
        ("-1", "'-1' (str)"),
        ("1/0", "'1/0' (str)"),
        ("23/2/1", "'23/2/1' (str)"),
        ("", "'' (str)"),
        ("eleven", "'eleven' (str)"),
        ("１１", "'１１' (str)"),
        ("1234567890", "'1234567890' (str)"),
        (True, "True (bool)"),
        (None, "None (NoneType)"),
        ([11], "[11] (list)"),
    ],
)
def test_from_dict_refuses_anything_but_an_int_or_an_exact_odds_string(value, shown):
    with pytest.raises(InvalidPaytable) as raised:
        Paytable.from_dict(with_odds(straight=value))
    assert str(raised.value) == ODDS_UNREADABLE.format(label="Straight up", got=shown)


def test_617b8_f_from_dict_applies_the_minimum():
    with pytest.raises(RegulationError, match=r"Straight up pays 21 to 2, below the minimum 11"):
        Paytable.from_dict(with_odds(straight="21/2"))


def test_format_odds_reads_as_n_to_1_or_in_lowest_terms():
    assert format_odds(11) == "11 to 1"
    assert format_odds(Fraction(23, 2)) == "23 to 2"
    assert format_odds(Fraction(46, 4)) == "23 to 2"


generous_odds = st.fixed_dictionaries(
    {
        kind: st.one_of(
            st.integers(min_value=minimum, max_value=1000),
            st.fractions(min_value=minimum, max_value=1000, max_denominator=50),
        )
        for kind, minimum in MINIMUM.items()
    }
)


@given(generous_odds)
def test_617b8_f_any_paytable_at_or_above_the_minimum_round_trips_through_json(odds):
    paytable = Paytable(odds)
    assert Paytable.from_dict(json.loads(json.dumps(paytable.as_dict()))) == paytable
    assert all(paytable.odds(kind) >= MINIMUM[kind] for kind in WAGER_KINDS)


@pytest.mark.parametrize("huge", [10**9, 10**30, Fraction(10**12, 7)])
def test_617b8_f_absurdly_large_odds_are_refused(huge):
    import jinzi

    odds = {kind.value: minimum for kind, minimum in jinzi.MINIMUM_ODDS.items()}
    odds["straight"] = huge

    with pytest.raises(jinzi.InvalidPaytable, match="below 1,000,000,000 to 1"):
        jinzi.Paytable(odds)
    with pytest.raises(jinzi.InvalidPaytable):
        jinzi.Paytable.from_dict({**{k: str(v) for k, v in odds.items()}, "straight": huge})


@pytest.mark.parametrize(
    ("odds", "shown"),
    [(None, "None (NoneType)"), ([("straight", 11)], "[('straight', 11)] (list)")],
)
def test_what_was_given_instead_of_a_paytable_is_shown_in_the_error(odds, shown):
    for read in (Paytable, Paytable.from_dict):
        with pytest.raises(InvalidPaytable) as raised:
            read(odds)
        assert str(raised.value) == NOT_A_MAPPING.format(got=shown)


def test_617b8_f_an_unknown_kind_that_is_not_text_is_shown_with_its_type():
    with pytest.raises(InvalidPaytable) as raised:
        Paytable({**MINIMUM, None: 1, 1.5: 2})
    assert str(raised.value) == UNKNOWN_KINDS.format(kinds="None (NoneType), 1.5 (float)")
    assert raised.value.clause == "617b.8(f)"


@pytest.mark.parametrize("read", [Paytable, Paytable.from_dict])
def test_odds_too_large_are_refused_naming_the_kind_and_the_odds(read):
    with pytest.raises(InvalidPaytable) as raised:
        read(with_odds(split=10**9))
    assert str(raised.value) == ODDS_TOO_LARGE.format(label="Split", limit=MAX_ODDS, got=10**9)
    assert str(raised.value) == "odds for Split must be below 1,000,000,000 to 1, got 1000000000"
