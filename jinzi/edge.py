"""Exact house edge and the range of hold, as ``Fraction``, from the 13 equally likely
outcomes.

The edge of a wager is 1 − E[return] / stake. Without ``stakes`` the return is the exact
multiple of the stake before rounding (``unit_return``): the odds' own edge, which does not
depend on the stake. ``house_edge(..., stake=N)`` gives the edge of that stake's actual
integer returns (``jinzi.settle``).

**Reading** (reading:round-up): a return that fractional odds make non-integral is rounded
*up* to the minor unit, so what a stake is paid, and so its edge, depends on the stake: a
split at 16 to 3 returns 2 × 19/3 = 12.67 on a 2-cent stake but is paid 13, and its edge
there is 1 − (2 × 13 + 1)/(13 × 2) = −1/26 where the odds alone give −1/78 (so the
expected win on that stake is −1/13 of a cent, not −1/39). Every figure a person acts on is
therefore worked out from what is paid, for the stakes a table allows:
``Stakes`` (a chip unit and the lowest and highest stake; ``EVERY_EVEN_STAKE`` is every
even stake from 2 minor units, reading:even-stakes). Given ``stakes``, ``spot_edges``,
``edge_table``, ``hold_range`` and ``paytable_flags`` give the lowest (and highest) edge
over those stakes, with the smallest stake at which the lowest is reached;
``lowest_edge`` and ``highest_edge`` give them for one spot.

**Why a finite search finds the lowest edge.** Take a spot whose win returns m = a/b times
the stake (a/b in lowest terms) on n of the 13 outcomes, every other return being exact for
an even stake (0, or the half-back 1/2 of § 617b.8(g)(2)). Rounding up adds
r(s)/b to each such win, where r(s) = (−a·s) mod b, so

    edge(s) = e − n · r(s) / (13 · b · s),     e = the odds' own edge.

1. *Periodic.* r(s) depends only on s mod b. Along the allowed stakes s = lowest + unit·j it
   repeats every P = b / gcd(b, unit) stakes (``rounding_period``), so every value r takes is
   first taken within the first P stakes.
2. *Shrinking.* 0 ≤ r(s) ≤ b − 1, so the rounding gain per unit of stake,
   n · r(s)/(13 · b · s), is below n/(13 · s): it shrinks as the stake grows. For one value
   of r it is largest at the smallest stake taking it.

So the lowest edge is reached within the first P allowed stakes, at a stake where r is
larger than at every smaller stake (a *record*); and when e > 0 no stake s ≥ n/(13 · e) has
an edge of zero or less, whatever r. Both bounds are finite but can be large (b may have
nine digits), so the stakes are not walked one by one: the records of r along the stakes
form runs of equally spaced stakes, each run found by a Euclid-like step
(``_first_in_range``, its steps logarithmic in b), and the runs are few (a dozen at most
over the tests' nine-digit denominators). Along a run the gain per unit of stake is
monotone, so only its two ends are compared. The search stops
as soon as bound 2 says that no larger stake can do better. The stake it finds is then paid
through ``jinzi.settle`` (``house_edge(..., stake=…)``), so the edge given is always that of
the money actually paid. The highest edge is the odds' own edge e, reached at the smallest
allowed multiple of b, or, when the highest stake comes first, found by the same search
from the top down.

Under the § 617b.8(f) minimum paytable the edge is 1/26 (≈ 3.846 %) for wagers not covering
0 and 1/13 (≈ 7.692 %) for those covering 0 (§ 617b.8(g)(2), reading:placed-on-zero), at
every stake.

**Hold** (reading:expected-win): what a period holds depends on what players bet: each
stake earns the edge of its spot at that stake. So there is no single "theoretical hold" of a
paytable (a mean over the 52 spots is not what any real mix of bets earns); ``hold_range``
gives the edges of wagers not covering 0 and of those covering 0, lowest and highest of
each, and the expected hold of any mix of the allowed stakes lies within them.
``edge_table`` gives each kind's lowest and highest spot edge, since splits, straights and
three-number bets differ by whether they cover 0.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from jinzi.errors import InvalidStake, describe_value
from jinzi.game import NUMBERS, WHEEL_SIZE
from jinzi.paytable import Paytable
from jinzi.settlement import check_stake, resolve_setup, settle, unit_return
from jinzi.wagers import LEGAL_WAGERS, Wager, WagerKind
from jinzi.wheel import Wheel

FLAG_MESSAGE = (
    "{label} has a house edge of {percent}: the paytable favours the player there "
    "and needs explicit approval"
)
FLAG_AT_STAKE_MESSAGE = (
    "{label} has a house edge of {percent} on a stake of {stake} minor units, its return "
    "rounded up: the paytable favours the player there and needs explicit approval"
)
STAKES_NOT_MULTIPLE = "the {which} stake must be a multiple of the chip unit {unit}, got {got}"
STAKES_ORDER = "the highest stake {highest} is below the lowest {lowest}"
STAKES_NOT_WHOLE = "the {which} stake must be a whole number of minor units, got {got}"


def format_percent(value: Fraction, places: int = 3) -> str:
    """``Fraction(1, 26)`` → ``"3.846 %"``; for display only, the value stays exact."""
    return f"{float(value * 100):.{places}f} %"


@dataclass(frozen=True, slots=True)
class Stakes:
    """The stakes a table allows on one spot: every multiple of ``unit`` from ``lowest`` to
    ``highest`` (no upper limit when ``highest`` is None), in minor units.

    ``unit`` is even (reading:even-stakes); ``lowest`` defaults to ``unit``. A table's
    listing gives its chip unit and its minimum and maximum wager; ``EVERY_EVEN_STAKE`` is
    2, 4, 6, … (what a paytable is judged on before any table lists it).
    """

    unit: int = 2
    lowest: int | None = None
    highest: int | None = None

    def __post_init__(self) -> None:
        unit = check_stake(self.unit)
        lowest = unit if self.lowest is None else self.lowest
        for which, value in (("lowest", lowest), ("highest", self.highest)):
            if value is None:
                continue
            if type(value) is not int or value <= 0:
                raise InvalidStake(STAKES_NOT_WHOLE.format(which=which, got=describe_value(value)))
            if value % unit:
                raise InvalidStake(STAKES_NOT_MULTIPLE.format(which=which, unit=unit, got=value))
        if self.highest is not None and self.highest < lowest:
            raise InvalidStake(STAKES_ORDER.format(highest=self.highest, lowest=lowest))
        object.__setattr__(self, "lowest", lowest)

    @property
    def count(self) -> int | None:
        """How many stakes are allowed; None when there is no highest."""
        if self.highest is None:
            return None
        return (self.highest - self.lowest) // self.unit + 1

    def __contains__(self, stake: object) -> bool:
        return (
            type(stake) is int
            and stake >= self.lowest
            and (self.highest is None or stake <= self.highest)
            and stake % self.unit == 0
        )

    def first(self, count: int) -> tuple[int, ...]:
        """The ``count`` smallest allowed stakes (fewer when fewer are allowed)."""
        if self.count is not None:
            count = min(count, self.count)
        return tuple(self.lowest + self.unit * j for j in range(count))


EVERY_EVEN_STAKE = Stakes()


@dataclass(frozen=True, slots=True)
class SpotEdge:
    """A spot's edge; ``stake`` is the smallest allowed stake with that edge (the edge
    after rounding up there), or None for the odds' own edge before rounding."""

    wager: Wager
    edge: Fraction
    stake: int | None = None

    @property
    def flagged(self) -> bool:
        """A house edge of zero or less: legal under (f) but needs explicit approval."""
        return self.edge <= 0

    @property
    def message(self) -> str:
        percent = format_percent(self.edge)
        if self.stake is None:
            return FLAG_MESSAGE.format(label=self.wager.label, percent=percent)
        return FLAG_AT_STAKE_MESSAGE.format(
            label=self.wager.label, percent=percent, stake=f"{self.stake:,}"
        )


@dataclass(frozen=True, slots=True)
class KindEdge:
    kind: WagerKind
    odds: Fraction
    spots: int
    lowest: Fraction
    highest: Fraction
    # With ``stakes``: the smallest stake at which ``lowest`` is reached; else None.
    lowest_stake: int | None = None

    @property
    def label(self) -> str:
        return self.kind.label

    @property
    def uniform(self) -> bool:
        """Whether every spot (and every allowed stake) of the kind has the same edge."""
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
    """Exact house edge of ``wager``: 1 − E[return] / stake over the 13 outcomes; of the
    odds before rounding, or of ``stake``'s returns as ``jinzi.settle`` pays them."""
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


# --- The search over the allowed stakes (see the module's docstring) ----------------------


def _first_in_range(a: int, m: int, lo: int, hi: int) -> int | None:
    """The smallest x ≥ 0 with lo ≤ (a·x) mod m ≤ hi (0 ≤ lo ≤ hi < m), or None.

    Euclid-like: if no multiple of a falls in [lo, hi] before wrapping past m, the wrap
    count y solves the same problem modulo a, and x = ⌈(lo + m·y)/a⌉. Reflecting a to m − a
    (and the range to [m − hi, m − lo]) when a > m/2 keeps a ≤ m/2, so the modulus at least
    halves at each step."""
    a %= m
    if lo == 0:
        return 0
    if a == 0:
        return None
    if 2 * a > m:
        # (m − a)·x ≡ −a·x: for lo ≥ 1 its residue is m − (a·x mod m).
        return _first_in_range(m - a, m, m - hi, m - lo)
    x = -(-lo // a)
    if a * x <= hi:
        return x
    # [lo, hi] lies strictly between two multiples of a, so lo mod a ≤ hi mod a.
    y = _first_in_range(-m % a, a, lo % a, hi % a)
    if y is None:
        return None
    return -(-(lo + m * y) // a)


def _minimum_runs(start: int, step: int, modulus: int, length: int | None) -> Iterator[tuple]:
    """The strict prefix minima of v_j = (start + step·j) mod modulus, j = 0, 1, … (below
    ``length`` when given), as runs ``(j1, v1, j2, v2)``: minima equally spaced from index j1
    (value v1) to j2 (value v2), values falling by the same amount at each."""
    j, v = 0, start % modulus
    step %= modulus
    yield j, v, j, v
    while v > 0:
        # The nearest later index with a smaller value: v + step·dj wraps past the modulus
        # and lands below v. The same dj keeps doing so while the value stays ≥ its fall.
        dj = _first_in_range(step, modulus, modulus - v, modulus - 1)
        if dj is None:
            return
        fall = modulus - step * dj % modulus
        more = v // fall
        if length is not None:
            more = min(more, (length - 1 - j) // dj)
        if more <= 0:
            return
        first = (j + dj, v - fall)
        j, v = j + more * dj, v - more * fall
        yield (*first, j, v)


def _most_gain_stake(a: int, b: int, stakes: Stakes) -> int:
    """The smallest allowed stake s with the largest r(s)/s, r(s) = (−a·s) mod b."""
    lowest, unit = stakes.lowest, stakes.unit
    best_r, best_s = -1, lowest
    # r is largest where u = b − 1 − r = (a·s − 1) mod b is smallest.
    for j1, u1, j2, u2 in _minimum_runs(lowest * a - 1, unit * a, b, stakes.count):
        for j, u in ((j1, u1), (j2, u2)):
            s, r = lowest + unit * j, b - 1 - u
            if r * best_s > best_r * s:
                best_r, best_s = r, s
        # Bound 2: any larger stake s' gains r(s')/s' ≤ (b − 1)/s' ≤ (b − 1)/next.
        following = lowest + unit * (j2 + 1)
        if (b - 1) * best_s <= best_r * following:
            break
    return best_s


def _least_gain_stake(a: int, b: int, stakes: Stakes) -> int:
    """The smallest allowed stake s with the smallest r(s)/s, r(s) = (−a·s) mod b."""
    lowest, unit, count = stakes.lowest, stakes.unit, stakes.count
    # r(s) = 0 exactly on the multiples of b (of b / gcd(a, b), were a/b not in lowest terms).
    whole = math.lcm(unit, b // math.gcd(a, b))
    exact = -(-lowest // whole) * whole
    if count is None or exact <= stakes.highest:
        return exact
    # No allowed stake is paid exactly: records of the smallest r, from the top stake down.
    top = lowest + unit * (count - 1)
    best_r, best_s = b, top
    for i1, r1, i2, r2 in _minimum_runs(-top * a, unit * a, b, count):
        for i, r in ((i1, r1), (i2, r2)):
            s = top - unit * i
            if r * best_s <= best_r * s:
                best_r, best_s = r, s
    return best_s


def _rounded_win(wager: Wager, paytable: Paytable, wheel: Wheel, stakes: Stakes):
    """(a, b): the multiple a/b of the stake whose return some allowed stake rounds (a win
    at fractional odds); None when every allowed stake is paid exactly."""
    multiples = {unit_return(wager, o, paytable=paytable, wheel=wheel) for o in NUMBERS}
    inexact = [
        m
        for m in multiples
        if (m * stakes.lowest).denominator > 1 or (m * stakes.unit).denominator > 1
    ]
    if not inexact:
        return None
    # settle pays odds + 1 on a win, 1/2 (exact on an even stake) or 0 otherwise.
    [multiple] = inexact
    return multiple.numerator, multiple.denominator


def rounding_period(
    wager: Wager,
    stakes: Stakes = EVERY_EVEN_STAKE,
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
) -> int:
    """How many consecutive allowed stakes the rounding pattern of ``wager`` takes to repeat
    (1 when every stake is paid exactly): its lowest edge is reached within the first
    that many (bound 1 of the module's docstring)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    rounded = _rounded_win(wager, paytable, wheel, stakes)
    if rounded is None:
        return 1
    b = rounded[1]
    return b // math.gcd(b, stakes.unit)


def lowest_edge(
    wager: Wager,
    stakes: Stakes = EVERY_EVEN_STAKE,
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
) -> SpotEdge:
    """The lowest edge of ``wager`` over the allowed ``stakes``, returns rounded up as paid
    (reading:round-up), and the smallest stake with it."""
    paytable, wheel = resolve_setup(paytable, wheel)
    rounded = _rounded_win(wager, paytable, wheel, stakes)
    stake = stakes.lowest if rounded is None else _most_gain_stake(*rounded, stakes)
    return SpotEdge(wager, house_edge(wager, paytable=paytable, wheel=wheel, stake=stake), stake)


def highest_edge(
    wager: Wager,
    stakes: Stakes = EVERY_EVEN_STAKE,
    *,
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
) -> SpotEdge:
    """The highest edge of ``wager`` over the allowed ``stakes``, returns rounded up as paid,
    and the smallest stake with it (the odds' own edge whenever some allowed stake is paid
    exactly)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    rounded = _rounded_win(wager, paytable, wheel, stakes)
    stake = stakes.lowest if rounded is None else _least_gain_stake(*rounded, stakes)
    return SpotEdge(wager, house_edge(wager, paytable=paytable, wheel=wheel, stake=stake), stake)


@functools.lru_cache(maxsize=64)
def _extremes(
    paytable: Paytable, wheel: Wheel, stakes: Stakes | None
) -> tuple[tuple[SpotEdge, SpotEdge], ...]:
    """Per spot, in spot-index order: (lowest, highest) edge over ``stakes``, or the odds'
    own edge twice without them."""
    if stakes is None:
        own = [SpotEdge(w, house_edge(w, paytable=paytable, wheel=wheel)) for w in LEGAL_WAGERS]
        return tuple((e, e) for e in own)
    # A spot's edges follow its odds and the outcomes it covers; the spots alike share them.
    known: dict[tuple, tuple[SpotEdge, SpotEdge]] = {}
    rows = []
    for w in LEGAL_WAGERS:
        key = (w.kind, len(w.covers(wheel)), w.covers_zero)
        if key not in known:
            low = lowest_edge(w, stakes, paytable=paytable, wheel=wheel)
            high = highest_edge(w, stakes, paytable=paytable, wheel=wheel)
            known[key] = (low, high)
        low, high = known[key]
        rows.append((SpotEdge(w, low.edge, low.stake), SpotEdge(w, high.edge, high.stake)))
    return tuple(rows)


def spot_edges(
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    *,
    stakes: Stakes | None = None,
) -> tuple[SpotEdge, ...]:
    """The exact edge of each of the 52 legal spots, in spot-index order: the odds' own, or
    with ``stakes`` the lowest over them as paid (with the stake reaching it)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    return tuple(low for low, _ in _extremes(paytable, wheel, stakes))


def edge_table(
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    *,
    stakes: Stakes | None = None,
) -> tuple[KindEdge, ...]:
    """Per wager kind: odds, number of spots, and the lowest and highest edge of its spots
    (with ``stakes``: over those stakes too, returns rounded up as paid)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    extremes = _extremes(paytable, wheel, stakes)
    rows = []
    for kind in WagerKind:
        mine = [pair for pair in extremes if pair[0].wager.kind is kind]
        low = min((pair[0] for pair in mine), key=_lowest_first)
        rows.append(
            KindEdge(
                kind=kind,
                odds=paytable.odds(kind),
                spots=len(mine),
                lowest=low.edge,
                highest=max(pair[1].edge for pair in mine),
                lowest_stake=low.stake,
            )
        )
    return tuple(rows)


def _lowest_first(edge: SpotEdge) -> tuple:
    return (edge.edge, edge.stake or 0)


def hold_range(
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    *,
    stakes: Stakes | None = None,
) -> HoldRange:
    """The edges of wagers not covering 0 and of those covering 0, each as (lowest,
    highest) over its spots (and over ``stakes``, when given): 1/26 and 1/13 under the
    § 617b.8(f) minimum (the half-back of § 617b.8(g)(2) halves the edge of wagers not
    placed on zero)."""
    paytable, wheel = resolve_setup(paytable, wheel)
    extremes = _extremes(paytable, wheel, stakes)

    def span(covering_zero: bool) -> tuple[Fraction, Fraction]:
        mine = [pair for pair in extremes if pair[0].wager.covers_zero is covering_zero]
        return min(low.edge for low, _ in mine), max(high.edge for _, high in mine)

    return HoldRange(not_covering_zero=span(False), covering_zero=span(True))


def paytable_flags(
    paytable: Paytable | None = None,
    wheel: Wheel | None = None,
    *,
    stakes: Stakes | None = None,
) -> tuple[SpotEdge, ...]:
    """Spots whose house edge is zero or less under ``paytable``; empty when none. With
    ``stakes``, a spot is flagged when any of them, paid as rounded up, leaves the house no
    edge (reading:round-up); each flag gives the spot's lowest edge and the smallest stake
    with it."""
    return tuple(e for e in spot_edges(paytable, wheel, stakes=stakes) if e.flagged)
