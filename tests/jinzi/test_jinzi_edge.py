from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jinzi
from jinzi import (
    HoldRange,
    Paytable,
    SpotEdge,
    Stakes,
    Wager,
    Wheel,
    edge_table,
    format_percent,
    highest_edge,
    hold_range,
    house_edge,
    legal_wagers,
    lowest_edge,
    paytable_flags,
    return_variance,
    rounding_period,
    spot_edges,
)
from jinzi.edge import STAKES_NOT_MULTIPLE, STAKES_NOT_WHOLE, STAKES_ORDER
from jinzi.settlement import NOT_A_PAYTABLE, NOT_A_WHEEL

MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip
ON_ZERO = {
    "straight:0", "split:0-1", "split:0-2", "split:0-3",
    "three_numbers:0-1-2", "three_numbers:0-2-3",
}  # fmt: skip


@pytest.mark.parametrize("wager", legal_wagers(), ids=lambda w: w.spot)
@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_house_edge_of_every_legal_wager_under_the_minimum_paytable(wager):
    expected = Fraction(1, 13) if wager.spot in ON_ZERO else Fraction(1, 26)
    assert house_edge(wager) == expected
    assert house_edge(wager, stake=2) == expected
    assert house_edge(wager, stake=1000) == expected
    assert house_edge(wager, wheel=Wheel((0, *range(1, 13)))) == expected


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_edge_table_and_range_of_hold_under_the_minimum_paytable():
    rows = {row.kind: row for row in edge_table()}
    assert list(rows) == [
        "straight", "split", "street", "corner", "three_numbers",
        "column", "red", "black", "small", "big",
    ]  # fmt: skip
    straight = rows["straight"]
    assert (straight.odds, straight.spots) == (11, 13)
    assert (straight.lowest, straight.highest) == (Fraction(1, 26), Fraction(1, 13))
    assert (rows["split"].spots, rows["split"].lowest, rows["split"].highest) == (
        20,
        Fraction(1, 26),
        Fraction(1, 13),
    )
    assert rows["three_numbers"].uniform and rows["three_numbers"].lowest == Fraction(1, 13)
    for kind in ("street", "corner", "column", "red", "black", "small", "big"):
        assert rows[kind].uniform and rows[kind].lowest == Fraction(1, 26)
    # reading:expected-win: no mean over the 52 spots; the two edges a stake can earn.
    assert hold_range() == HoldRange(
        not_covering_zero=(Fraction(1, 26), Fraction(1, 26)),
        covering_zero=(Fraction(1, 13), Fraction(1, 13)),
    )
    assert not hasattr(jinzi, "theoretical_hold")


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_range_of_hold_under_a_more_generous_paytable_is_computed_per_spot():
    paytable = Paytable({**MINIMUM, "red": Fraction(21, 20), "three_numbers": Fraction(13, 4)})
    # Red: 1 − (6/13 × 41/20 + 1/13 × 1/2) = 1/65; three numbers: 1 − 3/13 × 17/4 = 1/52.
    assert hold_range(paytable) == HoldRange(
        not_covering_zero=(Fraction(1, 65), Fraction(1, 26)),
        covering_zero=(Fraction(1, 52), Fraction(1, 13)),
    )
    # Splits at 11 to 2: 1 − (2/13 × 13/2 + 1/26) = −1/26 off 0, 1 − 2/13 × 13/2 = 0 on it.
    flagged = Paytable({**MINIMUM, "split": Fraction(11, 2)})
    assert hold_range(flagged) == HoldRange(
        not_covering_zero=(Fraction(-1, 26), Fraction(1, 26)),
        covering_zero=(Fraction(0), Fraction(1, 13)),
    )


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_range_of_hold_is_the_extremes_of_the_spot_edges_on_and_off_zero():
    paytable = Paytable({**MINIMUM, "straight": Fraction(23, 2), "column": Fraction(11, 5)})
    wheel = Wheel((0, *range(1, 13)))
    edges = {w.spot: house_edge(w, paytable=paytable, wheel=wheel) for w in legal_wagers()}
    off = [edge for spot, edge in edges.items() if spot not in ON_ZERO]
    on = [edge for spot, edge in edges.items() if spot in ON_ZERO]
    assert hold_range(paytable, wheel) == HoldRange((min(off), max(off)), (min(on), max(on)))


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_a_more_generous_paytable_lowers_the_edge_and_is_not_flagged_while_positive():
    paytable = Paytable({**MINIMUM, "red": Fraction(21, 20)})
    assert house_edge(Wager("red"), paytable=paytable) == 1 - (
        Fraction(6, 13) * Fraction(41, 20) + Fraction(1, 26)
    )
    assert 0 < house_edge(Wager("red"), paytable=paytable) < Fraction(1, 26)
    assert paytable_flags(paytable) == ()
    assert paytable_flags() == ()


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_a_paytable_leaving_no_house_edge_is_flagged_spot_by_spot():
    paytable = Paytable({**MINIMUM, "straight": 12})
    flags = paytable_flags(paytable)
    assert {f.wager.spot for f in flags} == {f"straight:{n}" for n in range(13)}
    edges = {f.wager.spot: f.edge for f in flags}
    assert edges["straight:0"] == 0
    assert edges["straight:5"] == Fraction(-1, 26)
    assert flags[5].message == (
        "Straight up 5 has a house edge of -3.846 %: the paytable favours the player there "
        "and needs explicit approval"
    )


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_the_edge_of_a_particular_stake_reflects_rounding_in_the_players_favour():
    paytable = Paytable({**MINIMUM, "straight": Fraction(35, 3)})
    wager = Wager("straight", (5,))
    exact = house_edge(wager, paytable=paytable)
    assert exact == 1 - (Fraction(38, 3) + Fraction(1, 2)) / 13
    assert house_edge(wager, paytable=paytable, stake=6) == exact
    assert house_edge(wager, paytable=paytable, stake=2) == 1 - Fraction(26 + 1, 2 * 13)
    assert house_edge(wager, paytable=paytable, stake=2) < exact


def test_return_variance_is_exact():
    # Straight on 5: 12 with p 1/13, 1/2 with p 1/13 (zero), else 0.
    mean = Fraction(25, 26)
    second_moment = (144 + Fraction(1, 4)) / 13
    assert return_variance(Wager("straight", (5,))) == second_moment - mean**2
    assert return_variance(Wager("straight", (5,))) == Fraction(1719, 169)


def test_spot_edges_cover_the_52_spots_in_order():
    edges = spot_edges()
    assert [e.wager for e in edges] == list(legal_wagers())
    assert not any(e.flagged for e in edges)


def test_format_percent_is_for_display():
    assert format_percent(Fraction(1, 26)) == "3.846 %"
    assert format_percent(Fraction(1, 13), places=2) == "7.69 %"


def test_617b8_f_edge_table_of_a_more_generous_paytable_gives_its_odds_and_edges():
    paytable = Paytable({**MINIMUM, "split": Fraction(11, 2), "red": Fraction(21, 20)})
    rows = {row.kind: row for row in edge_table(paytable)}
    split, red, straight = rows["split"], rows["red"], rows["straight"]
    # Splits at 11 to 2: −1/26 off 0, 0 on it; red at 21 to 20: 1/65 (see above).
    assert (split.odds, split.spots, split.lowest, split.highest) == (
        Fraction(11, 2),
        20,
        Fraction(-1, 26),
        Fraction(0),
    )
    assert (red.odds, red.lowest, red.highest) == (
        Fraction(21, 20),
        Fraction(1, 65),
        Fraction(1, 65),
    )
    assert (straight.odds, straight.lowest, straight.highest) == (
        11,
        Fraction(1, 26),
        Fraction(1, 13),
    )


def test_617b8_f_return_variance_follows_the_paytable():
    # Straight on 5 at 12 to 1: 13 with p 1/13, 1/2 with p 1/13 (zero), else 0.
    paytable = Paytable({**MINIMUM, "straight": 12})
    mean = Fraction(27, 26)
    second_moment = (169 + Fraction(1, 4)) / 13
    variance = return_variance(Wager("straight", (5,)), paytable=paytable)
    assert variance == second_moment - mean**2 == Fraction(2018, 169)


EDGE_FIGURES = {
    "house_edge": lambda **setup: house_edge(Wager("red"), **setup),
    "house_edge at a stake": lambda **setup: house_edge(Wager("red"), stake=2, **setup),
    "return_variance": lambda **setup: return_variance(Wager("red"), **setup),
    "spot_edges": lambda **setup: spot_edges(**setup),
    "edge_table": lambda **setup: edge_table(**setup),
    "hold_range": lambda **setup: hold_range(**setup),
    "paytable_flags": lambda **setup: paytable_flags(**setup),
    "rounding_period": lambda **setup: rounding_period(Wager("red"), **setup),
    "lowest_edge": lambda **setup: lowest_edge(Wager("red"), **setup),
    "highest_edge": lambda **setup: highest_edge(Wager("red"), **setup),
}


@pytest.mark.parametrize("figure", list(EDGE_FIGURES))
def test_every_edge_figure_refuses_what_is_not_a_paytable_or_a_wheel(figure):
    work_out = EDGE_FIGURES[figure]
    with pytest.raises(TypeError) as raised:
        work_out(wheel=(0, 1))
    assert str(raised.value) == NOT_A_WHEEL.format(got="(0, 1) (tuple)")
    with pytest.raises(TypeError) as raised:
        work_out(paytable=MINIMUM)
    assert str(raised.value) == NOT_A_PAYTABLE.format(got=f"{MINIMUM!r} (dict)")


def test_reading_even_stakes_the_lowest_and_highest_stakes_are_allowed_themselves():
    stakes = Stakes(unit=100, lowest=200, highest=1_000)
    assert 200 in stakes and 1_000 in stakes
    assert 100 not in stakes and 1_100 not in stakes and 250 not in stakes
    assert Stakes(unit=4).lowest == 4  # the chip unit, unless a lowest stake is given
    assert 4 in Stakes(unit=4) and 2 not in Stakes(unit=4)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"lowest": 0}, STAKES_NOT_WHOLE.format(which="lowest", got="0")),
        ({"lowest": 4.0}, STAKES_NOT_WHOLE.format(which="lowest", got="4.0 (float)")),
        ({"highest": -2}, STAKES_NOT_WHOLE.format(which="highest", got="-2")),
        ({"highest": True}, STAKES_NOT_WHOLE.format(which="highest", got="True (bool)")),
        ({"lowest": 1}, STAKES_NOT_MULTIPLE.format(which="lowest", unit=2, got=1)),
        ({"highest": 7}, STAKES_NOT_MULTIPLE.format(which="highest", unit=2, got=7)),
        ({"lowest": 8, "highest": 4}, STAKES_ORDER.format(highest=4, lowest=8)),
        ({"highest": 0}, STAKES_NOT_WHOLE.format(which="highest", got="0")),
    ],
)
def test_reading_even_stakes_stakes_a_table_cannot_allow_are_refused_saying_why(given, message):
    with pytest.raises(jinzi.InvalidStake) as raised:
        Stakes(unit=2, **given)
    assert str(raised.value) == message


@pytest.mark.parametrize("find", [lowest_edge, highest_edge])
def test_reading_round_up_the_lowest_and_highest_edge_name_their_spot(find):
    paytable = Paytable({**MINIMUM, "split": Fraction(16, 3)})
    split = Wager("split", (1, 2))
    found = find(split, Stakes(2, 2, 20), paytable=paytable)
    assert found.wager == split
    assert found.stake in Stakes(2, 2, 20)
    assert found.edge == house_edge(split, paytable=paytable, stake=found.stake)


def _by_every_stake(wager, paytable, allowed):
    """(lowest edge, smallest stake with it), (highest edge, smallest stake with it), each
    stake paid as ``settle`` pays it."""
    edges = [(house_edge(wager, paytable=paytable, stake=s), s) for s in allowed]
    top = max(edge for edge, _ in edges)
    return min(edges), (top, min(s for edge, s in edges if edge == top))


def test_reading_round_up_a_high_first_stake_paid_exactly_is_not_the_lowest_edge():
    # Split 1-2 at 16 to 3 wins 19/3 of the stake: 600 is paid exactly; 602 × 19/3 =
    # 3,812.67 is paid 3,813, so the house keeps less there.
    paytable = Paytable({**MINIMUM, "split": Fraction(16, 3)})
    split = Wager("split", (1, 2))
    stakes = Stakes(unit=2, lowest=600, highest=602)

    low = lowest_edge(split, stakes, paytable=paytable)
    high = highest_edge(split, stakes, paytable=paytable)

    assert ((low.edge, low.stake), (high.edge, high.stake)) == _by_every_stake(
        split, paytable, (600, 602)
    )
    assert (low.stake, high.stake) == (602, 600)
    assert low.edge < high.edge == house_edge(split, paytable=paytable)


@given(
    spot=st.sampled_from(
        [
            "straight:5",
            "straight:0",
            "split:0-1",
            "split:4-5",
            "street:1-2-3",
            "three_numbers:0-2-3",
            "red",
        ]
    ),
    extra=st.fractions(min_value=0, max_value=3, max_denominator=40),
    unit=st.sampled_from([2, 4, 6, 10, 100]),
    first=st.integers(1, 500),
    count=st.one_of(st.none(), st.integers(1, 30)),
)
def test_reading_round_up_lowest_and_highest_edge_are_those_of_every_allowed_stake(
    spot, extra, unit, first, count
):
    wager = Wager.parse(spot)
    kind = wager.kind.value
    paytable = Paytable({**MINIMUM, kind: MINIMUM[kind] + extra})
    lowest = unit * first
    stakes = Stakes(unit, lowest, None if count is None else lowest + unit * (count - 1))
    # Without a highest stake, the rounding repeats within 40 stakes (the odds' denominator
    # is at most 40), and a larger stake only gains less: the first 81 hold both extremes.
    allowed = stakes.first(81 if count is None else count)

    low, high = _by_every_stake(wager, paytable, allowed)

    assert lowest_edge(wager, stakes, paytable=paytable) == SpotEdge(wager, *low)
    assert highest_edge(wager, stakes, paytable=paytable) == SpotEdge(wager, *high)
