"""The pass's reading on PostgreSQL: the scope's round ids copied out first and cut into blocks
of ``BLOCK`` rounds; each block's rounds, then their bets, copied out (``statements``) and
decoded in bulk into typed columns (``copy_out.copied``), so memory holds one block however
long the period. One statement, then two per block.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from portal.core.replica import read_connection
from portal.reports.audit_report.reading import statements
from portal.reports.audit_report.reading.columns import PASS_BET_COLUMNS, PASS_ROUND_COLUMNS
from portal.reports.audit_report.reading.copy_out import arrow_types, copied
from portal.reports.audit_report.scope import Scope

BLOCK = 20_000  # rounds per block (about 200,000 bets)
_ROUND_TYPES = arrow_types(PASS_ROUND_COLUMNS)
_BET_TYPES = arrow_types(PASS_BET_COLUMNS)


def blocks(scope: Scope) -> Iterator[tuple[pa.RecordBatch, pa.RecordBatch]]:
    """Each block of the scope's rounds (``PASS_ROUND_COLUMNS``, in id order) with their
    bets (``PASS_BET_COLUMNS``, in round and position order)."""
    where, params = statements.scope_condition(scope)
    with read_connection().cursor() as cursor:
        ids = copied(cursor, statements.ids_statement(where), params, {"id": pa.int64()})
        ids = ids.column("id").to_numpy()
        for at in range(0, len(ids), BLOCK):
            first, last = int(ids[at]), int(ids[min(at + BLOCK, len(ids)) - 1])
            rounds = copied(
                cursor, statements.rounds_statement(where), [*params, first, last], _ROUND_TYPES
            )
            bets = copied(
                cursor,
                statements.bets_statement(where),
                [first, last, *params, first, last],
                _BET_TYPES,
            )
            yield rounds, bets
