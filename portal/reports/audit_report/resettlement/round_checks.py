"""The checks the audit report's pass makes of every round, the same way whichever pass reads
it: ``settle_round`` settles it again from what it recorded, through ``jinzi``'s batch path
(``SettlementTable.settle_columns``) from the wager, stake, outcome, odds and wheel the round
recorded, compares that with what was paid and its totals with its bets', and adds its
exact moments (``RoundMomentsTable``: the round's bets share one outcome) and bets to the
figures; ``check_link`` compares its hash made again with the stored one and places it in
its player's chain. The reference pass calls both for every round, the columnar pass
``settle_round`` for the rounds its blocks cannot take, and ``check_link`` for every round.
"""

from __future__ import annotations

import jinzi
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.finishing import LINKS_BATCH, check_links
from portal.reports.audit_report.scope import Scope
from portal.reports.audit_report.values import odds_key

SPOT_INDEX = {wager.spot: wager.spot_index for wager in jinzi.legal_wagers()}


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


def settle_round(found: Pass, tables: Tables, scope: Scope, record: dict, bets: list) -> None:
    """One round settled again from what it recorded (``record``: ``PASS_ROUND_COLUMNS`` by
    name; ``bets``: ``PASS_BET_COLUMNS`` tuples): its bets compared with what was paid, its
    totals with its bets', its moments and bets added to the figures when it counts as
    play. Its place in the chain is ``check_link``'s."""
    round_id, outcome = record["id"], record["outcome"]
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


def check_link(
    found: Pass, round_id: int, player: int, sequence: int, prev_hash: str, hash_: str, digest: str
) -> None:
    """The round's hash made again (``digest``) against the stored one, and its place in
    its player's chain (``Pass.link``, the rounds walked in id order). A single pass checks
    the links it could not place against the stored rounds a batch at a time as it goes
    (``finishing.check_links``), so memory stays flat."""
    if digest != hash_:
        found.chain_problem(round_id, player, CONTENT_CHANGED)
    found.link(round_id, player, sequence, prev_hash, hash_)
    if not found.part and len(found.first_links) >= LINKS_BATCH:
        check_links(found)
