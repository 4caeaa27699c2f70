import random

import pytest

from portal.game.services import wallet_top_up


class FixedBits:
    """An injected random source that yields the given raw values, in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def getrandbits(self, k: int) -> int:
        return self.values.pop(0)


@pytest.fixture
def funded_player(player):
    wallet_top_up(player=player, amount=100_000)
    return player


@pytest.fixture
def seeded_rng():
    return random.Random(617)
