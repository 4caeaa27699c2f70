"""The audit report's sums by bet spot: bets, handle, returns and expected win per offering,
paytable version (with the odds the rounds recorded) and spot, from the pass's sums per
stake (``Pass.spot_rows``). The summary's handle and expected win, and the whole by-kind
table, come from these: E = Σ stake × the exact edge of the spot at that stake under the
recorded odds, so it follows what players actually bet. The edge is that of what the stake
is paid, each return rounded up to the cent where fractional odds need it
(reading:round-up: a 2-cent split at 16 to 3 is paid 13, not 12.67, and its expected win is
−1/13 of a cent, not the −1/39 the odds alone give); ``Edges`` works it out once per
distinct (odds, spot, stake) of a run, with ``jinzi.house_edge``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import jinzi
from portal.reports.audit_report.values import GroupKey, odds_key


class Edges:
    """The exact house edge of each (recorded odds, spot, stake) a run meets, each worked out
    once: 1 − what that stake is paid over the 13 outcomes / 13 × the stake
    (``jinzi.house_edge``, returns rounded up as ``jinzi.settle`` pays them). Where every even
    stake is paid exactly (whole or half odds: ``jinzi.rounding_period`` is 1) that is the
    odds' own edge, worked out once per odds and spot. The wheel's order does not change an
    edge (red and black each cover six numbers, neither 0)."""

    def __init__(self) -> None:
        self._spots: dict[tuple, tuple[jinzi.Wager, jinzi.Paytable, Fraction, bool]] = {}
        self._edges: dict[tuple, Fraction] = {}

    def of(self, odds: dict, spot: str, stake: int) -> Fraction:
        spot_key = (odds_key(odds), spot)
        known = self._spots.get(spot_key)
        if known is None:
            wager, paytable = jinzi.Wager.parse(spot), jinzi.Paytable.of(odds)
            exact = jinzi.rounding_period(wager, paytable=paytable) == 1
            known = (wager, paytable, jinzi.house_edge(wager, paytable=paytable), exact)
            self._spots[spot_key] = known
        wager, paytable, own, exact = known
        if exact or stake not in jinzi.EVERY_EVEN_STAKE:
            # A stake no table takes (odd, say: a row altered outside the portal) is listed
            # by the re-settlement; the odds' own edge stands in for it here.
            return own
        key = (spot_key, stake)
        edge = self._edges.get(key)
        if edge is None:
            edge = self._edges[key] = jinzi.house_edge(wager, paytable=paytable, stake=stake)
        return edge


@dataclass
class SpotTotal:
    """One spot of one offering and paytable version, over every stake it took."""

    group: GroupKey
    odds: dict
    spot: str
    bets: int = 0
    handle: int = 0
    returned: int = 0
    expected_win: Fraction = Fraction(0)  # Σ handle × edge, stake by stake
    lowest_edge: Fraction | None = None  # the lowest edge of the stakes it took...
    lowest_stake: int | None = None  # ...and the smallest of those stakes with it

    @property
    def wager(self) -> jinzi.Wager:
        return jinzi.Wager.parse(self.spot)

    def add(self, *, stake: int, bets: int, handle: int, returned: int, edge: Fraction) -> None:
        """The bets of one stake: ``handle`` is their stakes' sum, bets × stake."""
        self.bets += bets
        self.handle += handle
        self.returned += returned
        self.expected_win += handle * edge
        if self.lowest_edge is None or (edge, stake) < (self.lowest_edge, self.lowest_stake):
            self.lowest_edge, self.lowest_stake = edge, stake


def spot_totals_of(rows, edges: Edges | None = None) -> list[SpotTotal]:
    """One row per offering, paytable version, recorded odds and spot, from sums per stake
    (group, odds, spot, stake, bets, handle, returned): each stake's handle earns its own
    edge (``edges``, the run's; a fresh one when not given). In a fixed order."""
    edges = Edges() if edges is None else edges
    totals: dict[tuple, SpotTotal] = {}
    legal: dict[str, bool] = {}
    for group, odds, spot, stake, bets, handle, returned in rows:
        if spot not in legal:
            legal[spot] = _legal(spot)
        if not legal[spot]:
            # A spot no table takes (a row altered outside the portal): the re-settlement
            # lists its bets, and the handle left out here shows in the reconciliation.
            continue
        key = (group, odds_key(odds), spot)
        total = totals.get(key)
        if total is None:
            total = totals[key] = SpotTotal(group, odds, spot)
        total.add(stake=stake, bets=bets, handle=handle, returned=returned,
                  edge=edges.of(odds, spot, stake))  # fmt: skip
    return [totals[key] for key in sorted(totals)]


def _legal(spot: str) -> bool:
    try:
        jinzi.Wager.parse(spot)
    except jinzi.JinziError:
        return False
    return True


def by_group(spots: list[SpotTotal]) -> dict[GroupKey, list[SpotTotal]]:
    grouped: dict[GroupKey, list[SpotTotal]] = defaultdict(list)
    for spot in spots:
        grouped[spot.group].append(spot)
    return grouped
