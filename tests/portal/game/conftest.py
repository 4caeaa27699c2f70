import random

import pytest


class FixedBits:
    """An injected random source that yields the given raw values, in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def getrandbits(self, k: int) -> int:
        return self.values.pop(0)


@pytest.fixture
def seeded_rng():
    return random.Random(617)
