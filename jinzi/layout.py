"""The table layout (0 above four rows of three) and the bet spots it allows under § 617b.8(d).

    |        0         |
    |  1 |  2 |  3 |
    |  4 |  5 |  6 |
    |  7 |  8 |  9 |
    | 10 | 11 | 12 |

Rows are the "horizontal rows" of (d)(3); columns hold four numbers (d)(6).

**Reading** (reading:zero-splits): 0 borders 1, 2 and 3, so 0-1, 0-2 and 0-3 are
splits (d)(2), as in standard roulette (Chapter 617a); 0 is in no street, corner or column.
"""

from __future__ import annotations

from jinzi.game import ZERO

LAYOUT_ROWS: tuple[tuple[int, ...], ...] = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12))
LAYOUT_COLUMNS: tuple[tuple[int, ...], ...] = tuple(zip(*LAYOUT_ROWS, strict=True))
ROW_COUNT = len(LAYOUT_ROWS)
COLUMN_COUNT = len(LAYOUT_COLUMNS)

ZERO_NEIGHBOURS: tuple[int, ...] = LAYOUT_ROWS[0]
SMALL_NUMBERS: frozenset[int] = frozenset(range(1, 7))
BIG_NUMBERS: frozenset[int] = frozenset(range(7, 13))


def _splits() -> tuple[tuple[int, int], ...]:
    across = [(row[i], row[i + 1]) for row in LAYOUT_ROWS for i in range(COLUMN_COUNT - 1)]
    down = [(col[i], col[i + 1]) for col in LAYOUT_COLUMNS for i in range(ROW_COUNT - 1)]
    from_zero = [(ZERO, n) for n in ZERO_NEIGHBOURS]
    return tuple(sorted(from_zero + across + down))


def _corners() -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(sorted(LAYOUT_ROWS[r][c : c + 2] + LAYOUT_ROWS[r + 1][c : c + 2]))
        for r in range(ROW_COUNT - 1)
        for c in range(COLUMN_COUNT - 1)
    )


SPLITS = _splits()
STREETS: tuple[tuple[int, ...], ...] = LAYOUT_ROWS
CORNERS = _corners()
THREE_NUMBER_SETS: tuple[tuple[int, ...], ...] = ((0, 1, 2), (0, 2, 3))
COLUMNS: tuple[tuple[int, ...], ...] = LAYOUT_COLUMNS
