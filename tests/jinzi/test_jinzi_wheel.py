import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jinzi
from jinzi import Colour, InvalidOutcome, RegulationError, Wager, Wheel
from jinzi.wheel import (
    COLOUR_UNKNOWN,
    COLOUR_WRONG,
    FIRST_COLOUR_WRONG,
    OUTCOME_MESSAGE,
    SEGMENT_UNREADABLE,
    WHEEL_NOT_A_NUMBER,
    WHEEL_NOT_FROM_ZERO,
    WHEEL_NOT_ONCE_EACH,
    WHEEL_NOT_SEQUENCE,
    WHEEL_OUT_OF_RANGE,
    WHEEL_UNREADABLE,
    WHEEL_WRONG_COUNT,
)

STANDARD = (0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6)

wheel_orders = st.permutations(range(1, 13)).map(lambda rest: (0, *rest))


def assert_wheel_rejected(order, message):
    with pytest.raises(RegulationError) as raised:
        Wheel(order)
    assert str(raised.value) == message
    assert raised.value.clause == "617b.8(c)"
    assert str(raised.value).startswith("§ 617b.8(c): ")


def test_617b8_c_standard_wheel_is_the_domain_demo_order():
    wheel = Wheel.standard()
    assert wheel.order == STANDARD
    assert wheel.red == frozenset({1, 3, 5, 8, 10, 12})
    assert wheel.black == frozenset({2, 4, 6, 7, 9, 11})


def test_617b8_c_zero_is_white_and_colours_compare_equal_to_plain_strings():
    wheel = Wheel.standard()
    assert wheel.color(0) == "white"
    assert wheel.color(1) == "red"
    assert wheel.color(7) == "black"
    assert wheel.color(1) is Colour.RED


@given(wheel_orders)
def test_617b8_c_colours_alternate_clockwise_starting_red_after_zero(order):
    wheel = Wheel(order)
    colours = [wheel.color(n) for n in order]
    assert colours[0] == "white"
    assert colours[1:] == ["red", "black"] * 6
    assert len(wheel.red) == len(wheel.black) == 6
    assert wheel.red | wheel.black == frozenset(range(1, 13))


@pytest.mark.clause("reading:wheel-order", kind="proves")
@given(wheel_orders, st.sampled_from(["black", Colour.BLACK]))
def test_617b8_c_a_black_first_wheel_is_accepted_and_alternates_from_black(order, first):
    wheel = Wheel(order, first=first)
    colours = [wheel.color(n) for n in order]
    assert wheel.first is Colour.BLACK
    assert colours[0] == "white"
    assert colours[1:] == ["black", "red"] * 6
    assert len(wheel.red) == len(wheel.black) == 6
    assert wheel.red | wheel.black == frozenset(range(1, 13))


@pytest.mark.clause("reading:wheel-order", kind="proves")
def test_617b8_c_black_first_swaps_the_standard_colours():
    wheel = Wheel(STANDARD, first="black")
    assert wheel.red == Wheel.standard().black == frozenset({2, 4, 6, 7, 9, 11})
    assert wheel.black == Wheel.standard().red
    assert wheel != Wheel.standard()  # same order, another wheel


@pytest.mark.clause("reading:wheel-order", kind="proves")
def test_617b8_c_red_first_is_the_default():
    assert Wheel(STANDARD).first is Colour.RED
    assert Wheel(STANDARD) == Wheel(STANDARD, first="red") == Wheel(STANDARD, Colour.RED)
    assert Wheel.standard().first is Colour.RED
    assert Wheel.from_text(Wheel.standard().text).first is Colour.RED


@pytest.mark.parametrize(
    ("first", "shown"),
    [("white", "'white' (str)"), ("green", "'green' (str)"), ("Black", "'Black' (str)"),
     (None, "None (NoneType)"), (1, "1")],
)  # fmt: skip
def test_617b8_c_a_first_colour_other_than_red_or_black_is_refused(first, shown):
    for build in (Wheel, Wheel.of, lambda o, f: Wheel.from_text(",".join(map(str, o)), f)):
        with pytest.raises(RegulationError) as raised:
            build(STANDARD, first)
        assert str(raised.value) == FIRST_COLOUR_WRONG.format(got=shown)
        assert raised.value.clause == "617b.8(c)"
        assert str(raised.value).startswith("§ 617b.8(c): ")


def test_617b8_c_of_shares_one_wheel_per_order_and_first_colour():
    black = Wheel.of(list(STANDARD), "black")
    assert black is Wheel.of(STANDARD, Colour.BLACK)
    assert black == Wheel(STANDARD, "black")
    assert Wheel.of(STANDARD) is Wheel.of(STANDARD, "red")
    assert Wheel.of(STANDARD) is not black


def test_617b8_c_from_text_carries_the_first_colour():
    wheel = Wheel.from_text("0,1,7,8,2,3,9,10,4,5,11,12,6", first="black")
    assert wheel == Wheel(STANDARD, "black")
    assert Wheel.from_text(wheel.text, wheel.first) == wheel


@pytest.mark.parametrize(
    ("kind", "outcome", "returned"),
    [("black", 1, 200), ("red", 1, 0), ("red", 2, 200), ("black", 2, 0),
     ("red", 0, 50), ("black", 0, 50)],
)  # fmt: skip
def test_617b8_c_red_and_black_bets_settle_by_the_black_first_wheel(kind, outcome, returned):
    wheel = Wheel(STANDARD, first="black")  # 1 black, 2 red (on the standard wheel: 1 red)
    assert jinzi.settle(Wager(kind), 100, outcome, wheel=wheel) == returned


def test_617b8_c_rejects_a_duplicated_number():
    order = (0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 5)
    assert_wheel_rejected(
        order, WHEEL_NOT_ONCE_EACH.format(problems="5 appears 2 times; missing 6")
    )
    assert "each number 0–12 must be used exactly once" in WHEEL_NOT_ONCE_EACH


def test_617b8_c_rejects_a_missing_number_as_twelve_compartments():
    order = STANDARD[:-1]
    assert_wheel_rejected(order, WHEEL_WRONG_COUNT.format(count=12))


def test_617b8_c_rejects_fourteen_compartments():
    assert_wheel_rejected((*STANDARD, 13), WHEEL_WRONG_COUNT.format(count=14))
    assert_wheel_rejected((*STANDARD, 6), WHEEL_WRONG_COUNT.format(count=14))


def test_617b8_c_rejects_an_order_not_starting_at_zero():
    rotated = STANDARD[1:] + STANDARD[:1]
    assert_wheel_rejected(rotated, WHEEL_NOT_FROM_ZERO.format(first=1))


def test_617b8_c_rejects_a_number_outside_zero_to_twelve():
    order = (0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 13, 6)
    assert_wheel_rejected(order, WHEEL_OUT_OF_RANGE.format(entry=12, number=13))


@pytest.mark.parametrize(
    ("entry", "shown"),
    [
        ("12", "'12' (str)"),
        (12.0, "12.0 (float)"),
        (True, "True (bool)"),
        (None, "None (NoneType)"),
    ],
)
def test_617b8_c_rejects_entries_that_are_not_whole_numbers(entry, shown):
    order = (*STANDARD[:11], entry, 6)
    assert_wheel_rejected(order, WHEEL_NOT_A_NUMBER.format(entry=12, got=shown))


@pytest.mark.parametrize("order", ["0,1,7,8,2,3,9,10,4,5,11,12,6", set(STANDARD), 13])
def test_617b8_c_rejects_an_order_that_is_not_a_sequence(order):
    with pytest.raises(RegulationError, match=r"^§ 617b\.8\(c\): a wheel is the clockwise order"):
        Wheel(order)
    assert "{got}" in WHEEL_NOT_SEQUENCE


def test_a_list_order_is_stored_as_a_tuple_and_wheels_compare_by_order():
    wheel = Wheel(list(STANDARD))
    assert wheel.order == STANDARD
    assert wheel == Wheel.standard()
    assert hash(wheel) == hash(Wheel.standard())
    assert len({wheel, Wheel.standard()}) == 1


def test_a_wheel_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Wheel.standard().order = STANDARD  # type: ignore[misc]


def test_from_text_reads_the_order_and_text_writes_it_back():
    wheel = Wheel.from_text(" 0, 1,7,8,2,3,9,10,4,5,11,12,6 ")
    assert wheel == Wheel.standard()
    assert Wheel.from_text(wheel.text) == wheel
    assert wheel.text == "0,1,7,8,2,3,9,10,4,5,11,12,6"


@pytest.mark.parametrize("text", ["0,1,7,8,2,3,9,10,4,5,11,12,x", "0;1;7", "", "0,1,-7", "0,1.0"])
def test_617b8_c_from_text_rejects_unreadable_text(text):
    with pytest.raises(RegulationError) as raised:
        Wheel.from_text(text)
    assert str(raised.value) == WHEEL_UNREADABLE.format(text=text)


def test_617b8_c_from_text_applies_the_same_rules_as_the_constructor():
    with pytest.raises(RegulationError, match="needs exactly 13 compartments, got 3"):
        Wheel.from_text("0,1,2")


def test_617b8_c_from_segments_accepts_a_correctly_coloured_wheel():
    segments = [(n, Wheel.standard().color(n).value.upper()) for n in STANDARD]
    assert Wheel.from_segments(segments) == Wheel.standard()


def test_617b8_c_from_segments_accepts_a_black_first_wheel():
    black_first = Wheel(STANDARD, "black")
    segments = [(n, str(black_first.color(n))) for n in STANDARD]
    assert segments[1] == (1, "black")
    assert Wheel.from_segments(segments) == black_first


@pytest.mark.parametrize(
    ("first", "index", "segment", "expected"),
    [
        ("red", 3, (8, "black"), "red"),  # colours that do not alternate
        ("red", 0, (0, "red"), "white"),  # a zero that is not white
        ("red", 1, (1, "white"), "red"),  # white after 0: neither colour, so red expected
        ("black", 4, (2, "black"), "red"),  # a black-first wheel alternates too
    ],
)
def test_617b8_c_from_segments_rejects_a_miscoloured_compartment(first, index, segment, expected):
    segments = [(n, str(Wheel(STANDARD, first).color(n))) for n in STANDARD]
    segments[index] = segment
    with pytest.raises(RegulationError) as raised:
        Wheel.from_segments(segments)
    number, colour = segment
    assert str(raised.value) == COLOUR_WRONG.format(number=number, colour=colour, expected=expected)


def test_617b8_c_from_segments_rejects_unknown_colours_and_malformed_segments():
    segments = [(n, str(Wheel.standard().color(n))) for n in STANDARD]
    with pytest.raises(RegulationError) as raised:
        Wheel.from_segments([*segments[:5], (3, "green"), *segments[6:]])
    assert str(raised.value) == COLOUR_UNKNOWN.format(number=3, colour="green")
    with pytest.raises(RegulationError) as raised:
        Wheel.from_segments([*segments[:5], 3, *segments[6:]])
    assert str(raised.value) == SEGMENT_UNREADABLE.format(entry=6, got="3")


@pytest.mark.parametrize(("outcome", "shown"), [(13, "13"), (-1, "-1"), (True, "True (bool)")])
def test_617b8_c_colour_of_something_not_on_the_wheel_is_refused(outcome, shown):
    with pytest.raises(InvalidOutcome) as raised:
        Wheel.standard().color(outcome)
    assert str(raised.value) == OUTCOME_MESSAGE.format(got=shown)


def test_position_counts_clockwise_from_zero():
    wheel = Wheel.standard()
    assert [wheel.position(n) for n in STANDARD] == list(range(13))


@pytest.mark.parametrize(("order", "shown"), [(13, "13"), ("0,1,2", "'0,1,2' (str)")])
def test_617b8_c_an_order_that_is_not_a_sequence_is_shown_in_the_error(order, shown):
    assert_wheel_rejected(order, WHEEL_NOT_SEQUENCE.format(got=shown))


def test_617b8_c_every_missing_number_is_named():
    order = (0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 1, 1)
    assert_wheel_rejected(
        order, WHEEL_NOT_ONCE_EACH.format(problems="1 appears 3 times; missing 6, 12")
    )


@pytest.mark.parametrize(("text", "shown"), [(5, "5"), (None, "None (NoneType)")])
def test_617b8_c_from_text_refuses_what_is_not_text_showing_it(text, shown):
    with pytest.raises(RegulationError) as raised:
        Wheel.from_text(text)
    assert str(raised.value) == WHEEL_NOT_SEQUENCE.format(got=shown)
    assert raised.value.clause == "617b.8(c)"


@pytest.mark.parametrize("colour", [None, 1, b"red", ("red",)])
def test_617b8_c_from_segments_refuses_a_colour_that_is_not_text(colour):
    segments = [(n, str(Wheel.standard().color(n))) for n in STANDARD]
    segments[3] = (8, colour)
    with pytest.raises(RegulationError) as raised:
        Wheel.from_segments(segments)
    assert str(raised.value) == COLOUR_UNKNOWN.format(number=8, colour=colour)
    assert raised.value.clause == "617b.8(c)"
