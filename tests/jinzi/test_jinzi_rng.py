import ast
import random
import secrets
from collections import Counter
from pathlib import Path

import pytest

import jinzi
from jinzi import RNG_METHOD, Draw, RandomSourceError, draw, spin, spins
from jinzi.rng import BAD_COUNT, BAD_RAW, NO_RANDBITS

SEED = 6178
CHI_SQUARE_99_12_DOF = 26.217


class ScriptedBits:
    """A random source that returns the given raw values, in order."""

    def __init__(self, values):
        self.values = list(values)
        self.calls = []

    def randbits(self, k):
        self.calls.append(k)
        return self.values.pop(0)


def chi_square(outcomes):
    counts = Counter(outcomes)
    assert set(counts) <= set(range(13))
    expected = len(outcomes) / 13
    return sum((counts[n] - expected) ** 2 / expected for n in range(13))


def test_617b8_e_outcomes_are_uniform_at_the_99_percent_level_over_a_million_draws():
    outcomes = spins(1_000_000, random.Random(SEED))
    assert len(outcomes) == 1_000_000
    assert chi_square(outcomes) < CHI_SQUARE_99_12_DOF


def test_617b8_e_the_real_csprng_is_roughly_uniform():
    # Loose bound: about 1e-7 chance of failing for a uniform source.
    assert chi_square(spins(130_000)) < 60


def test_617b8_e_draws_come_from_the_os_csprng_by_default(monkeypatch):
    source = ScriptedBits([9])
    monkeypatch.setattr(secrets, "randbits", source.randbits)
    assert draw() == Draw(raw=9, outcome=9, method=RNG_METHOD)
    assert source.calls == [4]
    assert "secrets.randbits(4)" in RNG_METHOD


def test_617b8_e_raw_values_13_to_15_are_rejected_and_drawn_again():
    source = ScriptedBits([13, 14, 15, 7])
    result = draw(source)
    assert (result.raw, result.outcome) == (7, 7)
    assert source.calls == [4, 4, 4, 4]


def test_617b8_e_no_modulo_scaling_15_then_3_gives_3():
    assert draw(ScriptedBits([15, 3])).outcome == 3  # 15 % 13 would have been 2


def test_617b8_e_every_raw_value_below_13_is_the_outcome_itself():
    assert [spin(ScriptedBits([n])) for n in range(13)] == list(range(13))


def test_617b8_e_the_rng_module_never_uses_modulo():
    tree = ast.parse(Path(jinzi.rng.__file__).read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Mod)]


def test_an_injected_source_is_named_in_the_recorded_method():
    assert draw(random.Random(1)).method == (
        "Random.getrandbits(4), values 13-15 rejected and redrawn (injected source)"
    )
    assert draw(ScriptedBits([1])).method.startswith("ScriptedBits.randbits(4)")


def test_a_seeded_source_gives_the_same_draws():
    assert spins(50, random.Random(SEED)) == spins(50, random.Random(SEED))
    assert [spin(random.Random(SEED))] == spins(1, random.Random(SEED))


@pytest.mark.parametrize("raw", [16, -1, 3.0, None, True])
def test_a_source_returning_something_other_than_four_bits_is_refused(raw):
    with pytest.raises(RandomSourceError, match="not a whole number 0–15"):
        draw(ScriptedBits([raw]))


def test_a_source_without_randbits_is_refused():
    with pytest.raises(RandomSourceError, match="must have a getrandbits"):
        draw(object())


@pytest.mark.parametrize("count", [-1, 1.0, True])
def test_spins_needs_a_whole_count(count):
    with pytest.raises(ValueError, match="count must be a non-negative whole number"):
        spins(count)


def test_no_spins_are_an_empty_list():
    assert spins(0) == []
    assert spins(0, ScriptedBits([])) == []


def test_what_the_random_source_or_the_count_was_is_shown_in_the_error():
    with pytest.raises(RandomSourceError) as raised:
        draw(ScriptedBits([16]))
    assert str(raised.value) == BAD_RAW.format(got="16")
    with pytest.raises(RandomSourceError) as raised:
        draw("dice")
    assert str(raised.value) == NO_RANDBITS.format(got="'dice' (str)")
    with pytest.raises(ValueError) as raised:
        spins(-1)
    assert str(raised.value) == BAD_COUNT.format(got="-1")
