"""Domain exceptions. Every error a caller can cause says what was wrong.

Regulatory errors carry the clause they enforce in ``clause`` and cite it at the
start of the message; the message texts live beside the code that raises them
as module-level constants, so tests and the portal can import them.
"""

from __future__ import annotations

from jinzi.game import CLAUSE_WAGERS, CLAUSE_WHEEL


class JinziError(Exception):
    """Base class of every error the game raises on purpose."""

    clause: str | None = None

    def __init__(self, message: str, *, clause: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if clause is not None:
            self.clause = clause


class RegulationError(JinziError):
    """Something breaks a subsection of § 617b.8; ``clause`` says which."""

    clause: str

    def __init__(self, message: str, *, clause: str) -> None:
        super().__init__(message, clause=clause)


class InvalidWager(JinziError, ValueError):
    """A wager that § 617b.8(d) does not allow, or that cannot be read."""

    clause = CLAUSE_WAGERS


class InvalidStake(JinziError, ValueError):
    """A stake that is not a positive even whole number of minor units."""


class InvalidOutcome(JinziError, ValueError):
    """An outcome that is not a wheel number 0–12."""

    clause = CLAUSE_WHEEL


class InvalidPaytable(JinziError, ValueError):
    """A paytable that cannot be read (wrong shape, unknown wager, not a number)."""


class RandomSourceError(JinziError):
    """An injected random source that does not behave like ``randbits``."""


def describe_value(value: object) -> str:
    """How a rejected value is shown in a message: ints plainly, others with their type."""
    if type(value) is int:
        return str(value)
    return f"{value!r} ({type(value).__name__})"
