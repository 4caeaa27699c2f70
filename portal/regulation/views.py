"""The Regulation page: every clause the project applies, beside the rule's text, with the
code that applies it and the tests that prove it (their last results), for every signed-in
back-office role, and as CSV and PDF (the API serves it as JSON: ``portal.regulation.api``)."""

from __future__ import annotations

import datetime
import functools
import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.core.csv_export import csv_lines, csv_response
from portal.core.errors import ValidationFailed
from portal.core.pages import domain_errors
from portal.core.software import running_identity
from portal.regulation.document import matrix_document
from portal.regulation.management.commands.clauses import default_results_path
from portal.regulation.matrix import (
    CSV_HEADER,
    Matrix,
    Row,
    build_matrix,
    matrix_csv_rows,
)
from portal.reports.render import write_pdf_document
from portal.software.selectors import running_software_approved

# The records each kind of clause governs, as the pages that list them, and who may open them.
GOVERNED_LISTS = {
    "layout": ("compliance:layout-list", "Layouts", Action.VIEW),
    "paytable": ("compliance:paytable-list", "Paytables", Action.VIEW),
    "rules_submission": ("compliance:rules-list", "Rules submissions", Action.VIEW),
    "terms": ("compliance:terms-list", "Terms and conditions", Action.VIEW),
    "offering": ("compliance:offering-list", "Offerings", Action.VIEW),
    "round": ("game:round-list", "Game rounds", Action.VIEW_ROUNDS),
    "audit_event": ("audit:event-list", "Audit trail", Action.VIEW_AUDIT),
    "availability": ("compliance:availability-list", "Availability log", Action.VIEW_AUDIT),
    "software_installation": (
        "software:installation-list",
        "Software installation log",
        Action.VIEW_AUDIT,
    ),
    "report": ("reports:run-list", "Reports", Action.VIEW),
}


DATABASE_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def current_matrix() -> Matrix:
    """The matrix, built once per process for each state of the results file: the code and
    tests do not change while the portal runs; the results change when the suite runs."""
    path = default_results_path()
    stamp = path.stat().st_mtime_ns if path.is_file() else None
    return _matrix(str(path), stamp)


@functools.lru_cache(maxsize=2)
def _matrix(path: str, stamp: int | None) -> Matrix:
    return build_matrix(results_paths=Path(path) if stamp is not None else None)


def _when(instant: str | None) -> datetime.datetime | None:
    """A results file's ISO 8601 instant, for the page to show in Pennsylvania time."""
    if not instant:
        return None
    try:
        return datetime.datetime.fromisoformat(instant)
    except ValueError:
        return None


@dataclass(frozen=True)
class Standing:
    """Whether a clause is proven, in a regulator's words: ``key`` for its style, ``proven``
    for the count at the top of the page."""

    key: str
    words: str
    proven: bool = False


def standing(row: Row) -> Standing:
    """What the page says first of ``row``: proven, not proven (and why), or not yet applied."""
    if row.clause.planned:
        return Standing("planned", "Not proven: not yet applied (a later change applies it).")
    if not row.tested:
        return Standing("untested", "Not proven: no test shows it applied yet.")
    if row.proved is None:  # no results file on this installation
        count = len(row.proofs)
        written = f"{count} test{pluralize(count)}" if count else "tests of each of its parts"
        return Standing("not-run", f"Proofs written ({written}); not run on this installation.")
    if row.proved is False:
        return Standing("unproved", "Not proven: no test that proves it passed when last run.")
    passed = len([ref for ref in row.proofs if ref.result == "passed"])
    if passed:
        words = f"Proven: {passed} test{pluralize(passed)} showing it applied passed."
        return Standing("proven", words, proven=True)
    return Standing("proven", "Proven through its parts: each part's proof passed.", proven=True)


def _links(user, kinds) -> list[tuple[str, str]]:
    return [
        (reverse(name), label)
        for kind in kinds
        if kind in GOVERNED_LISTS
        for name, label, action in [GOVERNED_LISTS[kind]]
        if policy.may(user, action)
    ]


@login_required
@require_safe
@domain_errors
def regulation(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.VIEW)
    matrix = current_matrix()
    export = request.GET.get("export")
    now = timezone.now()
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    if export == "csv":
        lines = csv_lines(CSV_HEADER, matrix_csv_rows(matrix), words=True)
        return csv_response(lines, f"clause-matrix-{stamp}.csv")
    if export == "pdf":
        out = io.BytesIO()
        write_pdf_document(matrix_document(matrix, now=now), out)
        response = HttpResponse(out.getvalue(), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="clause-matrix-{stamp}.pdf"'
        response["Cache-Control"] = "private, no-store"
        return response
    if export is not None:
        raise ValidationFailed(f"No export “{export}”: ask for csv or pdf.")
    rows = [(row, _links(request.user, row.clause.governs), standing(row)) for row in matrix.rows]
    counts = Counter(
        "planned" if row.clause.planned else "proven" if stand.proven else "open"
        for row, _, stand in rows
    )
    results = [
        {
            "taken_at": _when(r.taken_at),
            "oldest": _when(r.oldest) if r.oldest != r.taken_at else None,
            "database": DATABASE_NAMES.get(r.database or "", r.database),
            "tests": r.tests,
        }
        for r in matrix.results
    ]
    context = {
        "rows": rows,
        "counts": counts,
        "problems": matrix.problems,
        "planned": matrix.planned,
        "results_file": matrix.results_path,
        "results": results,
        # The game software running, and whether it is approved (§ 461a.4).
        "software": running_identity(),
        "software_approved": running_software_approved(),
    }
    return render(request, "regulation/matrix.html", context)
