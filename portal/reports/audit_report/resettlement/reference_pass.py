"""The audit report's reference pass: a round at a time, through the ORM (``round_cursors``:
two cursors walked together in round-id order). Each round is settled again, its moments
added and its hash made again (``portal.game.chain.round_digest``) and linked to its
player's chain by ``round_checks``. It is the definition the columnar pass is held to, and
the pass on SQLite.
"""

from __future__ import annotations

from collections.abc import Callable

from portal.game.chain import round_digest
from portal.reports.audit_report.reading.columns import PASS_BET_COLUMNS, PASS_ROUND_COLUMNS, names
from portal.reports.audit_report.reading.round_cursors import rounds_with_bets
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.round_checks import Tables, check_link, settle_round
from portal.reports.audit_report.scope import Scope

_ROUND_NAMES = names(PASS_ROUND_COLUMNS)
_BET_NAMES = names(PASS_BET_COLUMNS)


def reference_pass(
    scope: Scope, progress: Callable[[int], None] | None = None, *, part: bool = False
) -> Pass:
    """The pass over the scope, not finished (``finishing.finish``); ``progress(rounds
    done)`` every 10,000 rounds. ``part``: the scope is one part of a period."""
    found = Pass(part=part)
    tables = Tables()
    for row, bets in rounds_with_bets(scope, PASS_ROUND_COLUMNS, PASS_BET_COLUMNS):
        record = dict(zip(_ROUND_NAMES, row, strict=True))
        settle_round(found, tables, scope, record, bets)
        digest = round_digest(record, (dict(zip(_BET_NAMES, bet, strict=True)) for bet in bets))
        check_link(
            found, record["id"], record["player_id"], record["sequence"], record["prev_hash"],
            record["hash"], digest,
        )  # fmt: skip
        if progress is not None and found.rounds_checked % 10_000 == 0:
            progress(found.rounds_checked)
    return found
