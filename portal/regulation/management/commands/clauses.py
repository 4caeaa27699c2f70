"""``manage.py clauses``: the traceability matrix, one clause in full, or CI's check."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from portal.regulation.matrix import (
    CSV_HEADER,
    NOT_RUN,
    Matrix,
    ResultsFile,
    Row,
    build_matrix,
    matrix_as_dict,
    matrix_csv_rows,
    read_results_file,
    row_as_dict,
)
from portal.regulation.register import APPLIED, PLANNED

RESULTS_FILE = "clause-results.json"
STATUS_TEXT = {APPLIED: "applied", PLANNED: "planned, not yet applied"}


def default_results_path() -> Path:
    """Where ``tests/clause_results.py`` writes by default: the portal's var folder."""
    return Path(settings.VAR_DIR) / RESULTS_FILE


def taken_text(results: ResultsFile) -> str:
    """ "var/ci/sqlite.json (sqlite): taken 2026-…, oldest result 2026-…, 1366 tests"."""
    database = f" ({results.database})" if results.database else ""
    taken = results.taken_at or "unknown"
    oldest = (
        f", oldest result {results.oldest}"
        if results.oldest and results.oldest != results.taken_at
        else ""
    )
    return f"{results.path}{database}: taken {taken}{oldest}, {results.tests} tests"


def results_lines(matrix: Matrix) -> list[str]:
    if not matrix.results:
        return ["results: none (every test is not run; only the static checks apply)"]
    return [f"results: {taken_text(results)}" for results in matrix.results]


def results_text(row: Row) -> str:
    counts = row.results()
    if not counts:
        return "-"
    order = ("failed", "passed", "skipped", NOT_RUN)
    return ", ".join(f"{counts[name]} {name}" for name in order if counts[name])


def matrix_text(matrix: Matrix) -> list[str]:
    width = max(len(row.clause.id) for row in matrix.rows)
    lines = [f"{'clause':<{width}}  {'kind':<9}  code  tests  proves  via parts  last results"]
    for row in matrix.rows:
        flag = "  PLANNED" if row.clause.planned else "" if row.tested else "  UNTESTED"
        if not row.clause.planned and row.tested and row.proved is False:
            flag = "  UNPROVED"
        lines.append(
            f"{row.clause.id:<{width}}  {row.clause.kind:<9}  {len(row.code):>4}  "
            f"{len(row.tests):>5}  {len(row.proofs):>6}  {len(row.via_parts):>9}  "
            f"{results_text(row)}{flag}"
        )
    lines += results_lines(matrix)
    lines.append(f"problems: {len(matrix.problems)} (see --check)")
    return lines


def clause_text(matrix: Matrix, row: Row) -> list[str]:
    clause = row.clause
    lines = [f"{clause.id} ({clause.kind}): {clause.title}", f"  {clause.summary}"]
    if clause.text:
        lines += ["", *(f"  > {line}" for line in clause.text.splitlines())]
    if clause.source == "domain":
        lines.append(
            f"  a reading of the rule's text, in the domain notes: {clause.domain_section}"
        )
    elif clause.source == "project":
        lines.append("  a choice the project made, not in the domain notes")
    lines.append(f"  status: {STATUS_TEXT[clause.status]}")
    if clause.pending:
        lines.append(f"  not yet applied: {clause.pending}")
    parts = [other.clause.id for other in matrix.rows if other.parent == clause.id]
    lines.append(f"  parent: {row.parent or '-'}; parts: {', '.join(parts) or '-'}")
    lines.append(f"  tested: {'yes' if row.tested else 'NO'}")
    if row.proved is not None:
        lines.append(f"  proved in the results: {'yes' if row.proved else 'NO'}")
    lines.append(f"\ncode ({len(row.code)}):")
    lines += [f"  {c.path}:{c.line}  {c.written}" for c in row.code]
    lines.append(f"\ntests ({len(row.tests)}, {len(row.proofs)} proving it):")
    lines += [f"  [{ref.result}] {ref.kind}: {ref.case.nodeid}" for ref in row.tests]
    lines.append(f"\ntests via parts ({len(row.via_parts)}):")
    lines += [
        f"  [{ref.result}] {ref.kind}: {ref.case.nodeid}  ({ref.via})" for ref in row.via_parts
    ]
    lines += ["", *results_lines(matrix)]
    return lines


class Command(BaseCommand):
    help = (
        "The clause traceability matrix: each registered clause, where the code applies it "
        "and the tests that claim it (proves, cites-in-message or related), with their last "
        "results. --check lists the planned clauses and exits non-zero on applied clauses no "
        "test proves, clause markers without a kind, unknown citations and Readings cited "
        "without their id; with results, also on a failed proving test and on an applied "
        "clause none of whose proving tests passed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=("text", "json", "csv"), default="text")
        parser.add_argument(
            "--results",
            type=Path,
            action="append",
            default=None,
            metavar="PATH",
            help=(
                "Test results written by tests/clause_results.py; give it once per file to "
                "read several as one (CI: the SQLite and the PostgreSQL pass). A test failed "
                "if it failed in any, else passed if it passed in any. With --check, only "
                "the files named here count (none: the static checks only); otherwise the "
                f"default is var/{RESULTS_FILE} when it exists."
            ),
        )
        parser.add_argument(
            "--clause", metavar="ID", help="Show one clause in full, e.g. 617b.8(g)."
        )
        parser.add_argument(
            "--check", action="store_true", help="List every problem; exit 1 if any."
        )

    def handle(self, *args, **options):
        named = options["results"]
        for path in named or ():  # named on purpose: each must be there and readable
            try:
                read_results_file(path)
            except OSError as error:
                raise CommandError(f"cannot read the results file {path}: {error}") from None
            except ValueError as error:
                raise CommandError(f"{path} is not a results file: {error}") from None
        if options["check"]:
            # Without --results, the static check (as the suite's own test runs it): a
            # results file left by earlier partial runs decides nothing.
            return self.report_problems(build_matrix(results_paths=named))
        matrix = build_matrix(results_paths=named or [default_results_path()])
        if options["clause"]:
            return self.show_clause(matrix, options["clause"], options["format"])
        if options["format"] == "json":
            self.stdout.write(json.dumps(matrix_as_dict(matrix), indent=2, ensure_ascii=False))
        elif options["format"] == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(CSV_HEADER)
            writer.writerows(matrix_csv_rows(matrix))
        else:
            self.stdout.write("\n".join(matrix_text(matrix)))

    def report_problems(self, matrix: Matrix) -> None:
        for row in matrix.planned:
            self.stdout.write(f"planned (not yet applied): {row.clause.id}: {row.clause.title}")
        for row in matrix.pending:
            self.stdout.write(
                f"partly applied: {row.clause.id}: not yet applied: {row.clause.pending}"
            )
        for line in results_lines(matrix):
            self.stdout.write(line)
        if not matrix.problems:
            applied = len(matrix.rows) - len(matrix.planned)
            proved = "proved by a passing test" if matrix.results else "tested"
            self.stdout.write(
                f"{len(matrix.rows)} clauses: {applied} applied, every one {proved}; "
                f"{len(matrix.planned)} planned; no problems."
            )
            return
        for problem in matrix.problems:
            self.stdout.write(f"{problem.kind}: {problem}")
        raise CommandError(f"{len(matrix.problems)} clause traceability problems (listed above)")

    def show_clause(self, matrix: Matrix, clause_id: str, output: str) -> None:
        row = matrix.row(clause_id.strip())
        if row is None:
            near = [r.clause.id for r in matrix.rows if r.clause.id.startswith(clause_id[:6])]
            hint = f"; registered near it: {', '.join(near)}" if near else ""
            raise CommandError(f"{clause_id} is not in the register{hint}")
        if output == "json":
            self.stdout.write(json.dumps(row_as_dict(row), indent=2, ensure_ascii=False))
        else:
            self.stdout.write("\n".join(clause_text(matrix, row)))
