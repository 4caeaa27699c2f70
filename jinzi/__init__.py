"""Jinzi Roulette (58 Pa. Code § 617b.8): wheel, layout, wagers, paytables, settlement,
exact house edge, the range of hold, the moments of a round's return and the RNG. Pure
standard-library Python; no framework, no I/O outside the ``python -m jinzi`` command
line."""

from jinzi.edge import (
    HoldRange,
    KindEdge,
    SpotEdge,
    edge_table,
    format_percent,
    hold_range,
    house_edge,
    paytable_flags,
    return_variance,
    spot_edges,
)
from jinzi.errors import (
    InvalidOutcome,
    InvalidPaytable,
    InvalidStake,
    InvalidWager,
    JinziError,
    RandomSourceError,
    RegulationError,
)
from jinzi.game import EFFECTIVE, GAME_NAME, GAME_VERSION, NUMBERS, SUNSET, WHEEL_SIZE, in_force
from jinzi.hold import RoundMoments, RoundMomentsTable, round_moments
from jinzi.layout import (
    BIG_NUMBERS,
    COLUMNS,
    CORNERS,
    LAYOUT_COLUMNS,
    LAYOUT_ROWS,
    SMALL_NUMBERS,
    SPLITS,
    STREETS,
    THREE_NUMBER_SETS,
    ZERO_NEIGHBOURS,
)
from jinzi.paytable import MINIMUM_ODDS, Paytable, format_odds
from jinzi.rng import RNG_METHOD, Draw, draw, spin, spins
from jinzi.settlement import SettlementTable, check_stake, settle, unit_return
from jinzi.stats import ChiSquare, HoldCheck, chi_square_p, hold_check, outcome_chi_square
from jinzi.wagers import KIND_LABELS, SPOT_COUNT, WAGER_KINDS, Wager, WagerKind, legal_wagers
from jinzi.wheel import STANDARD_ORDER, Colour, Wheel, check_outcome

__version__ = GAME_VERSION

__all__ = [
    "BIG_NUMBERS",
    "COLUMNS",
    "CORNERS",
    "EFFECTIVE",
    "GAME_NAME",
    "GAME_VERSION",
    "KIND_LABELS",
    "LAYOUT_COLUMNS",
    "LAYOUT_ROWS",
    "MINIMUM_ODDS",
    "NUMBERS",
    "RNG_METHOD",
    "SMALL_NUMBERS",
    "SPLITS",
    "SPOT_COUNT",
    "STANDARD_ORDER",
    "STREETS",
    "SUNSET",
    "THREE_NUMBER_SETS",
    "WAGER_KINDS",
    "WHEEL_SIZE",
    "ZERO_NEIGHBOURS",
    "ChiSquare",
    "Colour",
    "Draw",
    "HoldCheck",
    "HoldRange",
    "InvalidOutcome",
    "InvalidPaytable",
    "InvalidStake",
    "InvalidWager",
    "JinziError",
    "KindEdge",
    "Paytable",
    "RandomSourceError",
    "RegulationError",
    "RoundMoments",
    "RoundMomentsTable",
    "SettlementTable",
    "SpotEdge",
    "Wager",
    "WagerKind",
    "Wheel",
    "__version__",
    "check_outcome",
    "chi_square_p",
    "check_stake",
    "draw",
    "edge_table",
    "format_odds",
    "format_percent",
    "hold_check",
    "hold_range",
    "house_edge",
    "in_force",
    "legal_wagers",
    "outcome_chi_square",
    "paytable_flags",
    "return_variance",
    "round_moments",
    "settle",
    "spin",
    "spins",
    "spot_edges",
    "unit_return",
]
