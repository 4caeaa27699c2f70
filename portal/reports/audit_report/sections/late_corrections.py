"""The audit report's corrections to earlier gaming days (reading:late-corrections).

A void or adjustment decided over the period's instants (before the cutoff) to a round
that started on an earlier gaming day is listed here, with the money it moved, and the
reconciliation counts it (``figures.reconciliation.corrected_late``). The handle and win of
the round's own period are not rewritten: a report of that period made later lists the
correction with its round (``voids_and_adjustments``), as of its own making, and an earlier
run of it is marked "corrected since" (``portal.reports.corrected_since``). A correction of
a round of this period is not late: it is listed with the period's voids and adjustments.
"""

from __future__ import annotations

from portal.core.padates import gaming_day
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection
from portal.reports.audit_report.scope import Scope
from portal.reports.audit_report.sections.voids_and_adjustments import (
    CORRECTIONS_LISTED,
    PEOPLE,
    ROUND,
    common,
)
from portal.reports.document import column, section

LATE_COLUMNS = (
    "pk", "kind", "round_id", "round__offering_id", "round__player_id", "round__started_at",
    "amount", "credited", "debited", "uncollected", "reason",
    "proposed_by__username", "proposed_at", "decided_by__username", "decided_at",
)  # fmt: skip

COLUMNS = [
    column("correction", "Correction"),
    *ROUND,
    column("round_day", "Gaming day of the round", "date"),
    column("applied", "Applied", "datetime"),
    column("difference", "Adjustment: difference owed to the player", "money"),
    column("credited", "Credited to the player", "money"),
    column("debited", "Debited from the player", "money"),
    column("uncollected", "Uncollected", "money"),
    *PEOPLE,
]


def late_rows(scope: Scope) -> list[dict]:
    """The corrections applied in the period to rounds of earlier gaming days, in the order
    they were applied, the first ``CORRECTIONS_LISTED``: one query."""
    found = (
        RoundCorrection.objects.filter(scope.applied_late(), status=CorrectionStatus.APPROVED)
        .order_by("decided_at", "pk")
        .values(*LATE_COLUMNS)[:CORRECTIONS_LISTED]
    )
    rows = []
    for row in found:
        holder = scope.holders[scope.offerings[row["round__offering_id"]][0]]
        adjustment = row["kind"] == CorrectionKind.ADJUSTMENT
        rows.append(
            {
                "correction": CorrectionKind(row["kind"]).label,
                **common(scope, row),
                "round_day": gaming_day(row["round__started_at"], holder.start_hour).isoformat(),
                "applied": row["decided_at"].isoformat(),
                "difference": row["amount"] if adjustment else None,
                "credited": row["credited"],
                "debited": row["debited"],
                "uncollected": row["uncollected"],
            }
        )
    return rows


def late_section(scope: Scope, rows: list[dict]) -> dict:
    notes = [
        "reading:late-corrections: the voids and adjustments applied in this period to rounds "
        "of earlier gaming days, with the money they moved. The player accounts above "
        "carry this money, and the reconciliation counts it apart. The handle and win of "
        "the period each round was played in are not rewritten: a report of that period "
        "made now lists the correction with its round, and a report of it made before the "
        "correction is marked as corrected since.",
    ]
    if len(rows) == CORRECTIONS_LISTED:
        notes.append(f"The first {CORRECTIONS_LISTED:,} are listed, in the order applied.")
    totals = None
    if rows:
        totals = {
            name: sum(row[name] or 0 for row in rows)
            for name in ("difference", "credited", "debited", "uncollected")
        }
    return section(
        "late_corrections",
        "Corrections to earlier gaming days",
        COLUMNS,
        rows,
        totals=totals,
        notes=notes,
        sheet="Earlier days corrected",
    )


def sections(scope: Scope) -> list[dict]:
    """The one section, from one query."""
    return [late_section(scope, late_rows(scope))]
