"""The ORM's reader of the scope's rounds with their bets: two server-side cursors (on
PostgreSQL; memory stays flat however long the period) walked together in round-id order, so
no join repeats a round's columns on each of its bets. The reference pass and the detail's
reference rows read through it, each with its own columns (``columns``).
"""

from __future__ import annotations

from collections.abc import Iterator

from portal.game.models import Bet, Round
from portal.reports.audit_report.reading.columns import Columns, names
from portal.reports.audit_report.scope import Scope

CHUNK = 5_000  # rounds a cursor fetches at a time (ten times as many bets)


def rounds_with_bets(
    scope: Scope, round_columns: Columns, bet_columns: Columns
) -> Iterator[tuple[tuple, list[tuple]]]:
    """Each round of the scope (``round_columns``, the first its id) with its bets
    (``bet_columns``, the first ``"round_id"``), in round-id order, as tuples."""
    rounds = Round.objects.filter(scope.q()).order_by("pk").values_list(*names(round_columns))
    bets = Bet.objects.filter(scope.q("round__")).order_by("round_id", "position")
    bets = bets.values_list(*names(bet_columns)).iterator(chunk_size=CHUNK * 10)
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
