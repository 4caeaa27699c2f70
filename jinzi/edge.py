"""Exact house edge and the range of hold, as ``Fraction``, from the 13 equally likely
outcomes.

The edge of a wager is 1 − E[return] / stake. By default the return is the exact
multiple of the stake before rounding (``unit_return``), which is the paytable's
own edge and does not depend on the stake. Rounding up (see ``jinzi.settlement``)
can only lower the edge for a particular stake; ``house_edge(..., stake=N)``
gives the edge of that stake's actual integer returns. With whole-number odds the
two agree for every even stake.

Under the § 617b.8(f) minimum paytable the edge is 1/26 (≈ 3.846 %) for wagers
not covering 0 and 1/13 (≈ 7.692 %) for those covering 0 (§ 617b.8(g)(2),
reading:placed-on-zero).

**Hold** (reading:expected-win): what a period holds depends on what players bet: each
stake earns the edge of the spot it was placed on. So there is no single "theoretical
hold" of a paytable (a mean over the 52 spots is not what any real mix of bets
earns); ``hold_range`` gives the edges of wagers not covering 0 and of those covering
0, lowest and highest of each, and the expected hold of any mix lies within them
(or a little below, where fractional odds round a particular stake's return up).
``edge_table`` gives each kind's lowest and highest spot edge, since splits,
straights and three-number bets differ by whether they cover 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from jinzi.game import NUMBERS, WHEEL_SIZE
from jinzi.paytable import Paytable
from jinzi.settlement import check_stake, resolve_setup, settle, unit_return
from jinzi.wagers import LEGAL_WAGERS, Wager, WagerKind
from jinzi.wheel import Wheel

FLAG_MESSAGE = (
    "{label} has a house edge of {percent}: the paytable favours the player there "
    "and needs explicit approval"
)


def format_percent(value: Fraction, places: int = 3) -> str:
    """``Fraction(1, 26)`` → ``"3.846 %"``; for display only, the value stays exact."""
    return f"{float(value * 100):.{places}f} %"


@dataclass(frozen=True, slots=True)
class SpotEdge:
    wager: Wager
    edge: Fraction

    @property
    def flagged(self) -> bool:
        """A house edge of zero or less: legal under (f) but needs explicit approval."""
        return self.edge <= 0

    @property
    def message(self) -> str:
        return FLAG_MESSAGE.format(label=self.wager.label, percent=format_percent(self.edge))


@dataclass(frozen=True, slots=True)
class KindEdge:
    kind: WagerKind
    odds: Fraction
    spots: int
    lowest: Fraction
    highest: Fraction

    @property
    def label(self) -> str:
        return self.kind.label

    @property
    def uniform(self) -> bool:
        """Whether every spot of the kind has the same edge."""
        return self.lowest == self.highest


@dataclass(frozen=True, slots=True)
class HoldRange:
    """Lowest and highest edge of the wagers not covering 0 and of those covering 0
    (reading:expected-win); a period's expected hold lies between, by its mix of bets."""

    not_covering_zero: tuple[Fraction, Fraction]
    covering_zero: tuple[Fraction, Fraction]


def house_edge(
    wager: Wager,
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    stake: int | None = None,
) -> Fraction:
    """Exact house edge of ``wager``: 1 − E[return] / stake over the 13 outcomes."""
    paytable, wheel = resolve_setup(paytable, wheel)
    if stake is None:
        returned = sum(
            (unit_return(wager, o, paytable=paytable, wheel=wheel) for o in NUMBERS), Fraction(0)
        )
        return 1 - returned / WHEEL_SIZE
    stake = check_stake(stake)
    total = sum(settle(wager, stake, o, paytable=paytable, wheel=wheel) for o in NUMBERS)
    return 1 - Fraction(total, WHEEL_SIZE * stake)


def return_variance(
    wager: Wager, *, paytable: Paytable | None = None, wheel: Wheel | None = None
) -> Fraction:
    """Exact variance of one spin's return per unit stake (for confidence bands on hold)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    multiples = [unit_return(wager, o, paytable=paytable, wheel=wheel) for o in NUMBERS]
    mean = sum(multiples, Fraction(0)) / WHEEL_SIZE
    return sum(((m - mean) ** 2 for m in multiples), Fraction(0)) / WHEEL_SIZE


def spot_edges(
    paytable: Paytable | None = None, wheel: Wheel | None = None
) -> tuple[SpotEdge, ...]:
    """The exact edge of each of the 52 legal spots, in spot-index order."""
    paytable, wheel = resolve_setup(paytable, wheel)
    return tuple(SpotEdge(w, house_edge(w, paytable=paytable, wheel=wheel)) for w in LEGAL_WAGERS)


def edge_table(
    paytable: Paytable | None = None, wheel: Wheel | None = None
) -> tuple[KindEdge, ...]:
    """Per wager kind: odds, number of spots, lowest/highest spot edge, mean (the hold)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    edges = spot_edges(paytable, wheel)
    rows = []
    for kind in WagerKind:
        values = [e.edge for e in edges if e.wager.kind is kind]
        rows.append(
            KindEdge(
                kind=kind,
                odds=paytable.odds(kind),
                spots=len(values),
                lowest=min(values),
                highest=max(values),
            )
        )
    return tuple(rows)


def hold_range(paytable: Paytable | None = None, wheel: Wheel | None = None) -> HoldRange:
    """The edges of wagers not covering 0 and of those covering 0, each as (lowest,
    highest) over its spots: 1/26 and 1/13 under the § 617b.8(f) minimum (the
    half-back of § 617b.8(g)(2) halves the edge of wagers not placed on zero)."""
    edges = spot_edges(paytable, wheel)

    def span(covering_zero: bool) -> tuple[Fraction, Fraction]:
        values = [e.edge for e in edges if e.wager.covers_zero is covering_zero]
        return min(values), max(values)

    return HoldRange(not_covering_zero=span(False), covering_zero=span(True))


def paytable_flags(
    paytable: Paytable | None = None, wheel: Wheel | None = None
) -> tuple[SpotEdge, ...]:
    """Spots whose house edge is zero or less under ``paytable``; empty when none."""
    return tuple(e for e in spot_edges(paytable, wheel) if e.flagged)
