"""What the audit report's pass finds, and the checks every pass makes the same way.

``Pass`` holds the figures (by offering and paytable version, by gaming day, by spot and
stake), the problems (the first ``LISTED`` of each kind by round, and their counts), each
player's last round, and the links still to check. ``settle_round`` settles one round
again from what it recorded and ``check_link`` places it in its player's chain: the
reference pass (``resettle``) calls them for every round, the columnar pass (``columnar``)
for the rounds its blocks cannot take. ``finish`` makes the checks that need the whole
period; ``joined`` joins the parts of a period made apart.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.db.models import Q

import jinzi
from portal.core.hashing import GENESIS_HASH
from portal.game.chain import BET_FIELDS, LATER_ROUND_FIELDS, ROUND_FIELDS
from portal.game.models import Round, Wallet
from portal.reports.audit_report.figures import GroupKey, odds_key
from portal.reports.audit_report.scope import Scope

CHUNK = 5_000  # rows a cursor fetches at a time
LISTED = 1_000  # problems listed in full; the count is always whole
LINKS_BATCH = 1_000  # chain links looked up in the database at a time
SPOT_INDEX = {wager.spot: wager.spot_index for wager in jinzi.legal_wagers()}
ROUND_COLUMNS = (
    "pk",
    *dict.fromkeys((*ROUND_FIELDS, *LATER_ROUND_FIELDS)),
    "hash",
)
BET_COLUMNS = ("round_id", *BET_FIELDS)


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
    """Problems found: every one counted, the ``LISTED`` first by ``key`` kept, so a pass
    split into parts and joined lists the same ones as a single pass."""

    def __init__(self, key: Callable[[dict], tuple]) -> None:
        self.key, self.count, self._kept = key, 0, []

    def add(self, row: dict) -> None:
        self.count += 1
        self._kept.append(row)
        if len(self._kept) >= 2 * LISTED:
            self._trim()

    def merge(self, other: Problems) -> None:
        self.count += other.count
        self._kept.extend(other._kept)
        self._trim()

    def _trim(self) -> None:
        self._kept = sorted(self._kept, key=self.key)[:LISTED]

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
        if not self.part and len(self.first_links) >= LINKS_BATCH:
            _check_links(self)

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


class Tables:
    """The compiled settlement and moments tables of each recorded odds and wheel."""

    def __init__(self) -> None:
        self._known: dict[tuple, tuple[jinzi.SettlementTable, jinzi.RoundMomentsTable]] = {}

    def of(self, odds: dict, order: list, first: str):
        key = (odds_key(odds), tuple(order), first)
        tables = self._known.get(key)
        if tables is None:
            paytable, wheel = jinzi.Paytable.of(odds), jinzi.Wheel.of(order, first)
            tables = (
                jinzi.SettlementTable.for_(paytable, wheel),
                jinzi.RoundMomentsTable.for_(paytable, wheel),
            )
            self._known[key] = tables
        return tables


def joined(parts: Iterable[Pass]) -> Pass:
    """The parts of a period joined into one pass, then finished: the links and chain heads
    at the parts' edges are checked against each other, the rest against the stored rounds,
    exactly as a single pass checks them."""
    found = Pass()
    for one in parts:
        found.join(one)
    finish(found)
    return found


def finish(found: Pass) -> None:
    """The checks that need every round of the period seen: each first link whose previous
    round some part saw is compared with it; the others, and each player's last round, are
    checked against the stored rounds and wallets."""
    links, found.first_links = found.first_links, []
    for round_id, player, sequence, prev in links:
        before = found.ends.get((player, sequence - 1)) if sequence > 1 else None
        if before is None:
            found.first_links.append((round_id, player, sequence, prev))
            if len(found.first_links) >= LINKS_BATCH:
                _check_links(found)
        elif before != prev:
            found.chain_problem(
                round_id, player, "its prev_hash does not match the player's previous round"
            )
    _check_links(found)
    found.ends = {}
    found.part = False
    _check_heads(found)


def settle_round(found: Pass, tables: Tables, scope: Scope, record: dict, bets: list) -> None:
    """One round settled again from what it recorded (``record``: ``ROUND_COLUMNS`` by
    name; ``bets``: ``BET_COLUMNS`` tuples): its bets compared with what was paid, its
    totals with its bets', its moments and bets added to the figures when it counts as
    play. Its place in the chain is ``check_link``'s."""
    round_id, outcome = record["pk"], record["outcome"]
    found.rounds_checked += 1
    spots = [bet[4] for bet in bets]
    stakes = [bet[5] for bet in bets]
    paid = [bet[6] for bet in bets]
    found.bets_checked += len(bets)
    # A void round (§ 617a.6) is settled again and chain-checked, but is not play: its
    # bets and moments count towards no handle, expected win or SD.
    played = round_id not in scope.voided
    group = (record["offering_id"], record["paytable_id"], record["paytable_version"])
    if played:
        for spot, stake, returned in zip(spots, stakes, paid, strict=True):
            found.add_bet(group, record["paytable_odds"], spot, stake, returned)
    try:
        settlement, moments_table = tables.of(
            record["paytable_odds"], record["wheel_order"], record["first_colour"]
        )
        indices = [SPOT_INDEX[spot] for spot in spots]
        again = settlement.settle_columns(outcome, indices, stakes)
        moments = moments_table.moments(indices, stakes)
    except (jinzi.JinziError, KeyError, ValueError, TypeError) as error:
        found.discrepancy(
            round=round_id, position=None, spot="", stake=sum(stakes), paid=sum(paid),
            settled=None, problem=f"cannot be settled again: {error}",
        )  # fmt: skip
    else:
        for bet, returned, settled in zip(bets, paid, again, strict=True):
            if returned != settled:
                found.discrepancy(
                    round=round_id, position=bet[1], spot=bet[4], stake=bet[5], paid=returned,
                    settled=settled, problem="paid differs from the re-settlement",
                )  # fmt: skip
        if played:
            staked, returned = record["total_staked"], record["total_returned"]
            found.groups[group].add(staked, returned, moments)
            day = scope.gaming_day(record["offering_id"], record["started_at"])
            found.days[day].add(staked, returned, moments)
    check_totals(found, round_id, record["total_staked"], record["total_returned"], stakes, paid)


def check_totals(
    found: Pass, round_id: int, total_staked: int, total_returned: int, stakes, paid
) -> None:
    staked, returned = sum(stakes), sum(paid)
    if staked != total_staked or returned != total_returned:
        found.discrepancy(
            round=round_id, position=None, spot="(round totals)", stake=total_staked,
            paid=total_returned, settled=returned,
            problem=f"the round's totals differ from its bets' (stakes {staked})",
        )  # fmt: skip


CONTENT_CHANGED = "its content does not match its hash (the round or a bet was altered)"


def check_link(found: Pass, record: dict, digest: str) -> None:
    """The round's hash made again (``digest``) against the stored one, and its link."""
    round_id, player = record["pk"], record["player_id"]
    if digest != record["hash"]:
        found.chain_problem(round_id, player, CONTENT_CHANGED)
    found.link(round_id, player, record["sequence"], record["prev_hash"], record["hash"])


def _check_links(found: Pass) -> None:
    """Each round whose previous round the pass did not see links to the player's stored
    round before it (or, as a first round, to the genesis hash): a deleted round shows.
    Checked and forgotten a batch at a time, so memory stays flat."""
    links, found.first_links = found.first_links, []
    wanted = [prev for _, _, sequence, prev in links if sequence > 1]
    before = {
        hash_: (player, sequence)
        for hash_, player, sequence in Round.objects.filter(hash__in=wanted).values_list(
            "hash", "player_id", "sequence"
        )
    }
    for round_id, player, sequence, prev in links:
        if sequence == 1:
            if prev != GENESIS_HASH:
                found.chain_problem(round_id, player, "a first round not linked to the genesis")
        elif before.get(prev) != (player, sequence - 1):
            found.chain_problem(
                round_id, player, "its prev_hash is not the hash of the player's round before"
            )


def _check_heads(found: Pass) -> None:
    """Each player's last round of the period is followed by their next stored round (which
    must link to it), or is the last round their wallet records: a deleted or altered
    latest round shows, as ``verify_round_chain`` finds it."""
    heads = sorted(found.heads.items())
    for start in range(0, len(heads), LINKS_BATCH):
        batch = heads[start : start + LINKS_BATCH]
        following = Q()
        for player, (sequence, _) in batch:
            following |= Q(player_id=player, sequence=sequence + 1)
        after = {
            player: prev
            for player, prev in Round.objects.filter(following).values_list(
                "player_id", "prev_hash"
            )
        }
        wallets = dict(
            (player, (played, head))
            for player, played, head in Wallet.objects.filter(
                player_id__in=[player for player, _ in batch]
            ).values_list("player_id", "rounds_played", "chain_head")
        )
        for player, (sequence, hash_) in batch:
            if player in after:
                if after[player] != hash_:
                    found.chain_problem(
                        None, player, f"round {sequence + 1} does not link to round {sequence}"
                    )
            elif wallets.get(player) != (sequence, hash_):
                found.chain_problem(
                    None,
                    player,
                    f"the wallet's chain ends elsewhere than round {sequence}: a later round "
                    "is missing",
                )
