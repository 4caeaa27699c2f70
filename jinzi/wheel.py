"""The wheel of § 617b.8(c): 13 compartments, numbers 0–12 once each, 0 white.

**Reading** (reading:wheel-order): a wheel is given as its clockwise order from 0,
plus the colour of the first compartment after 0 (``first``). (c) only says the
twelve coloured compartments alternate, so either colour may follow 0; the approved
layout records which, and red first is the default. Colours therefore follow from
position: positions 1, 3, …, 11 have the ``first`` colour and 2, 4, …, 12 the other,
so they always alternate and there are always six of each. A colouring read off a
physical wheel can be checked against this with ``Wheel.from_segments``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from jinzi.errors import InvalidOutcome, RegulationError, describe_value
from jinzi.game import CLAUSE_WHEEL, NUMBERS, WHEEL_SIZE, ZERO, cite


class Colour(StrEnum):
    WHITE = "white"
    RED = "red"
    BLACK = "black"


STANDARD_ORDER: tuple[int, ...] = (0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6)

OUTCOME_MESSAGE = cite(CLAUSE_WHEEL, "outcome must be a wheel number 0–12, got {got}")
WHEEL_NOT_SEQUENCE = cite(
    CLAUSE_WHEEL, "a wheel is the clockwise order of its 13 numbers from 0, got {got}"
)
WHEEL_WRONG_COUNT = cite(CLAUSE_WHEEL, "the wheel needs exactly 13 compartments, got {count}")
WHEEL_NOT_A_NUMBER = cite(
    CLAUSE_WHEEL, "entry {entry} of the wheel order is {got}, not a whole number"
)
WHEEL_OUT_OF_RANGE = cite(
    CLAUSE_WHEEL, "entry {entry} of the wheel order is {number}, outside 0–12"
)
WHEEL_NOT_ONCE_EACH = cite(CLAUSE_WHEEL, "each number 0–12 must be used exactly once: {problems}")
WHEEL_NOT_FROM_ZERO = cite(
    CLAUSE_WHEEL, "give the wheel clockwise starting at 0; it starts at {first}"
)
WHEEL_UNREADABLE = cite(
    CLAUSE_WHEEL,
    "cannot read wheel order {text!r}: expected 13 whole numbers separated by commas, "
    "e.g. '0,1,7,8,2,3,9,10,4,5,11,12,6'",
)
SEGMENT_UNREADABLE = cite(
    CLAUSE_WHEEL, "segment {entry} must be a (number, colour) pair, got {got}"
)
COLOUR_UNKNOWN = cite(
    CLAUSE_WHEEL, "compartment {number} has colour {colour!r}; expected white, red or black"
)
COLOUR_WRONG = cite(
    CLAUSE_WHEEL,
    "compartment {number} is {colour} but must be {expected}: 0 is white and the others "
    "alternate red and black clockwise",
)
FIRST_COLOUR_WRONG = cite(
    CLAUSE_WHEEL,
    "the first compartment after 0 must be 'red' or 'black' (the others alternate from it), "
    "got {got}",
)


def check_outcome(outcome: object) -> int:
    """Return ``outcome`` if it is a wheel number (an int 0–12, not a bool)."""
    if type(outcome) is int and 0 <= outcome < WHEEL_SIZE:
        return outcome
    raise InvalidOutcome(OUTCOME_MESSAGE.format(got=describe_value(outcome)))


def _wheel_error(message: str) -> RegulationError:
    return RegulationError(message, clause=CLAUSE_WHEEL)


def _checked_order(order: object) -> tuple[int, ...]:
    if isinstance(order, str | bytes) or not isinstance(order, Sequence):
        raise _wheel_error(WHEEL_NOT_SEQUENCE.format(got=describe_value(order)))
    if len(order) != WHEEL_SIZE:
        raise _wheel_error(WHEEL_WRONG_COUNT.format(count=len(order)))
    for entry, number in enumerate(order, start=1):
        if type(number) is not int:
            raise _wheel_error(WHEEL_NOT_A_NUMBER.format(entry=entry, got=describe_value(number)))
        if not 0 <= number < WHEEL_SIZE:
            raise _wheel_error(WHEEL_OUT_OF_RANGE.format(entry=entry, number=number))
    counts = Counter(order)
    problems = [f"{n} appears {counts[n]} times" for n in NUMBERS if counts[n] > 1]
    missing = [str(n) for n in NUMBERS if n not in counts]
    if missing:
        problems.append("missing " + ", ".join(missing))
    if problems:
        raise _wheel_error(WHEEL_NOT_ONCE_EACH.format(problems="; ".join(problems)))
    if order[0] != ZERO:
        raise _wheel_error(WHEEL_NOT_FROM_ZERO.format(first=order[0]))
    return tuple(order)


def _checked_first(first: object) -> Colour:
    # Colour is a StrEnum, so "red" and Colour.RED are the same value here.
    if isinstance(first, str) and first in (Colour.RED, Colour.BLACK):
        return Colour(first)
    raise _wheel_error(FIRST_COLOUR_WRONG.format(got=describe_value(first)))


@dataclass(frozen=True, slots=True)
class Wheel:
    """A wheel given as its clockwise order from 0 and the colour of the compartment after
    0; equal and hashable by those two."""

    order: tuple[int, ...]
    first: Colour = Colour.RED
    red: frozenset[int] = field(init=False, repr=False, compare=False)
    black: frozenset[int] = field(init=False, repr=False, compare=False)
    _colours: tuple[Colour, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        order = _checked_order(self.order)
        first = _checked_first(self.first)
        red, black = frozenset(order[1::2]), frozenset(order[2::2])
        if first is Colour.BLACK:
            red, black = black, red
        colours = tuple(
            Colour.RED if n in red else Colour.BLACK if n in black else Colour.WHITE
            for n in NUMBERS
        )
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "red", red)
        object.__setattr__(self, "black", black)
        object.__setattr__(self, "_colours", colours)

    @classmethod
    def of(cls, order: object, first: object = Colour.RED) -> Wheel:
        """``Wheel(order, first)``, sharing one instance per value (a wheel is immutable).

        Every round reads its layout's wheel; this checks each distinct wheel once.
        Only a list or tuple of whole numbers with a text colour is remembered; anything
        else is checked (and refused) by the constructor itself.
        """
        if (
            type(order) in (list, tuple)
            and all(type(n) is int for n in order)
            and isinstance(first, str)
        ):
            return _shared_wheel(tuple(order), first)
        return cls(order, first)  # type: ignore[arg-type]

    @classmethod
    def standard(cls) -> Wheel:
        """The demo/default wheel (reading:wheel-order): red {1,3,5,8,10,12}."""
        return STANDARD_WHEEL

    @classmethod
    def from_text(cls, text: str, first: object = Colour.RED) -> Wheel:
        """Read ``"0,1,7,8,2,3,9,10,4,5,11,12,6"`` (spaces around commas allowed); the text
        is the order only, so the first colour comes beside it, as ``first``."""
        if not isinstance(text, str):
            raise _wheel_error(WHEEL_NOT_SEQUENCE.format(got=describe_value(text)))
        tokens = [token.strip() for token in text.split(",")]
        if not all(token.isascii() and token.isdigit() for token in tokens):
            raise _wheel_error(WHEEL_UNREADABLE.format(text=text))
        return cls(tuple(int(token) for token in tokens), first)  # type: ignore[arg-type]

    @classmethod
    def from_segments(cls, segments: Iterable[tuple[int, str]]) -> Wheel:
        """Build a wheel from (number, colour) pairs read clockwise from 0, checking the
        colours: 0 white, then red and black alternately from the colour of the first
        compartment after 0, whichever it is (reading:wheel-order)."""
        pairs = list(segments)
        for entry, pair in enumerate(pairs, start=1):
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise _wheel_error(SEGMENT_UNREADABLE.format(entry=entry, got=describe_value(pair)))
        order = _checked_order(tuple(number for number, _ in pairs))
        colours = []
        for number, colour in pairs:
            try:
                colours.append(Colour(colour.lower()) if isinstance(colour, str) else None)
            except ValueError:
                colours.append(None)
            if colours[-1] is None:
                raise _wheel_error(COLOUR_UNKNOWN.format(number=number, colour=colour))
        # The compartment after 0 sets which colour comes first; if it is white, the
        # default (red) is expected and the check below names it.
        first = colours[1] if colours[1] in (Colour.RED, Colour.BLACK) else Colour.RED
        wheel = cls(order, first)
        for number, given in zip(order, colours, strict=True):
            expected = wheel.color(number)
            if given != expected:
                raise _wheel_error(
                    COLOUR_WRONG.format(number=number, colour=given, expected=expected)
                )
        return wheel

    @property
    def text(self) -> str:
        """The order as ``from_text`` reads it (``first`` is not part of it)."""
        return ",".join(map(str, self.order))

    def color(self, number: int) -> Colour:
        """``Colour.WHITE`` for 0, else red or black by position on this wheel."""
        return self._colours[check_outcome(number)]

    def position(self, number: int) -> int:
        """Clockwise position of ``number`` counted from 0 (which is at position 0)."""
        return self.order.index(check_outcome(number))


STANDARD_WHEEL = Wheel(STANDARD_ORDER)


@functools.lru_cache(maxsize=256)
def _shared_wheel(order: tuple[int, ...], first: str) -> Wheel:
    # "red" and Colour.RED hash and compare equal, so they share one entry.
    return Wheel(order, first)  # type: ignore[arg-type]
