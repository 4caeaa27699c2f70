from fractions import Fraction

import pytest

import jinzi
from jinzi import (
    HoldRange,
    Paytable,
    Wager,
    Wheel,
    edge_table,
    format_percent,
    hold_range,
    house_edge,
    legal_wagers,
    paytable_flags,
    return_variance,
    spot_edges,
)

MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip
ON_ZERO = {
    "straight:0", "split:0-1", "split:0-2", "split:0-3",
    "three_numbers:0-1-2", "three_numbers:0-2-3",
}  # fmt: skip


@pytest.mark.parametrize("wager", legal_wagers(), ids=lambda w: w.spot)
def test_617b8_f_house_edge_of_every_legal_wager_under_the_minimum_paytable(wager):
    expected = Fraction(1, 13) if wager.spot in ON_ZERO else Fraction(1, 26)
    assert house_edge(wager) == expected
    assert house_edge(wager, stake=2) == expected
    assert house_edge(wager, stake=1000) == expected
    assert house_edge(wager, wheel=Wheel((0, *range(1, 13)))) == expected


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


def test_617b8_f_g_range_of_hold_is_the_extremes_of_the_spot_edges_on_and_off_zero():
    paytable = Paytable({**MINIMUM, "straight": Fraction(23, 2), "column": Fraction(11, 5)})
    wheel = Wheel((0, *range(1, 13)))
    edges = {w.spot: house_edge(w, paytable=paytable, wheel=wheel) for w in legal_wagers()}
    off = [edge for spot, edge in edges.items() if spot not in ON_ZERO]
    on = [edge for spot, edge in edges.items() if spot in ON_ZERO]
    assert hold_range(paytable, wheel) == HoldRange((min(off), max(off)), (min(on), max(on)))


def test_617b8_f_a_more_generous_paytable_lowers_the_edge_and_is_not_flagged_while_positive():
    paytable = Paytable({**MINIMUM, "red": Fraction(21, 20)})
    assert house_edge(Wager("red"), paytable=paytable) == 1 - (
        Fraction(6, 13) * Fraction(41, 20) + Fraction(1, 26)
    )
    assert 0 < house_edge(Wager("red"), paytable=paytable) < Fraction(1, 26)
    assert paytable_flags(paytable) == ()
    assert paytable_flags() == ()


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
