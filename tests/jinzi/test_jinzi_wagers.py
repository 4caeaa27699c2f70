import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jinzi import (
    KIND_LABELS,
    STANDARD_ORDER,
    WAGER_KINDS,
    InvalidWager,
    JinziError,
    Wager,
    WagerKind,
    Wheel,
    legal_wagers,
    settle,
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

# Written out from the layout (0 above four rows of three, § 617b.8(d)), not computed by jinzi.
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


def test_617b8_d_wager_kinds_are_the_ten_in_order_with_their_labels():
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


@pytest.mark.clause("reading:zero-splits", kind="proves")
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


@pytest.mark.clause("reading:placed-on-zero", kind="proves")
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


# --- One test per wager kind of § 617b.8(d) ---------------------------------------------
# Each proves the kind's legal spots exactly, worked out from the layout of § 617b.8(d)
# written here by hand (not from jinzi), and one illegal spot of that kind refused with the
# error naming what is wrong.

GRID = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12))  # rows top to bottom, 0 above
BLACK_FIRST = Wheel(STANDARD_ORDER, first="black")


def refusal(kind, numbers=()):
    with pytest.raises(InvalidWager) as raised:
        Wager(kind, numbers)
    assert raised.value.clause == "617b.8(d)"
    return str(raised.value)


def test_617b8_d_1_straight_up_is_each_number_0_to_12_alone():
    assert numbers_of("straight") == {(n,) for n in range(13)}
    assert len([w for w in legal_wagers() if w.kind == "straight"]) == 13
    for number in range(13):
        assert Wager("straight", (number,)).covers() == {number}
    assert refusal("straight", (13,)) == OUT_OF_RANGE.format(number=13)
    assert refusal("straight", (1, 2)) == STRAIGHT_WRONG_COUNT.format(count=2)


@pytest.mark.clause("reading:zero-splits", kind="proves")
def test_617b8_d_2_splits_are_the_20_pairs_next_to_each_other_on_the_layout():
    across = {(row[i], row[i + 1]) for row in GRID for i in range(2)}
    down = {(GRID[r][c], GRID[r + 1][c]) for r in range(3) for c in range(3)}
    from_zero = {(0, n) for n in GRID[0]}
    assert (len(across), len(down), len(from_zero)) == (8, 9, 3)
    assert across | down | from_zero == SPLITS
    assert numbers_of("split") == SPLITS
    assert len([w for w in legal_wagers() if w.kind == "split"]) == 20
    assert {(0, 1), (0, 2), (0, 3)} <= numbers_of("split")
    assert refusal("split", (1, 5)) == SPLIT_NOT_ADJACENT.format(spot="1-5")  # diagonal
    assert refusal("split", (3, 4)) == SPLIT_NOT_ADJACENT.format(spot="3-4")  # row ends
    assert refusal("split", (0, 4)) == SPLIT_NOT_ADJACENT.format(spot="0-4")


def test_617b8_d_3_streets_are_the_4_rows_of_the_layout():
    assert set(GRID) == STREETS
    assert numbers_of("street") == STREETS
    assert len([w for w in legal_wagers() if w.kind == "street"]) == 4
    assert Wager("street", (10, 11, 12)).covers() == {10, 11, 12}
    assert refusal("street", (1, 4, 7)) == STREET_NOT_A_ROW.format(spot="1-4-7")
    assert refusal("street", (0, 1, 2)) == STREET_NOT_A_ROW.format(spot="0-1-2")


def test_617b8_d_4_corners_are_the_6_two_by_two_blocks_of_the_layout():
    blocks = {
        tuple(sorted((GRID[r][c], GRID[r][c + 1], GRID[r + 1][c], GRID[r + 1][c + 1])))
        for r in range(3)
        for c in range(2)
    }
    assert len(blocks) == 6
    assert blocks == CORNERS
    assert numbers_of("corner") == CORNERS
    assert len([w for w in legal_wagers() if w.kind == "corner"]) == 6
    assert Wager("corner", (5, 6, 8, 9)).covers() == {5, 6, 8, 9}
    assert refusal("corner", (1, 2, 3, 4)) == CORNER_NOT_A_BLOCK.format(spot="1-2-3-4")
    assert refusal("corner", (3, 4, 6, 7)) == CORNER_NOT_A_BLOCK.format(spot="3-4-6-7")


def test_617b8_d_5_three_numbers_are_exactly_0_1_2_and_0_2_3():
    assert {(0, 1, 2), (0, 2, 3)} == THREE_NUMBERS
    assert numbers_of("three_numbers") == {(0, 1, 2), (0, 2, 3)}
    assert len([w for w in legal_wagers() if w.kind == "three_numbers"]) == 2
    assert Wager("three_numbers", (3, 2, 0)).covers() == {0, 2, 3}
    assert refusal("three_numbers", (0, 1, 3)) == THREE_NUMBERS_NOT_ALLOWED.format(spot="0-1-3")
    assert refusal("three_numbers", (1, 2, 3)) == THREE_NUMBERS_NOT_ALLOWED.format(spot="1-2-3")


def test_617b8_d_6_columns_hold_the_four_numbers_of_each_column():
    columns = {tuple(column) for column in zip(*GRID, strict=True)}
    assert all(len(column) == 4 for column in columns)
    assert columns == COLUMNS
    assert numbers_of("column") == COLUMNS
    assert len([w for w in legal_wagers() if w.kind == "column"]) == 3
    assert Wager("column", (3, 6, 9, 12)).covers() == {3, 6, 9, 12}
    assert refusal("column", (1, 4, 7)) == WRONG_COUNT.format(label="column", needed=4, count=3)
    assert refusal("column", (1, 4, 7, 11)) == COLUMN_NOT_A_COLUMN.format(spot="1-4-7-11")


# Red and black by hand: the compartments after 0 alternate from the first colour, so on the
# demo wheel 0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6 the 1st, 3rd, … (1, 8, 3, 10, 5, 12)
# have the first colour and the 2nd, 4th, … (7, 2, 9, 4, 11, 6) the other.
DEMO_FIRST = {1, 3, 5, 8, 10, 12}
DEMO_SECOND = {2, 4, 6, 7, 9, 11}


def _wins_of(kind, wheel):
    return {n for n in range(13) if settle(Wager(kind), 2, n, wheel=wheel) == 4}


def test_617b8_d_7_red_covers_the_wheels_red_numbers_red_first_or_black_first():
    assert STANDARD_ORDER == (0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6)
    assert numbers_of("red") == {()}
    assert len([w for w in legal_wagers() if w.kind == "red"]) == 1
    for wheel, red in ((Wheel.standard(), DEMO_FIRST), (BLACK_FIRST, DEMO_SECOND)):
        assert Wager("red").covers(wheel) == red
        assert {n for n in range(13) if wheel.color(n) == "red"} == red
        assert _wins_of("red", wheel) == red
    assert refusal("red", (1,)) == TAKES_NO_NUMBERS.format(label="red", count=1)


def test_617b8_d_8_black_covers_the_wheels_black_numbers_red_first_or_black_first():
    assert numbers_of("black") == {()}
    assert len([w for w in legal_wagers() if w.kind == "black"]) == 1
    for wheel, black in ((Wheel.standard(), DEMO_SECOND), (BLACK_FIRST, DEMO_FIRST)):
        assert Wager("black").covers(wheel) == black
        assert {n for n in range(13) if wheel.color(n) == "black"} == black
        assert _wins_of("black", wheel) == black
    assert refusal("black", (2, 4)) == TAKES_NO_NUMBERS.format(label="black", count=2)


def test_617b8_d_9_small_covers_1_to_6_on_any_wheel():
    assert numbers_of("small") == {()}
    assert len([w for w in legal_wagers() if w.kind == "small"]) == 1
    for wheel in (Wheel.standard(), BLACK_FIRST):
        assert Wager("small").covers(wheel) == {1, 2, 3, 4, 5, 6}
        assert _wins_of("small", wheel) == {1, 2, 3, 4, 5, 6}
    assert refusal("small", (1, 2, 3, 4, 5, 6)) == TAKES_NO_NUMBERS.format(label="small", count=6)


def test_617b8_d_10_big_covers_7_to_12_on_any_wheel():
    assert numbers_of("big") == {()}
    assert len([w for w in legal_wagers() if w.kind == "big"]) == 1
    for wheel in (Wheel.standard(), BLACK_FIRST):
        assert Wager("big").covers(wheel) == {7, 8, 9, 10, 11, 12}
        assert _wins_of("big", wheel) == {7, 8, 9, 10, 11, 12}
    assert refusal("big", (7,)) == TAKES_NO_NUMBERS.format(label="big", count=1)


def test_reading_corner_block_0_1_2_3_is_no_corner():
    # (d)(4)'s "contiguous boxes" could take in 0's box above 1, 2 and 3; we refuse it.
    assert (0, 1, 2, 3) not in numbers_of("corner")
    assert all(0 not in corner for corner in numbers_of("corner"))
    assert refusal("corner", (0, 1, 2, 3)) == CORNER_NOT_A_BLOCK.format(spot="0-1-2-3")
    with pytest.raises(InvalidWager, match="corner 0-1-2-3 is not a 2×2 block"):
        Wager.parse("corner:0-1-2-3")


@pytest.mark.parametrize(
    ("kind", "shown"), [(None, "None (NoneType)"), (1.5, "1.5 (float)"), ("Red", "'Red'")]
)
def test_617b8_d_an_unknown_kind_is_shown_with_its_type_unless_it_is_text(kind, shown):
    assert refusal(kind) == UNKNOWN_KIND.format(kind=shown)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (5, SPOT_UNREADABLE.format(text="5")),
        (None, SPOT_UNREADABLE.format(text="None (NoneType)")),
        ("split:1:2", SPOT_UNREADABLE.format(text="'split:1:2'")),
        ("straight", STRAIGHT_WRONG_COUNT.format(count=0)),
        ("split", WRONG_COUNT.format(label="split", needed=2, count=0)),
        ("red:", SPOT_UNREADABLE.format(text="'red:'")),
    ],
)
def test_617b8_d_a_spot_id_that_names_no_legal_spot_is_refused_saying_why(text, message):
    with pytest.raises(InvalidWager) as raised:
        Wager.parse(text)
    assert str(raised.value) == message
    assert raised.value.clause == "617b.8(d)"
