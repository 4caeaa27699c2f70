"""``Wager.of``, ``Wheel.of`` and ``Paytable.of``: the constructors' results, shared.

The hot path reads the same spots, wheel and paytable on every round; these return one
immutable instance per value, and anything unusual goes through the constructor, so a
refusal reads exactly as before.
"""

from __future__ import annotations

import pytest

import jinzi
from jinzi import hold, paytable, settlement, wheel


@pytest.mark.parametrize("wager", jinzi.legal_wagers(), ids=lambda w: w.spot)
def test_every_legal_spot_comes_back_equal_to_the_constructors(wager):
    for numbers in (wager.numbers, list(wager.numbers), tuple(reversed(wager.numbers))):
        shared = jinzi.Wager.of(wager.kind.value, numbers)
        assert shared == jinzi.Wager(wager.kind.value, numbers)
        assert shared.spot_index == wager.spot_index
        assert shared is jinzi.Wager.of(wager.kind.value, wager.numbers)
    assert jinzi.Wager.parse(wager.spot) is jinzi.Wager.of(wager.kind.value, wager.numbers)


@pytest.mark.parametrize(
    ("kind", "numbers"),
    [
        ("split", (1, 5)),
        ("corner", (1, 2, 3, 4)),
        ("straight", (13,)),
        ("straight", (True,)),  # a bool equals 1, but is not a number on the layout
        ("straight", (1.0,)),
        ("red", (1,)),
        ("split", (1, 1)),
        ("roulette", ()),
        (None, ()),
        ("straight", "7"),
        ("straight", ([1],)),
    ],
)
def test_617b8_d_anything_else_is_refused_exactly_as_by_the_constructor(kind, numbers):
    with pytest.raises(jinzi.InvalidWager) as direct:
        jinzi.Wager(kind, numbers)
    with pytest.raises(jinzi.InvalidWager) as shared:
        jinzi.Wager.of(kind, numbers)

    assert str(shared.value) == str(direct.value)


def test_a_wheel_is_shared_per_order():
    order = list(jinzi.STANDARD_ORDER)

    assert jinzi.Wheel.of(order) is jinzi.Wheel.of(tuple(order))
    assert jinzi.Wheel.of(order) == jinzi.Wheel(tuple(order))


@pytest.mark.parametrize(
    "order", [[0, 1, 2], [0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, True], "0,1,2", None]
)
def test_617b8_c_a_bad_wheel_is_refused_exactly_as_by_the_constructor(order):
    with pytest.raises(jinzi.JinziError) as direct:
        jinzi.Wheel(order)
    with pytest.raises(jinzi.JinziError) as shared:
        jinzi.Wheel.of(order)

    assert str(shared.value) == str(direct.value)


def test_a_paytable_is_shared_per_stored_form():
    stored = jinzi.Paytable.minimum().as_dict()
    generous = {**stored, "split": "11/2", "straight": 12}

    assert jinzi.Paytable.of(stored) is jinzi.Paytable.of(dict(reversed(stored.items())))
    assert jinzi.Paytable.of(stored) == jinzi.Paytable.minimum()
    assert jinzi.Paytable.of(generous) == jinzi.Paytable.from_dict(generous)
    assert jinzi.Paytable.of(generous) is not jinzi.Paytable.of(stored)


@pytest.mark.parametrize(
    "stored",
    [
        {**jinzi.Paytable.minimum().as_dict(), "straight": 10},  # below the minimum
        {**jinzi.Paytable.minimum().as_dict(), "straight": [11]},
        {"straight": 11},
        ["straight", 11],
    ],
)
def test_617b8_f_a_bad_paytable_is_refused_exactly_as_by_from_dict(stored):
    with pytest.raises(jinzi.JinziError) as direct:
        jinzi.Paytable.from_dict(stored)
    with pytest.raises(jinzi.JinziError) as shared:
        jinzi.Paytable.of(stored)

    assert str(shared.value) == str(direct.value)


@pytest.mark.parametrize("round_", [1, 2])
def test_every_test_starts_with_the_shared_instances_forgotten(round_):
    # tests/jinzi/conftest.py empties the engine's caches before each test, so no test reads
    # a table compiled by code other than its own (under `make mutation`, by other code).
    caches = (
        settlement._compiled,
        hold._compiled,
        paytable._shared_paytable,
        wheel._shared_wheel,
    )
    assert [cache.cache_info().currsize for cache in caches] == [0, 0, 0, 0]
    jinzi.RoundMomentsTable.for_()
    jinzi.Paytable.of(jinzi.Paytable.minimum().as_dict())
    jinzi.Wheel.of(list(jinzi.STANDARD_ORDER))
    assert [cache.cache_info().currsize for cache in caches] == [1, 1, 1, 1]
