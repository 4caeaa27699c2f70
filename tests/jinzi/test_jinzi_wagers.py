import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jinzi import (
    KIND_LABELS,
    WAGER_KINDS,
    InvalidWager,
    JinziError,
    Wager,
    WagerKind,
    Wheel,
    legal_wagers,
)
from jinzi.wagers import (
    COLUMN_NOT_A_COLUMN,
    CORNER_NOT_A_BLOCK,
    DUPLICATE_NUMBER,
    NOT_A_WHOLE_NUMBER,
    NUMBERS_NOT_A_SEQUENCE,
    OUT_OF_RANGE,
    SPLIT_NOT_ADJACENT,
    SPOT_INDEX_OUT_OF_RANGE,
    SPOT_UNREADABLE,
    STRAIGHT_WRONG_COUNT,
    STREET_NOT_A_ROW,
    TAKES_NO_NUMBERS,
    THREE_NUMBERS_NOT_ALLOWED,
    UNKNOWN_KIND,
    WRONG_COUNT,
)

# Written out from the layout in DOMAIN.md, not computed by jinzi.
SPLITS = {
    (0, 1), (0, 2), (0, 3),
    (1, 2), (2, 3), (4, 5), (5, 6), (7, 8), (8, 9), (10, 11), (11, 12),
    (1, 4), (4, 7), (7, 10), (2, 5), (5, 8), (8, 11), (3, 6), (6, 9), (9, 12),
}  # fmt: skip
STREETS = {(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)}
CORNERS = {
    (1, 2, 4, 5), (2, 3, 5, 6), (4, 5, 7, 8), (5, 6, 8, 9), (7, 8, 10, 11), (8, 9, 11, 12),
}  # fmt: skip
THREE_NUMBERS = {(0, 1, 2), (0, 2, 3)}
COLUMNS = {(1, 4, 7, 10), (2, 5, 8, 11), (3, 6, 9, 12)}


def numbers_of(kind):
    return {w.numbers for w in legal_wagers() if w.kind == kind}


def test_wager_kinds_are_the_ten_of_617b8_d_in_order_with_their_labels():
    assert WAGER_KINDS == (
        "straight", "split", "street", "corner", "three_numbers",
        "column", "red", "black", "small", "big",
    )  # fmt: skip
    assert tuple(WagerKind) == WAGER_KINDS
    assert [kind.label for kind in WagerKind] == [
        "Straight up", "Split", "Street", "Corner", "Three numbers",
        "Column", "Red", "Black", "Small", "Big",
    ]  # fmt: skip
    assert KIND_LABELS[WagerKind.THREE_NUMBERS] == "Three numbers"


def test_617b8_d_there_are_52_legal_spots():
    counts = {kind: len(numbers_of(kind)) for kind in WAGER_KINDS}
    assert counts == {
        "straight": 13, "split": 20, "street": 4, "corner": 6, "three_numbers": 2,
        "column": 3, "red": 1, "black": 1, "small": 1, "big": 1,
    }  # fmt: skip
    assert len(legal_wagers()) == 52
    assert len(set(legal_wagers())) == 52


def test_617b8_d_splits_are_the_pairs_next_to_each_other_on_the_layout():
    assert numbers_of("split") == SPLITS


def test_617b8_d_streets_corners_three_numbers_and_columns_follow_the_layout():
    assert numbers_of("street") == STREETS
    assert numbers_of("corner") == CORNERS
    assert numbers_of("three_numbers") == THREE_NUMBERS
    assert numbers_of("column") == COLUMNS
    assert numbers_of("straight") == {(n,) for n in range(13)}
    for kind in ("red", "black", "small", "big"):
        assert numbers_of(kind) == {()}


def test_legal_wagers_are_ordered_by_kind_then_numbers_and_indexed_in_that_order():
    wagers = legal_wagers()
    keys = [(WAGER_KINDS.index(w.kind), w.numbers) for w in wagers]
    assert keys == sorted(keys)
    assert [w.spot_index for w in wagers] == list(range(52))
    assert all(Wager.at(w.spot_index) is w for w in wagers)


def test_numbers_are_normalised_so_equal_wagers_compare_and_hash_equal():
    assert Wager("split", (2, 1)) == Wager("split", (1, 2))
    assert hash(Wager("split", (2, 1))) == hash(Wager(WagerKind.SPLIT, [1, 2]))
    assert Wager("corner", (5, 4, 2, 1)).numbers == (1, 2, 4, 5)
    assert Wager("red").kind is WagerKind.RED
    assert Wager("split", (2, 1)) != Wager("split", (2, 3))


def test_a_wager_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Wager("red").kind = WagerKind.BLACK  # type: ignore[misc]


def test_spot_ids_round_trip_for_every_legal_wager():
    for wager in legal_wagers():
        assert Wager.parse(wager.spot) == wager
    assert Wager("split", (2, 1)).spot == "split:1-2"
    assert Wager("red").spot == "red"
    assert Wager("three_numbers", (0, 2, 3)).label == "Three numbers 0-2-3"
    assert Wager("small").label == "Small"


@pytest.mark.parametrize("text", ["split:1-", "split:a-b", "split:1--2", "straight:", "split:1,2"])
def test_617b8_d_unreadable_spot_ids_are_refused(text):
    with pytest.raises(InvalidWager) as raised:
        Wager.parse(text)
    assert str(raised.value) == SPOT_UNREADABLE.format(text=repr(text))


def test_617b8_d_parse_applies_the_same_rules_as_the_constructor():
    with pytest.raises(InvalidWager, match="split 1-5: numbers are not next to each other"):
        Wager.parse("split:1-5")
    with pytest.raises(InvalidWager, match="unknown wager kind 'foo'"):
        Wager.parse("foo:1")


ILLEGAL = [
    (("split", (1, 5)), SPLIT_NOT_ADJACENT.format(spot="1-5")),
    (("split", (3, 4)), SPLIT_NOT_ADJACENT.format(spot="3-4")),
    (("split", (0, 4)), SPLIT_NOT_ADJACENT.format(spot="0-4")),
    (("split", (1, 2, 3)), WRONG_COUNT.format(label="split", needed=2, count=3)),
    (("street", (1, 2, 4)), STREET_NOT_A_ROW.format(spot="1-2-4")),
    (("street", (1, 4, 7)), STREET_NOT_A_ROW.format(spot="1-4-7")),
    (("street", (0, 1, 2)), STREET_NOT_A_ROW.format(spot="0-1-2")),
    (("street", (1, 2)), WRONG_COUNT.format(label="street", needed=3, count=2)),
    (("corner", (1, 2, 3, 4)), CORNER_NOT_A_BLOCK.format(spot="1-2-3-4")),
    (("corner", (3, 4, 6, 7)), CORNER_NOT_A_BLOCK.format(spot="3-4-6-7")),
    (("corner", (0, 1, 2, 3)), CORNER_NOT_A_BLOCK.format(spot="0-1-2-3")),
    (("corner", (1, 2, 4)), WRONG_COUNT.format(label="corner", needed=4, count=3)),
    (("three_numbers", (0, 1, 3)), THREE_NUMBERS_NOT_ALLOWED.format(spot="0-1-3")),
    (("three_numbers", (1, 2, 3)), THREE_NUMBERS_NOT_ALLOWED.format(spot="1-2-3")),
    (("three_numbers", (0, 1)), WRONG_COUNT.format(label="three numbers", needed=3, count=2)),
    (("column", (1, 4, 7)), WRONG_COUNT.format(label="column", needed=4, count=3)),
    (("column", (1, 4, 7, 11)), COLUMN_NOT_A_COLUMN.format(spot="1-4-7-11")),
    (("straight", (13,)), OUT_OF_RANGE.format(number=13)),
    (("straight", (-1,)), OUT_OF_RANGE.format(number=-1)),
    (("straight", ()), STRAIGHT_WRONG_COUNT.format(count=0)),
    (("straight", (1, 2)), STRAIGHT_WRONG_COUNT.format(count=2)),
    (("split", (4, 4)), DUPLICATE_NUMBER.format(label="split", spot="4-4", number=4)),
    (("red", (1,)), TAKES_NO_NUMBERS.format(label="red", count=1)),
    (("black", (2, 4)), TAKES_NO_NUMBERS.format(label="black", count=2)),
    (("small", (1, 2, 3, 4, 5, 6)), TAKES_NO_NUMBERS.format(label="small", count=6)),
    (("big", (7,)), TAKES_NO_NUMBERS.format(label="big", count=1)),
    (("foo", ()), UNKNOWN_KIND.format(kind="'foo'")),
    (("Straight", (1,)), UNKNOWN_KIND.format(kind="'Straight'")),
    ((1, ()), UNKNOWN_KIND.format(kind="1")),
    (("straight", (True,)), NOT_A_WHOLE_NUMBER.format(label="straight up", got="True (bool)")),
    (("straight", (1.0,)), NOT_A_WHOLE_NUMBER.format(label="straight up", got="1.0 (float)")),
    (("split", ("1", 2)), NOT_A_WHOLE_NUMBER.format(label="split", got="'1' (str)")),
    (("straight", 5), NUMBERS_NOT_A_SEQUENCE.format(label="straight up", got="5")),
    (("split", "12"), NUMBERS_NOT_A_SEQUENCE.format(label="split", got="'12' (str)")),
]


@pytest.mark.parametrize(("args", "message"), ILLEGAL, ids=[repr(a) for a, _ in ILLEGAL])
def test_617b8_d_illegal_wagers_are_rejected_saying_what_is_wrong(args, message):
    with pytest.raises(InvalidWager) as raised:
        Wager(*args)
    assert str(raised.value) == message
    assert str(raised.value).startswith("§ 617b.8(d): ")
    assert raised.value.clause == "617b.8(d)"
    assert isinstance(raised.value, ValueError)
    assert isinstance(raised.value, JinziError)


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("split", (1, 5)), "split 1-5: numbers are not next to each other on the layout"),
        (("corner", (1, 2, 3, 4)), "corner 1-2-3-4 is not a 2×2 block"),
        (("column", (1, 4, 7)), "column needs 4 numbers, got 3"),
        (("straight", (13,)), "number 13 is outside 0–12"),
        (("split", (4, 4)), "duplicate number 4"),
        (("red", (1,)), "red takes no numbers"),
        (("foo", ()), "unknown wager kind 'foo'; expected one of straight, split, street"),
    ],
)
def test_617b8_d_messages_read_as_documented(args, text):
    with pytest.raises(InvalidWager) as raised:
        Wager(*args)
    assert text in str(raised.value)


@given(
    st.sampled_from(WAGER_KINDS),
    st.lists(st.integers(min_value=0, max_value=12), max_size=5, unique=True),
)
def test_617b8_d_a_wager_builds_exactly_when_its_spot_is_legal(kind, numbers):
    legal = {(w.kind, w.numbers) for w in legal_wagers()}
    try:
        wager = Wager(kind, tuple(numbers))
    except InvalidWager as error:
        assert (kind, tuple(sorted(numbers))) not in legal
        assert str(error).startswith("§ 617b.8(d): ")
    else:
        assert (wager.kind, wager.numbers) in legal


def test_617b8_d_inside_wagers_cover_their_numbers_and_outside_wagers_their_sets():
    assert Wager("corner", (1, 2, 4, 5)).covers() == {1, 2, 4, 5}
    assert Wager("small").covers() == {1, 2, 3, 4, 5, 6}
    assert Wager("big").covers() == {7, 8, 9, 10, 11, 12}
    assert Wager("red").covers() == {1, 3, 5, 8, 10, 12}
    assert Wager("black").covers() == {2, 4, 6, 7, 9, 11}


def test_617b8_d_red_and_black_coverage_follows_the_wheel():
    wheel = Wheel((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))
    assert Wager("red").covers(wheel) == {1, 3, 5, 7, 9, 11}
    assert Wager("black").covers(wheel) == {2, 4, 6, 8, 10, 12}
    assert Wager("small").covers(wheel) == {1, 2, 3, 4, 5, 6}


def test_617b8_g_wagers_placed_on_zero_are_the_six_spots_covering_zero():
    on_zero = {w.spot for w in legal_wagers() if w.covers_zero}
    assert on_zero == {
        "straight:0", "split:0-1", "split:0-2", "split:0-3",
        "three_numbers:0-1-2", "three_numbers:0-2-3",
    }  # fmt: skip
    assert all((0 in w.covers()) == w.covers_zero for w in legal_wagers())


@pytest.mark.parametrize(("index", "shown"), [(52, "52"), (-1, "-1"), (True, "True (bool)")])
def test_617b8_d_a_spot_index_outside_the_legal_spots_is_refused(index, shown):
    with pytest.raises(InvalidWager) as raised:
        Wager.at(index)
    assert str(raised.value) == SPOT_INDEX_OUT_OF_RANGE.format(got=shown)
