"""The audit report's one pass over every bet: independent re-settlement, each round's
exact moments, and each round's place in its player's hash chain. ``resettle`` makes it:
on PostgreSQL the columnar pass (``columnar``), elsewhere the reference pass here, which
is the definition the columnar one is held to; what either finds is a ``found.Pass``.

In the reference pass, two cursors read the scope's rounds and their bets in round-id
order (server-side cursors on PostgreSQL, so memory stays flat however long the period),
and are walked together.
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

from collections.abc import Callable, Iterator

from portal.game.chain import round_digest
from portal.game.models import Bet, Round
from portal.reports.audit_report import columnar
from portal.reports.audit_report.found import (  # noqa: F401 (the pass's names, read here)
    BET_COLUMNS,
    CHUNK,
    LISTED,
    ROUND_COLUMNS,
    Pass,
    Tables,
    check_link,
    finish,
    joined,
    settle_round,
)
from portal.reports.audit_report.scope import Scope


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


def resettle(
    scope: Scope, progress: Callable[[int], None] | None = None, *, part: bool = False
) -> Pass:
    """The pass over the scope; ``progress(rounds done)`` as it goes. On PostgreSQL the
    columnar pass (``columnar``), elsewhere the reference (``reference_pass``): the same
    findings either way. ``part``: the scope is one part of a period, joined later
    (``joined``); otherwise the pass is finished here."""
    if columnar.available():
        found = columnar.columnar_pass(scope, progress, part=part)
    else:
        found = reference_pass(scope, progress, part=part)
    if not part:
        finish(found)
    return found


def reference_pass(
    scope: Scope, progress: Callable[[int], None] | None = None, *, part: bool = False
) -> Pass:
    """The pass a round at a time, through the ORM: the definition the columnar pass is
    held to, and the pass on SQLite. Not finished (``finish``)."""
    found = Pass(part=part)
    tables = Tables()
    for row, bets in rounds_with_bets(scope, ROUND_COLUMNS, BET_COLUMNS):
        record = dict(zip(ROUND_COLUMNS, row, strict=True))
        settle_round(found, tables, scope, record, bets)
        digest = round_digest(record, (dict(zip(BET_COLUMNS, bet, strict=True)) for bet in bets))
        check_link(found, record, digest)
        if progress is not None and found.rounds_checked % 10_000 == 0:
            progress(found.rounds_checked)
    return found
