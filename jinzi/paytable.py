"""Paytables: the odds paid on each wager, never less than § 617b.8(f) allows.

Odds are "N to 1" and exact: an ``int`` or a ``fractions.Fraction`` (``Fraction(23, 2)``
is 23 to 2). Floats, Decimals, strings and bools are refused, never coerced, so
that a paytable means exactly what its approver saw.

Stored form, for JSON (``as_dict`` / ``from_dict``)::

    {"straight": "11", "split": "11/2", "street": "3", ...}

``as_dict`` writes every odds as a string, ``"N"`` or ``"N/D"`` in lowest terms.
``from_dict`` reads a JSON int or such a string: ASCII digits, an optional single
``/`` and denominator, at most nine digits each, no sign, no spaces, no decimal
point ("11.5" is refused; write "23/2"). Every wager kind must be present and no other key may be.

A paytable more generous than the minimum is legal; one that leaves any wager
with a house edge of zero or less is legal too but is flagged by
``jinzi.edge.paytable_flags`` for explicit approval.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from jinzi.errors import InvalidPaytable, RegulationError, describe_value
from jinzi.game import CLAUSE_PAYTABLE, cite
from jinzi.wagers import WAGER_KINDS, WagerKind, parse_kind

MINIMUM_ODDS: Mapping[WagerKind, int] = MappingProxyType(
    {
        WagerKind.STRAIGHT: 11,
        WagerKind.SPLIT: 5,
        WagerKind.STREET: 3,
        WagerKind.CORNER: 2,
        WagerKind.THREE_NUMBERS: 3,
        WagerKind.COLUMN: 2,
        WagerKind.RED: 1,
        WagerKind.BLACK: 1,
        WagerKind.SMALL: 1,
        WagerKind.BIG: 1,
    }
)

BELOW_MINIMUM = cite(CLAUSE_PAYTABLE, "{label} pays {given}, below the minimum {minimum}")
MISSING_KINDS = cite(CLAUSE_PAYTABLE, "the paytable gives no odds for {labels}")
UNKNOWN_KINDS = cite(
    CLAUSE_PAYTABLE,
    "the paytable names unknown wager kinds {kinds}; expected " + ", ".join(WAGER_KINDS),
)
NOT_A_MAPPING = "a paytable maps each wager kind to its odds, got {got}"
ODDS_NOT_EXACT = "odds for {label} must be an int or a fractions.Fraction, got {got}"
ODDS_UNREADABLE = (
    'odds for {label} must be a whole number like 11 or a fraction like "23/2" '
    "(meaning 23 to 2), got {got}"
)

ODDS_TOO_LARGE = "odds for {label} must be below {limit:,} to 1, got {got}"

_ODDS_TEXT = re.compile(r"([0-9]{1,9})(?:/([0-9]{1,9}))?")
# No real paytable comes near this; the cap keeps absurd numbers out of storage and maths.
MAX_ODDS = 10**9


def _bounded(label: str, odds: Fraction) -> Fraction:
    if odds >= MAX_ODDS:
        raise InvalidPaytable(ODDS_TOO_LARGE.format(label=label, limit=MAX_ODDS, got=odds))
    return odds


_KIND_POSITION = {kind: position for position, kind in enumerate(WagerKind)}


def format_odds(odds: int | Fraction) -> str:
    """``11 to 1``; fractional odds in lowest terms, e.g. ``23 to 2``."""
    exact = Fraction(odds)
    return f"{exact.numerator} to {exact.denominator}"


def _shown_key(key: object) -> str:
    return repr(key) if isinstance(key, str) else describe_value(key)


def _exact_odds(label: str, value: object) -> Fraction:
    if type(value) is int or type(value) is Fraction:
        return _bounded(label, Fraction(value))
    raise InvalidPaytable(ODDS_NOT_EXACT.format(label=label, got=describe_value(value)))


def _stored_odds(label: str, value: object) -> Fraction:
    if type(value) is int:
        return _bounded(label, Fraction(value))
    match = _ODDS_TEXT.fullmatch(value) if isinstance(value, str) else None
    if match is None or match.group(2) is not None and int(match.group(2)) == 0:
        raise InvalidPaytable(ODDS_UNREADABLE.format(label=label, got=describe_value(value)))
    return Fraction(int(match.group(1)), int(match.group(2) or 1))


def _checked_odds(odds: object, read: Callable[[str, object], Fraction]) -> tuple[Fraction, ...]:
    if not isinstance(odds, Mapping):
        raise InvalidPaytable(NOT_A_MAPPING.format(got=describe_value(odds)))
    unknown = [key for key in odds if not isinstance(key, str) or key not in WAGER_KINDS]
    if unknown:
        shown = ", ".join(map(_shown_key, unknown))
        raise InvalidPaytable(UNKNOWN_KINDS.format(kinds=shown), clause=CLAUSE_PAYTABLE)
    missing = [kind.label for kind in WagerKind if kind.value not in odds]
    if missing:
        raise RegulationError(
            MISSING_KINDS.format(labels=", ".join(missing)), clause=CLAUSE_PAYTABLE
        )
    exact = tuple(read(kind.label, odds[kind.value]) for kind in WagerKind)
    below = [
        BELOW_MINIMUM.format(
            label=kind.label,
            given=format_odds(given),
            minimum=format_odds(MINIMUM_ODDS[kind]),
        )
        for kind, given in zip(WagerKind, exact, strict=True)
        if given < MINIMUM_ODDS[kind]
    ]
    if below:
        # Each entry is already cited; join them under one citation.
        prefix = cite(CLAUSE_PAYTABLE, "")
        message = prefix + "; ".join(entry.removeprefix(prefix) for entry in below)
        raise RegulationError(message, clause=CLAUSE_PAYTABLE)
    return exact


@dataclass(frozen=True, slots=True, init=False, repr=False)
class Paytable:
    """Odds for every wager kind, each at least the § 617b.8(f) minimum.

    Immutable and hashable (by its odds), so it can key caches.
    """

    _odds: tuple[Fraction, ...]

    def __init__(self, odds: Mapping[str, int | Fraction]) -> None:
        object.__setattr__(self, "_odds", _checked_odds(odds, _exact_odds))

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Paytable:
        """Read the stored form: ``{"straight": 11, "split": "11/2", ...}``."""
        paytable = cls.__new__(cls)
        object.__setattr__(paytable, "_odds", _checked_odds(data, _stored_odds))
        return paytable

    @classmethod
    def of(cls, data: Mapping[str, object]) -> Paytable:
        """``from_dict``, sharing one instance per stored form (a paytable is immutable).

        Every round reads its paytable; this parses each distinct table once. Only a
        plain dict of string kinds to integers or strings is remembered; anything else
        is read (and refused) by ``from_dict`` itself.
        """
        if type(data) is dict and all(
            type(kind) is str and type(odds) in (int, str) for kind, odds in data.items()
        ):
            return _shared_paytable(tuple(sorted(data.items())))
        return cls.from_dict(data)

    @classmethod
    def minimum(cls) -> Paytable:
        """The § 617b.8(f) table itself."""
        return MINIMUM_PAYTABLE

    def odds(self, kind: WagerKind | str) -> Fraction:
        """The odds "N to 1" paid on ``kind``, as an exact ``Fraction``."""
        return self._odds[_KIND_POSITION[parse_kind(kind)]]

    def items(self) -> tuple[tuple[WagerKind, Fraction], ...]:
        """(kind, odds) pairs in ``WAGER_KINDS`` order."""
        return tuple(zip(WagerKind, self._odds, strict=True))

    def as_dict(self) -> dict[str, str]:
        """The stored form: ``{"straight": "11", "split": "11/2", ...}``."""
        return {kind.value: str(odds) for kind, odds in self.items()}

    @property
    def max_odds(self) -> Fraction:
        return max(self._odds)

    @property
    def is_minimum(self) -> bool:
        return self == MINIMUM_PAYTABLE

    def __repr__(self) -> str:
        return f"Paytable.from_dict({self.as_dict()!r})"


MINIMUM_PAYTABLE = Paytable(MINIMUM_ODDS)


@functools.lru_cache(maxsize=256)
def _shared_paytable(items: tuple[tuple[str, object], ...]) -> Paytable:
    return Paytable.from_dict(dict(items))
