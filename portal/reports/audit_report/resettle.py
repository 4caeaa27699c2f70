"""The audit report's one pass over every bet: independent re-settlement, each round's
exact moments, and each round's place in its player's hash chain.

Two cursors read the scope's rounds and their bets in round-id order (server-side cursors
on PostgreSQL, so memory stays flat however long the period), and are walked together.
For each round:

- every bet is settled again through ``jinzi``'s batch path
  (``SettlementTable.settle_columns``) from the wager, stake, outcome, odds and wheel the
  round recorded, and compared with what was paid; the round's own totals are compared
  with its bets';
- the exact mean and variance of its return (``RoundMomentsTable``: the round's bets share
  one outcome) are added to its offering/paytable-version group and its gaming day;
- its content is hashed again (``portal.game.chain``) and compared with its stored hash,
  and its ``prev_hash`` with the player's previous round's hash.

Only the figures, the problems found and each player's last round are kept.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.db.models import Q

import jinzi
from portal.core.hashing import GENESIS_HASH
from portal.game.chain import BET_FIELDS, LATER_ROUND_FIELDS, ROUND_FIELDS, round_digest
from portal.game.models import Bet, Round, Wallet
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

    @property
    def moments(self) -> jinzi.RoundMoments:
        return jinzi.RoundMoments(self.handle, self.mean_x13, self.variance_x169)


@dataclass
class Pass:
    """What the pass found."""

    bets_checked: int = 0
    rounds_checked: int = 0
    discrepancies: list[dict] = field(default_factory=list)
    discrepancy_count: int = 0
    chain_problems: list[dict] = field(default_factory=list)
    chain_problem_count: int = 0
    groups: dict[GroupKey, Accumulated] = field(default_factory=lambda: defaultdict(Accumulated))
    days: dict[datetime.date, Accumulated] = field(default_factory=lambda: defaultdict(Accumulated))
    heads: dict[int, tuple[int, str]] = field(default_factory=dict)  # player → (sequence, hash)
    # Rounds whose player's previous round the pass did not see: (round pk, player,
    # sequence, prev_hash), checked against the stored rounds after the pass.
    first_links: list[tuple[int, int, int, str]] = field(default_factory=list)

    def discrepancy(self, **row) -> None:
        self.discrepancy_count += 1
        if len(self.discrepancies) < LISTED:
            self.discrepancies.append(row)

    def chain_problem(self, round_id: int | None, player: int, problem: str) -> None:
        self.chain_problem_count += 1
        if len(self.chain_problems) < LISTED:
            self.chain_problems.append({"round": round_id, "player": player, "problem": problem})


class _Tables:
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


def rounds_with_bets(
    scope: Scope, round_columns: tuple[str, ...], bet_columns: tuple[str, ...]
) -> Iterator[tuple[tuple, list[tuple]]]:
    """Each round of the scope (``round_columns``, the first ``"pk"``) with its bets
    (``bet_columns``, the first ``"round_id"``), in round-id order: two cursors walked
    together, so no join repeats a round's columns on each of its bets."""
    rounds = Round.objects.filter(scope.q()).order_by("pk").values_list(*round_columns)
    bets = Bet.objects.filter(scope.q("round__")).order_by("round_id", "position")
    bets = bets.values_list(*bet_columns).iterator(chunk_size=CHUNK * 10)
    pending = next(bets, None)
    for row in rounds.iterator(chunk_size=CHUNK):
        # Both read the same rounds; a bet whose round the other cursor did not return
        # (impossible in append-only tables) is passed over, and its round's totals show it.
        while pending is not None and pending[0] < row[0]:
            pending = next(bets, None)
        mine = []
        while pending is not None and pending[0] == row[0]:
            mine.append(pending)
            pending = next(bets, None)
        yield row, mine


def resettle(scope: Scope, progress: Callable[[int], None] | None = None) -> Pass:
    """The pass over the scope; ``progress(rounds done)`` every 10,000 rounds."""
    found = Pass()
    tables = _Tables()
    for row, bets in rounds_with_bets(scope, ROUND_COLUMNS, BET_COLUMNS):
        _check_round(found, tables, scope, dict(zip(ROUND_COLUMNS, row, strict=True)), bets)
        if len(found.first_links) >= LINKS_BATCH:
            _check_links(found)
        if progress is not None and found.rounds_checked % 10_000 == 0:
            progress(found.rounds_checked)
    _check_links(found)
    _check_heads(found)
    return found


def _check_round(found: Pass, tables: _Tables, scope: Scope, record: dict, bets: list) -> None:
    round_id, outcome = record["pk"], record["outcome"]
    found.rounds_checked += 1
    spots = [bet[4] for bet in bets]
    stakes = [bet[5] for bet in bets]
    paid = [bet[6] for bet in bets]
    found.bets_checked += len(bets)
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
        # A void round (§ 617a.6) is settled again and chain-checked, but is not play: its
        # moments count towards no expected win or SD.
        if round_id not in scope.voided:
            group = (record["offering_id"], record["paytable_id"], record["paytable_version"])
            staked, returned = record["total_staked"], record["total_returned"]
            found.groups[group].add(staked, returned, moments)
            day = scope.gaming_day(record["offering_id"], record["started_at"])
            found.days[day].add(staked, returned, moments)
    if sum(stakes) != record["total_staked"] or sum(paid) != record["total_returned"]:
        found.discrepancy(
            round=round_id, position=None, spot="(round totals)", stake=record["total_staked"],
            paid=record["total_returned"], settled=sum(paid),
            problem=f"the round's totals differ from its bets' (stakes {sum(stakes)})",
        )  # fmt: skip
    _check_chain(found, record, bets)


def _check_chain(found: Pass, record: dict, bets: list) -> None:
    round_id, player, sequence = record["pk"], record["player_id"], record["sequence"]
    bet_fields = (dict(zip(BET_COLUMNS, bet, strict=True)) for bet in bets)
    if round_digest(record, bet_fields) != record["hash"]:
        found.chain_problem(
            round_id, player, "its content does not match its hash (the round or a bet was altered)"
        )
    last = found.heads.get(player)
    if last is None or last[0] + 1 != sequence:
        # The player's previous round is outside the scope (before the period, or at a
        # holder or offering filtered out): it is looked up after the pass.
        found.first_links.append((round_id, player, sequence, record["prev_hash"]))
    elif last[1] != record["prev_hash"]:
        found.chain_problem(
            round_id, player, "its prev_hash does not match the player's previous round"
        )
    found.heads[player] = (sequence, record["hash"])


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
