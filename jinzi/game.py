"""Fixed facts of Jinzi Roulette as 58 Pa. Code § 617b.8 sets them out.

Clause ids are written as the regulation numbers them ("617b.8(f)") and every
regulatory error message starts with ``cite(clause, ...)``, e.g.
"§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1".
"""

from __future__ import annotations

import datetime

GAME_NAME = "Jinzi Roulette"
GAME_VERSION = "1.0.0"

EFFECTIVE = datetime.date(2025, 6, 14)
SUNSET = datetime.date(2028, 6, 14)

WHEEL_SIZE = 13
ZERO = 0
NUMBERS: tuple[int, ...] = tuple(range(WHEEL_SIZE))

CLAUSE_WHEEL = "617b.8(c)"
CLAUSE_WAGERS = "617b.8(d)"
CLAUSE_PAYTABLE = "617b.8(f)"
CLAUSE_ZERO = "617b.8(g)"


def cite(clause: str, text: str) -> str:
    """Prefix ``text`` with the clause it enforces: ``§ 617b.8(c): text``."""
    return f"§ {clause}: {text}"


def in_force(day: datetime.date) -> bool:
    """Whether the temporary regulation is in force on ``day``.

    **Reading** (reading:pennsylvania-dates): "effective June 14, 2025, expire June 14,
    2028" means in force from the first date up to, but not on, the second.
    """
    return EFFECTIVE <= day < SUNSET
