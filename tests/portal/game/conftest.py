import datetime
import random

import pytest
import time_machine

from portal.game.play.services import round_play
from tests.portal.factories import in_session

# Where the tests of sessions and their notice start the clock: 10:00 EST, 3 March 2027.
SESSION_START = datetime.datetime(2027, 3, 3, 15, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> time_machine.travel:
    """The clock ``minutes`` after ``SESSION_START``, standing still."""
    return time_machine.travel(SESSION_START + datetime.timedelta(minutes=minutes), tick=False)


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
