"""The clause matrix as a report document (``portal.reports.document``), so that the PDF goes
to a test lab with a submission through the same renderer as every § 811a.9 report."""

from __future__ import annotations

import datetime

from portal.core.padates import pa_stamp, pa_time
from portal.regulation.matrix import NOT_RUN, Matrix, ResultsFile
from portal.regulation.register import Clause
from portal.reports.document import column, made, section

TITLE = "Clause traceability matrix: 58 Pa. Code § 617b.8"
DEFINITION_VERSION = "1"

COLUMNS = [
    column("clause", "Clause"),
    column("kind", "Kind"),
    column("title", "Title"),
    column("summary", "Summary"),
    column("status", "Status"),
    column("code", "Code locations", "integer"),
    column("tests", "Tests", "integer"),
    column("proofs", "Proving", "integer"),
    column("passed", "Passed", "integer"),
    column("failed", "Failed", "integer"),
    column("not_run", "Not run", "integer"),
    column("untested", "Untested", "flag"),
]


def _status(clause: Clause) -> str:
    if clause.planned:
        return "not yet applied"
    return f"applied; not yet applied: {clause.pending}" if clause.pending else "applied"


def _flag(row) -> str:
    if row.clause.planned:
        return ""
    if not row.tested:
        return "no test proves it"
    return "no proving test passed" if row.proved is False else ""


def _taken(results: ResultsFile) -> str:
    try:
        when = pa_stamp(datetime.datetime.fromisoformat(results.taken_at or ""))
    except ValueError:
        when = "at an unrecorded time"
    database = f" on {results.database}" if results.database else ""
    return f"taken {when}{database} ({results.tests} tests)"


def matrix_document(matrix: Matrix, *, now: datetime.datetime) -> dict:
    rows = []
    for row in matrix.rows:
        counts = row.results()
        rows.append(
            {
                "clause": row.clause.id,
                "kind": row.clause.kind,
                "title": row.clause.title,
                "summary": row.clause.summary,
                "status": _status(row.clause),
                "code": len(row.code),
                "tests": len(row.tests),
                "proofs": len(row.proofs),
                "passed": counts["passed"],
                "failed": counts["failed"],
                "not_run": counts[NOT_RUN],
                "untested": _flag(row),
            }
        )
    problems = [{"where": problem.where, "problem": problem.message} for problem in matrix.problems]
    results = "; ".join(_taken(r) for r in matrix.results) or (
        "none: the tests have not been run on this installation"
    )
    sections = [
        section(
            "clauses",
            "Clauses, where the code applies them and the tests that prove them",
            COLUMNS,
            rows,
            notes=[f"Test results: {results}."],
        )
    ]
    if problems:  # an empty section would print "No Activity"
        where = [column("where", "Where"), column("problem", "Problem", "flag")]
        sections.append(section("problems", "Problems (CI refuses these)", where, problems))
    return {
        "report": "clause_matrix",
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        **made(now),
        "holder": "All certificate holders",
        "period": {"as_of": pa_time(now).date().isoformat()},
        "filters": {},
        "sections": sections,
    }
