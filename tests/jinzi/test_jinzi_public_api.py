import datetime

import jinzi


def test_the_public_names_all_resolve():
    for name in jinzi.__all__:
        assert hasattr(jinzi, name), name


def test_game_constants():
    assert jinzi.GAME_NAME == "Jinzi Roulette"
    assert jinzi.__version__ == "1.0.0"
    effective, sunset, numbers = jinzi.EFFECTIVE, jinzi.SUNSET, jinzi.NUMBERS
    assert effective == datetime.date(2025, 6, 14)
    assert sunset == datetime.date(2028, 6, 14)
    assert numbers == tuple(range(13))


def test_the_regulation_is_in_force_from_its_effective_date_until_its_sunset():
    assert not jinzi.in_force(datetime.date(2025, 6, 13))
    assert jinzi.in_force(datetime.date(2025, 6, 14))
    assert jinzi.in_force(datetime.date(2028, 6, 13))
    assert not jinzi.in_force(datetime.date(2028, 6, 14))


def test_exception_hierarchy():
    assert issubclass(jinzi.RegulationError, jinzi.JinziError)
    for error in (jinzi.InvalidWager, jinzi.InvalidStake, jinzi.InvalidOutcome):
        assert issubclass(error, jinzi.JinziError)
        assert issubclass(error, ValueError)
    assert issubclass(jinzi.InvalidPaytable, ValueError)
    assert issubclass(jinzi.RandomSourceError, jinzi.JinziError)
    error = jinzi.RegulationError("§ 617b.8(f): x", clause="617b.8(f)")
    assert (error.clause, error.message) == ("617b.8(f)", "§ 617b.8(f): x")


def test_layout_constants():
    assert jinzi.LAYOUT_ROWS == ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12))
    assert jinzi.LAYOUT_COLUMNS == ((1, 4, 7, 10), (2, 5, 8, 11), (3, 6, 9, 12))
    assert jinzi.SPOT_COUNT == 52


def test_value_objects_survive_pickling_for_caches_and_task_queues():
    import pickle

    paytable = jinzi.Paytable.from_dict({**jinzi.Paytable.minimum().as_dict(), "split": "11/2"})
    for value in (jinzi.Wager("split", (1, 2)), jinzi.Wheel.standard(), paytable):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value
        assert hash(copy) == hash(value)
    assert pickle.loads(pickle.dumps(jinzi.Wager("red"))).covers() == {1, 3, 5, 8, 10, 12}
