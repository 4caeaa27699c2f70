"""The audit report's hold figures: a row of the summary (a group of one offering and
paytable version, a subtotal or the total) from the sums by spot and the pass's moments.

reading:expected-win: handle H = Σ stakes, win W = H − Σ returns, hold % = W / H; expected
win E = Σ stake × the exact edge of the spot at that stake under the odds the round
recorded, the edge of what is paid, each return rounded up to the cent where fractional odds
need it (reading:round-up; ``spots.Edges``), so E agrees with the rounds' own moments; its
standard deviation SD from each round's exact variance (a round's bets share one outcome;
rounds are independent, so variances add); z = (W − E) / SD, flagged by ``jinzi.hold_check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinzi
from portal.reports.audit_report.figures.spots import SpotTotal, by_group
from portal.reports.audit_report.figures.sums import RoundTotal
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.values import GroupKey, decimal_text, ratio, sqrt_text


@dataclass
class Hold:
    """The figures of one row of the summary (a group, a subtotal or the total)."""

    rounds: int = 0
    players: int = 0
    bets: int = 0
    handle: int = 0
    returned: int = 0
    expected_win: Fraction = Fraction(0)
    variance: Fraction = Fraction(0)

    def __iadd__(self, other: Hold) -> Hold:
        self.rounds += other.rounds
        self.bets += other.bets
        self.handle += other.handle
        self.returned += other.returned
        self.expected_win += other.expected_win
        self.variance += other.variance
        return self

    @property
    def win(self) -> int:
        return self.handle - self.returned

    def values(self) -> dict:
        check = jinzi.hold_check(
            win=self.win, expected_win=self.expected_win, variance=self.variance, rounds=self.rounds
        )
        return {
            "rounds": self.rounds,
            "players": self.players,
            "bets": self.bets,
            "handle": self.handle,
            "returned": self.returned,
            "win": self.win,
            "hold": ratio(self.win, self.handle),
            "expected_win": decimal_text(self.expected_win),
            "expected_hold": ratio(self.expected_win, self.handle),
            "win_sd": sqrt_text(self.variance),
            "z": None if check.z is None else f"{check.z:.3f}",
            "flag": "" if check.flag == "ok" else check.flag,
        }


def group_holds(
    spots: list[SpotTotal], rounds: dict[GroupKey, RoundTotal], found: Pass
) -> dict[GroupKey, Hold]:
    holds = {}
    for key, group_spots in by_group(spots).items():
        moments = found.groups.get(key)
        holds[key] = Hold(
            rounds=rounds[key].rounds if key in rounds else 0,
            players=rounds[key].players if key in rounds else 0,
            bets=sum(s.bets for s in group_spots),
            handle=sum(s.handle for s in group_spots),
            returned=sum(s.returned for s in group_spots),
            expected_win=sum((s.expected_win for s in group_spots), Fraction(0)),
            variance=moments.moments.variance if moments else Fraction(0),
        )
    return holds
