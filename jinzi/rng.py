"""The random outcome: § 617b.8(a) and (e), and the RNG standard of § 810a.5.

Outcomes come from the operating system's CSPRNG through ``secrets``. Four random
bits give a raw value 0–15; values 13–15 are rejected and drawn again, so each of
0–12 has probability exactly 1/13. A raw value is never reduced with ``% 13``,
which would favour 0, 1 and 2. The accepted raw value, the outcome and the method
are recorded for each round (``Draw``).

Tests and simulations may inject a source of random bits: any object with
``getrandbits(k)`` (``random.Random(seed)``, ``random.SystemRandom()``) or
``randbits(k)``. The method recorded then names that source, so a record never
claims the CSPRNG when it was not used.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from jinzi.errors import RandomSourceError, describe_value
from jinzi.game import WHEEL_SIZE

RAW_BITS = 4
RAW_LIMIT = 1 << RAW_BITS
RNG_METHOD = "secrets.randbits(4), values 13-15 rejected and redrawn"
INJECTED_METHOD = "{source}.{call}(4), values 13-15 rejected and redrawn (injected source)"

NO_RANDBITS = "rng must have a getrandbits(k) or randbits(k) method like random.Random, got {got}"
BAD_RAW = "the random source returned {got} for 4 bits, not a whole number 0–15"
BAD_COUNT = "count must be a non-negative whole number, got {got}"


class RandomBits(Protocol):
    def getrandbits(self, k: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class Draw:
    """One RNG draw as recorded with a round: the accepted raw value, the outcome it
    became (the same number: only rejection scales it) and how it was drawn."""

    raw: int
    outcome: int
    method: str


def _source(rng: RandomBits | None) -> tuple[Callable[[int], int], str]:
    if rng is None:
        return secrets.randbits, RNG_METHOD
    for call in ("getrandbits", "randbits"):
        randbits = getattr(rng, call, None)
        if callable(randbits):
            return randbits, INJECTED_METHOD.format(source=type(rng).__qualname__, call=call)
    raise RandomSourceError(NO_RANDBITS.format(got=describe_value(rng)))


def _accepted(randbits: Callable[[int], int]) -> int:
    while True:
        raw = randbits(RAW_BITS)
        if type(raw) is not int or not 0 <= raw < RAW_LIMIT:
            raise RandomSourceError(BAD_RAW.format(got=describe_value(raw)))
        if raw < WHEEL_SIZE:
            return raw


def draw(rng: RandomBits | None = None) -> Draw:
    """Draw one outcome, after "no more bets" (§ 617b.8(e), § 617a.5), and say how."""
    randbits, method = _source(rng)
    raw = _accepted(randbits)
    return Draw(raw=raw, outcome=raw, method=method)


def spin(rng: RandomBits | None = None) -> int:
    """Draw one outcome 0–12."""
    return draw(rng).outcome


def spins(count: int, rng: RandomBits | None = None) -> list[int]:
    """``count`` independent outcomes by the same method as ``draw``, for simulations
    and for testing the distribution."""
    if type(count) is not int or count < 0:
        raise ValueError(BAD_COUNT.format(got=describe_value(count)))
    randbits, _ = _source(rng)
    return [_accepted(randbits) for _ in range(count)]
