import random

import pytest

from portal.game.play.services import round_play
from tests.portal.factories import in_session

TEN_STRAIGHTS = [{"kind": "straight", "numbers": [n], "stake": 200} for n in range(10)]


class FixedBits:
    """An injected random source that yields the given raw values, in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def getrandbits(self, k: int) -> int:
        return self.values.pop(0)


@pytest.fixture
def seeded_rng():
    return random.Random(617)


def play_round(player, offering, key, wagers=TEN_STRAIGHTS, outcome=3, session=None):
    """``round_play`` with the wheel fixed on ``outcome``, in ``session`` (its id) or a new
    session of the player's, begun now."""
    return round_play(
        player=player,
        session=session if session is not None else in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=key,
        rng=FixedBits(outcome),
    )
