"""The ten wagers of § 617b.8(d) and the 52 legal bet spots on the layout (§ 617a.3).

A ``Wager`` is validated when it is built, so an illegal one never exists: a
split of 1-5, a corner of 1-2-3-4 or a column of three numbers is an
``InvalidWager`` naming what is wrong, never a silent loss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from jinzi.errors import InvalidWager, describe_value
from jinzi.game import CLAUSE_WAGERS, NUMBERS, WHEEL_SIZE, ZERO, cite
from jinzi.layout import (
    BIG_NUMBERS,
    COLUMNS,
    CORNERS,
    SMALL_NUMBERS,
    SPLITS,
    STREETS,
    THREE_NUMBER_SETS,
)
from jinzi.wheel import STANDARD_WHEEL, Wheel


class WagerKind(StrEnum):
    STRAIGHT = "straight"
    SPLIT = "split"
    STREET = "street"
    CORNER = "corner"
    THREE_NUMBERS = "three_numbers"
    COLUMN = "column"
    RED = "red"
    BLACK = "black"
    SMALL = "small"
    BIG = "big"

    @property
    def label(self) -> str:
        """The name the regulation gives the wager, e.g. "Straight up"."""
        return KIND_LABELS[self]


WAGER_KINDS: tuple[str, ...] = tuple(kind.value for kind in WagerKind)

KIND_LABELS: Mapping[WagerKind, str] = MappingProxyType(
    {
        WagerKind.STRAIGHT: "Straight up",
        WagerKind.SPLIT: "Split",
        WagerKind.STREET: "Street",
        WagerKind.CORNER: "Corner",
        WagerKind.THREE_NUMBERS: "Three numbers",
        WagerKind.COLUMN: "Column",
        WagerKind.RED: "Red",
        WagerKind.BLACK: "Black",
        WagerKind.SMALL: "Small",
        WagerKind.BIG: "Big",
    }
)

# The number tuples each kind may be placed on, sorted; outside bets take none.
LEGAL_NUMBERS: Mapping[WagerKind, tuple[tuple[int, ...], ...]] = MappingProxyType(
    {
        WagerKind.STRAIGHT: tuple((n,) for n in NUMBERS),
        WagerKind.SPLIT: SPLITS,
        WagerKind.STREET: STREETS,
        WagerKind.CORNER: CORNERS,
        WagerKind.THREE_NUMBERS: THREE_NUMBER_SETS,
        WagerKind.COLUMN: COLUMNS,
        WagerKind.RED: ((),),
        WagerKind.BLACK: ((),),
        WagerKind.SMALL: ((),),
        WagerKind.BIG: ((),),
    }
)
NUMBER_COUNTS: Mapping[WagerKind, int] = MappingProxyType(
    {kind: len(spots[0]) for kind, spots in LEGAL_NUMBERS.items()}
)
_SPOT_INDEX: dict[tuple[WagerKind, tuple[int, ...]], int] = {
    (kind, numbers): index
    for index, (kind, numbers) in enumerate(
        (kind, numbers) for kind in WagerKind for numbers in LEGAL_NUMBERS[kind]
    )
}
SPOT_COUNT = len(_SPOT_INDEX)

UNKNOWN_KIND = cite(
    CLAUSE_WAGERS, "unknown wager kind {kind}; expected one of " + ", ".join(WAGER_KINDS)
)
NUMBERS_NOT_A_SEQUENCE = cite(
    CLAUSE_WAGERS, "{label} numbers must be a tuple of whole numbers, got {got}"
)
NOT_A_WHOLE_NUMBER = cite(CLAUSE_WAGERS, "{label}: {got} is not a whole number")
OUT_OF_RANGE = cite(CLAUSE_WAGERS, "number {number} is outside 0–12")
DUPLICATE_NUMBER = cite(CLAUSE_WAGERS, "{label} {spot}: duplicate number {number}")
TAKES_NO_NUMBERS = cite(CLAUSE_WAGERS, "{label} takes no numbers, got {count}")
WRONG_COUNT = cite(CLAUSE_WAGERS, "{label} needs {needed} numbers, got {count}")
STRAIGHT_WRONG_COUNT = cite(CLAUSE_WAGERS, "straight up needs 1 number, got {count}")
SPLIT_NOT_ADJACENT = cite(
    CLAUSE_WAGERS, "split {spot}: numbers are not next to each other on the layout"
)
STREET_NOT_A_ROW = cite(CLAUSE_WAGERS, "street {spot} is not a horizontal row of the layout")
CORNER_NOT_A_BLOCK = cite(CLAUSE_WAGERS, "corner {spot} is not a 2×2 block")
THREE_NUMBERS_NOT_ALLOWED = cite(CLAUSE_WAGERS, "three numbers {spot} must be 0-1-2 or 0-2-3")
COLUMN_NOT_A_COLUMN = cite(CLAUSE_WAGERS, "column {spot} is not a single column of the layout")
SPOT_UNREADABLE = cite(
    CLAUSE_WAGERS, "cannot read wager spot {text}; expected e.g. 'split:1-2' or 'red'"
)
SPOT_INDEX_OUT_OF_RANGE = cite(
    CLAUSE_WAGERS, "spot {got} is not one of the 52 legal spots (indices 0–51)"
)

_SHAPE_MESSAGES: Mapping[WagerKind, str] = MappingProxyType(
    {
        WagerKind.SPLIT: SPLIT_NOT_ADJACENT,
        WagerKind.STREET: STREET_NOT_A_ROW,
        WagerKind.CORNER: CORNER_NOT_A_BLOCK,
        WagerKind.THREE_NUMBERS: THREE_NUMBERS_NOT_ALLOWED,
        WagerKind.COLUMN: COLUMN_NOT_A_COLUMN,
    }
)


def parse_kind(kind: object) -> WagerKind:
    """Accept a ``WagerKind`` or its string value; anything else is an ``InvalidWager``."""
    if isinstance(kind, str):
        try:
            return WagerKind(kind)
        except ValueError:
            pass
    shown = repr(kind) if isinstance(kind, str) else describe_value(kind)
    raise InvalidWager(UNKNOWN_KIND.format(kind=shown))


def spot_text(numbers: Sequence[int]) -> str:
    """Numbers as they appear in spot ids and messages: ``1-2-4-5``."""
    return "-".join(map(str, numbers))


def _checked_numbers(kind: WagerKind, numbers: object) -> tuple[int, ...]:
    label = kind.label.lower()
    if isinstance(numbers, str | bytes) or not isinstance(numbers, Sequence):
        raise InvalidWager(NUMBERS_NOT_A_SEQUENCE.format(label=label, got=describe_value(numbers)))
    for number in numbers:
        if type(number) is not int:
            raise InvalidWager(NOT_A_WHOLE_NUMBER.format(label=label, got=describe_value(number)))
        if not 0 <= number < WHEEL_SIZE:
            raise InvalidWager(OUT_OF_RANGE.format(number=number))
    ordered = tuple(sorted(numbers))
    for first, second in zip(ordered, ordered[1:], strict=False):
        if first == second:
            raise InvalidWager(
                DUPLICATE_NUMBER.format(label=label, spot=spot_text(ordered), number=first)
            )
    needed = NUMBER_COUNTS[kind]
    if len(ordered) != needed:
        if needed == 0:
            message = TAKES_NO_NUMBERS.format(label=label, count=len(ordered))
        elif needed == 1:
            message = STRAIGHT_WRONG_COUNT.format(count=len(ordered))
        else:
            message = WRONG_COUNT.format(label=label, needed=needed, count=len(ordered))
        raise InvalidWager(message)
    if (kind, ordered) not in _SPOT_INDEX:
        raise InvalidWager(_SHAPE_MESSAGES[kind].format(spot=spot_text(ordered)))
    return ordered


@dataclass(frozen=True, slots=True)
class Wager:
    """A legal bet spot: a kind and the numbers it is placed on (sorted).

    ``Wager("split", (2, 1)) == Wager("split", (1, 2))``; outside bets (red, black,
    small, big) take no numbers.
    """

    kind: WagerKind
    numbers: tuple[int, ...] = ()
    spot_index: int = field(init=False, repr=False, compare=False)
    # The stable id ("split:1-2", "red") that ``Wager.parse`` reads back, and the human
    # name ("Split 1-2", "Red"). Worked out once: a round names each wager several times.
    spot: str = field(init=False, repr=False, compare=False)
    label: str = field(init=False, repr=False, compare=False)
    _fixed_cover: frozenset[int] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kind = parse_kind(self.kind)
        numbers = _checked_numbers(kind, self.numbers)
        if kind is WagerKind.SMALL:
            fixed: frozenset[int] | None = SMALL_NUMBERS
        elif kind is WagerKind.BIG:
            fixed = BIG_NUMBERS
        elif kind in (WagerKind.RED, WagerKind.BLACK):
            fixed = None
        else:
            fixed = frozenset(numbers)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "numbers", numbers)
        object.__setattr__(self, "spot_index", _SPOT_INDEX[kind, numbers])
        shown = f"{kind.value}:{spot_text(numbers)}" if numbers else kind.value
        object.__setattr__(self, "spot", shown)
        object.__setattr__(
            self, "label", f"{kind.label} {spot_text(numbers)}" if numbers else kind.label
        )
        object.__setattr__(self, "_fixed_cover", fixed)

    def __repr__(self) -> str:
        return f"Wager({self.kind.value!r}, {self.numbers!r})"

    @classmethod
    def of(cls, kind: object, numbers: object = ()) -> Wager:
        """``Wager(kind, numbers)``, taken from the 52 legal spots when it is one of them.

        A round reads up to 52 wagers; a legal one given as a string kind and whole
        numbers (in any order) is found in a table instead of being checked again.
        Anything else goes through the constructor, which refuses it with the same
        message as ever.
        """
        if (
            type(kind) is str
            and type(numbers) in (list, tuple)
            and all(type(n) is int for n in numbers)  # not bools, which equal 0 and 1
        ):
            found = _BY_KIND_AND_NUMBERS.get((kind, tuple(sorted(numbers))))
            if found is not None:
                return found
        return cls(kind, numbers)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: str) -> Wager:
        """Read a spot id as ``Wager.spot`` writes it: ``"split:1-2"``, ``"red"``."""
        if not isinstance(text, str):
            raise InvalidWager(SPOT_UNREADABLE.format(text=describe_value(text)))
        found = _BY_SPOT.get(text)
        if found is not None:
            return found
        kind_text, colon, numbers_text = text.partition(":")
        kind = parse_kind(kind_text)
        if not colon:
            return cls(kind)
        tokens = numbers_text.split("-")
        if not all(token.isascii() and token.isdigit() for token in tokens):
            raise InvalidWager(SPOT_UNREADABLE.format(text=repr(text)))
        return cls(kind, tuple(int(token) for token in tokens))

    @classmethod
    def at(cls, spot_index: int) -> Wager:
        """The legal wager at ``spot_index`` in ``legal_wagers()``."""
        if type(spot_index) is not int or not 0 <= spot_index < SPOT_COUNT:
            raise InvalidWager(SPOT_INDEX_OUT_OF_RANGE.format(got=describe_value(spot_index)))
        return LEGAL_WAGERS[spot_index]

    @property
    def covers_zero(self) -> bool:
        """Whether the wager is "placed on zero" in the sense of § 617b.8(g)."""
        return ZERO in self.numbers

    def covers(self, wheel: Wheel | None = None) -> frozenset[int]:
        """The outcomes that win this wager; red and black depend on the wheel."""
        if self._fixed_cover is not None:
            return self._fixed_cover
        wheel = STANDARD_WHEEL if wheel is None else wheel
        return wheel.red if self.kind is WagerKind.RED else wheel.black


LEGAL_WAGERS: tuple[Wager, ...] = tuple(Wager(kind, numbers) for kind, numbers in _SPOT_INDEX)
_BY_KIND_AND_NUMBERS = MappingProxyType(
    {(wager.kind.value, wager.numbers): wager for wager in LEGAL_WAGERS}
)
_BY_SPOT = MappingProxyType({wager.spot: wager for wager in LEGAL_WAGERS})


def legal_wagers() -> tuple[Wager, ...]:
    """All 52 legal spots, by kind (in ``WAGER_KINDS`` order) and then by numbers."""
    return LEGAL_WAGERS
