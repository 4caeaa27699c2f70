"""What the audit report's pass finds, and how the parts of a pass are joined.

``Pass`` holds the figures (by offering and paytable version, by gaming day, by spot and
stake), the problems (the first ``PROBLEMS_LISTED`` of each kind by round, and their
counts), each player's last round, and the links still to check. Every pass fills one the
same way (``round_checks``); a pass split into parts is sent back as JSON (``to_json``,
``from_json``) and joined (``join``; ``finishing.joined``) into the same figures as a single
pass.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import jinzi
from portal.reports.audit_report.values import GroupKey, odds_key

PROBLEMS_LISTED = 1_000  # problems of each kind listed in full; the count is always whole


@dataclass
class Accumulated:
    """Rounds, handle, returns and the sums of the rounds' scaled moments."""

    rounds: int = 0
    handle: int = 0
    returned: int = 0
    mean_x13: int = 0
    variance_x169: int = 0

    def add(self, staked: int, returned: int, moments: jinzi.RoundMoments) -> None:
        self.rounds += 1
        self.handle += staked
        self.returned += returned
        self.mean_x13 += moments.mean_return_x13
        self.variance_x169 += moments.variance_x169

    def add_sums(self, rounds: int, handle: int, returned: int, mean_x13: int, var_x169: int):
        self.rounds += rounds
        self.handle += handle
        self.returned += returned
        self.mean_x13 += mean_x13
        self.variance_x169 += var_x169

    def add_all(self, other: Accumulated) -> None:
        self.add_sums(
            other.rounds, other.handle, other.returned, other.mean_x13, other.variance_x169
        )

    @property
    def moments(self) -> jinzi.RoundMoments:
        return jinzi.RoundMoments(self.handle, self.mean_x13, self.variance_x169)


class Problems:
    """Problems found: every one counted, the ``PROBLEMS_LISTED`` first by ``key`` kept, so a pass
    split into parts and joined lists the same ones as a single pass."""

    def __init__(self, key: Callable[[dict], tuple]) -> None:
        self.key, self.count, self._kept = key, 0, []

    def add(self, row: dict) -> None:
        self.count += 1
        self._kept.append(row)
        if len(self._kept) >= 2 * PROBLEMS_LISTED:
            self._trim()

    def merge(self, other: Problems) -> None:
        self.count += other.count
        self._kept.extend(other._kept)
        self._trim()

    def _trim(self) -> None:
        self._kept = sorted(self._kept, key=self.key)[:PROBLEMS_LISTED]

    @property
    def listed(self) -> list[dict]:
        self._trim()
        return self._kept


def _discrepancy_key(row: dict) -> tuple:
    return (row["round"], -1 if row["position"] is None else row["position"], row["problem"])


def _chain_key(row: dict) -> tuple:
    # Problems found at a player's last round (no round id) come after those of rounds.
    return (row["round"] is None, row["round"] or 0, row["player"], row["problem"])


SpotKey = tuple[GroupKey, tuple, str, int]  # group, odds key, spot, stake


@dataclass
class Pass:
    """What the pass found over the scope (or over one part of it, to be joined)."""

    bets_checked: int = 0
    rounds_checked: int = 0
    found_discrepancies: Problems = field(default_factory=lambda: Problems(_discrepancy_key))
    found_chain_problems: Problems = field(default_factory=lambda: Problems(_chain_key))
    groups: dict[GroupKey, Accumulated] = field(default_factory=lambda: defaultdict(Accumulated))
    days: dict[datetime.date, Accumulated] = field(default_factory=lambda: defaultdict(Accumulated))
    # Every bet of the rounds that count as play, by group, recorded odds, spot and stake:
    # [bets, handle, returned] (the summary's and the by-kind table's sums).
    spots: dict[SpotKey, list[int]] = field(default_factory=dict)
    odds: dict[tuple, dict] = field(default_factory=dict)  # odds key → the recorded odds
    # Each player's last round seen: player → (sequence, hash).
    last: dict[int, tuple[int, str]] = field(default_factory=dict)
    # Rounds whose player's previous round this pass did not see: (round pk, player,
    # sequence, prev_hash). A single pass checks them against the stored rounds as it goes;
    # a part keeps them for the join, which may have seen that round in another part.
    first_links: list[tuple[int, int, int, str]] = field(default_factory=list)
    # A part's rounds after which the player's next round was not in the part:
    # (player, sequence) → hash, for the join.
    ends: dict[tuple[int, int], str] = field(default_factory=dict)
    part: bool = False

    @property
    def discrepancies(self) -> list[dict]:
        return self.found_discrepancies.listed

    @property
    def discrepancy_count(self) -> int:
        return self.found_discrepancies.count

    @property
    def chain_problems(self) -> list[dict]:
        return self.found_chain_problems.listed

    @property
    def chain_problem_count(self) -> int:
        return self.found_chain_problems.count

    @property
    def heads(self) -> dict[int, tuple[int, str]]:
        """Each player's last round of the period: player → (sequence, hash)."""
        return self.last

    def discrepancy(self, **row) -> None:
        self.found_discrepancies.add(row)

    def chain_problem(self, round_id: int | None, player: int, problem: str) -> None:
        self.found_chain_problems.add({"round": round_id, "player": player, "problem": problem})

    def add_bet(self, group: GroupKey, odds: dict, spot: str, stake: int, returned: int) -> None:
        key = odds_key(odds)
        self.odds.setdefault(key, odds)
        self.add_spot((group, key, spot, stake), 1, stake, returned)

    def add_spot(self, key: SpotKey, bets: int, handle: int, returned: int) -> None:
        known = self.spots.get(key)
        if known is None:
            self.spots[key] = [bets, handle, returned]
        else:
            known[0] += bets
            known[1] += handle
            known[2] += returned

    def spot_rows(self) -> Iterator[tuple[GroupKey, dict, str, int, int, int, int]]:
        """(group, odds, spot, stake, bets, handle, returned), in a fixed order."""
        for (group, key, spot, stake), (bets, handle, returned) in sorted(self.spots.items()):
            yield group, self.odds[key], spot, stake, bets, handle, returned

    def link(self, round_id: int, player: int, sequence: int, prev_hash: str, hash_: str) -> None:
        """The round's place in its player's chain, the rounds walked in id order."""
        last = self.last.get(player)
        if last is None or last[0] + 1 != sequence:
            # The player's previous round is not among those walked (before the period, at a
            # holder or offering filtered out, or in another part): looked up later.
            self.first_links.append((round_id, player, sequence, prev_hash))
            if self.part and last is not None:
                self.ends[(player, last[0])] = last[1]
        elif last[1] != prev_hash:
            self.chain_problem(
                round_id, player, "its prev_hash does not match the player's previous round"
            )
        self.last[player] = (sequence, hash_)

    def to_json(self) -> dict:
        """The pass as JSON (a part's result, sent back from a worker); ``from_json``
        reads it."""

        def accumulated(items):
            return [[key, acc.rounds, acc.handle, acc.returned, acc.mean_x13, acc.variance_x169]
                    for key, acc in items]  # fmt: skip

        position = {key: i for i, key in enumerate(self.odds)}
        return {
            "bets_checked": self.bets_checked,
            "rounds_checked": self.rounds_checked,
            "discrepancies": [self.discrepancy_count, self.discrepancies],
            "chain_problems": [self.chain_problem_count, self.chain_problems],
            "groups": accumulated(self.groups.items()),
            "days": accumulated((day.isoformat(), acc) for day, acc in self.days.items()),
            "spots": [
                [list(group), position[key], spot, stake, *sums]
                for (group, key, spot, stake), sums in self.spots.items()
            ],  # fmt: skip
            "odds": list(self.odds.values()),
            "last": [[player, seq, hash_] for player, (seq, hash_) in self.last.items()],
            "first_links": [list(link) for link in self.first_links],
            "ends": [[player, seq, hash_] for (player, seq), hash_ in self.ends.items()],
            "part": self.part,
        }

    @classmethod
    def from_json(cls, data: dict) -> Pass:
        found = cls(part=data["part"])
        found.bets_checked, found.rounds_checked = data["bets_checked"], data["rounds_checked"]
        for problems, (count, rows) in (
            (found.found_discrepancies, data["discrepancies"]),
            (found.found_chain_problems, data["chain_problems"]),
        ):
            problems.count, problems._kept = count, list(rows)
        for key, *sums in data["groups"]:
            found.groups[tuple(key)].add_sums(*sums)
        for day, *sums in data["days"]:
            found.days[datetime.date.fromisoformat(day)].add_sums(*sums)
        keys = [odds_key(odds) for odds in data["odds"]]
        found.odds = dict(zip(keys, data["odds"], strict=True))
        for group, i, spot, stake, *sums in data["spots"]:
            found.spots[(tuple(group), keys[i], spot, stake)] = list(sums)
        found.last = {player: (seq, hash_) for player, seq, hash_ in data["last"]}
        found.first_links = [tuple(link) for link in data["first_links"]]
        found.ends = {(player, seq): hash_ for player, seq, hash_ in data["ends"]}
        return found

    def join(self, other: Pass) -> None:
        """Add a later part's findings (parts joined in any order give the same result)."""
        self.bets_checked += other.bets_checked
        self.rounds_checked += other.rounds_checked
        self.found_discrepancies.merge(other.found_discrepancies)
        self.found_chain_problems.merge(other.found_chain_problems)
        for mine, theirs in ((self.groups, other.groups), (self.days, other.days)):
            for key, acc in theirs.items():
                mine[key].add_all(acc)
        for key, (bets, handle, returned) in other.spots.items():
            self.add_spot(key, bets, handle, returned)
        self.odds.update(other.odds)
        self.first_links.extend(other.first_links)
        self.ends.update(other.ends)
        for player, (sequence, hash_) in other.last.items():
            self.ends[(player, sequence)] = hash_
            if player not in self.last or self.last[player][0] < sequence:
                self.last[player] = (sequence, hash_)
