"""The traceability matrix: each registered clause → where the code applies it → what proves it.

It also lists what is wrong, so CI can refuse it (``manage.py clauses --check``):

- ``untested``: an applied clause no test proves (a planned one, which a later issue will
  apply, is listed as such and needs no test yet). A leaf (a clause with no registered
  parts, such as ``617b.8(d)(4)`` or ``811a.9``) needs a test of its own. A parent is tested
  when a test claims it, or when every one of its applied parts is tested: the parts are
  what the parent says (``617b.8(d)`` is its ten wagers). Tests of a part are listed under
  each parent as "via" that part, but never stand in for a parent's own claim unless all
  of its applied parts are tested.
- ``unknown``: code, a test's text or a test's claim cites a clause not in the register.
- ``noncanonical``: a registered clause written another way (``§617b.8``): one form, so
  one grep finds every place.
- ``uncited-reading``: a line marks a Reading without saying which (``reading:<name>``).

A test's last result comes from the file ``tests/clause_results.py`` writes; without one,
every test is "not run".
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from portal.regulation.citations import ROOT, Citation, TestCase, scan_code, scan_tests
from portal.regulation.register import Clause, ancestors_of, children_of, register

NOT_RUN = "not run"
# When a parametrised test's cases differ, the worst one is the test's result.
OUTCOME_RANK = {"failed": 3, "passed": 2, "skipped": 1}
PARAMETERS_RE = re.compile(r"\[.*\]$")


@dataclass(frozen=True)
class TestRef:
    case: TestCase
    result: str
    via: str | None = None  # the registered part it claims, when listed under a parent


@dataclass(frozen=True)
class Row:
    clause: Clause
    code: tuple[Citation, ...]
    tests: tuple[TestRef, ...]
    via_parts: tuple[TestRef, ...]
    tested: bool

    def results(self) -> Counter:
        """How its tests (own and via its parts) last ended, one count per test."""
        return Counter(ref.result for ref in self.tests + self.via_parts)


@dataclass(frozen=True)
class Problem:
    kind: str
    where: str  # "path:line", or the clause id for an untested clause
    clause_id: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class Matrix:
    rows: tuple[Row, ...]
    problems: tuple[Problem, ...]
    results_path: str | None

    def row(self, clause_id: str) -> Row | None:
        return next((row for row in self.rows if row.clause.id == clause_id), None)

    @property
    def planned(self) -> tuple[Row, ...]:
        """The clauses a later issue will apply: listed, never a problem."""
        return tuple(row for row in self.rows if row.clause.planned)

    @property
    def pending(self) -> tuple[Row, ...]:
        """Applied clauses that say what of them the code does not apply yet."""
        return tuple(row for row in self.rows if row.clause.pending)


def load_results(path: Path | None) -> dict[str, str]:
    """Each test's last outcome by node id without parameters; {} when there is no file."""
    if path is None or not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    outcomes: dict[str, str] = {}
    for nodeid, entry in data.get("results", {}).items():
        base = PARAMETERS_RE.sub("", nodeid)
        outcome = entry.get("outcome", NOT_RUN)
        if OUTCOME_RANK.get(outcome, 0) > OUTCOME_RANK.get(outcomes.get(base, ""), 0):
            outcomes[base] = outcome
    return outcomes


def _is_tested(clause_id: str, clauses: Mapping[str, Clause], claimed: set[str]) -> bool:
    if clause_id in claimed:
        return True
    parts = _applied_parts(clause_id, clauses)
    return bool(parts) and all(_is_tested(part, clauses, claimed) for part in parts)


def _applied_parts(clause_id: str, clauses: Mapping[str, Clause]) -> list[str]:
    return [part for part in children_of(clause_id, clauses) if not clauses[part].planned]


def _place(problem: Problem) -> tuple[str, int, str]:
    """File then line order, so the list reads like a walk through the tree."""
    path, _, line = problem.where.rpartition(":")
    return path, int(line), problem.kind


def _unknown(citations: list[Citation], clauses: Mapping[str, Clause], where: str) -> list[Problem]:
    problems = []
    for cite in citations:
        spot = f"{cite.path}:{cite.line}"
        if cite.clause_id not in clauses:
            message = f"{where} cites {cite.written}, which is not in the register"
            problems.append(Problem("unknown", spot, cite.clause_id, message))
        elif not cite.canonical:
            message = f"{where} writes {cite.written!r}; write it § {cite.clause_id}"
            problems.append(Problem("noncanonical", spot, cite.clause_id, message))
    return problems


def _untested_message(clause_id: str, clauses: Mapping[str, Clause], claimed: set[str]) -> str:
    parts = [p for p in _applied_parts(clause_id, clauses) if not _is_tested(p, clauses, claimed)]
    if parts:
        return f"no test claims {clause_id}, and its parts {', '.join(parts)} are not all tested"
    return f"no test claims {clause_id}"


def build_matrix(
    *,
    root: Path = ROOT,
    clauses: Mapping[str, Clause] | None = None,
    results_path: Path | None = None,
) -> Matrix:
    """Scan ``root`` and lay each registered clause beside its code and its tests."""
    clauses = register() if clauses is None else clauses
    code, uncited = scan_code(root)
    cases, test_text = scan_tests(clauses, root)
    outcomes = load_results(results_path)

    own: dict[str, list[TestRef]] = {clause_id: [] for clause_id in clauses}
    via: dict[str, list[TestRef]] = {clause_id: [] for clause_id in clauses}
    unknown: list[Problem] = []
    for case in cases:
        result = outcomes.get(case.nodeid, NOT_RUN)
        for claim in case.claims:
            if claim not in clauses:
                source = "its clause marker" if claim in case.marked else "its name"
                message = (
                    f"test {case.function} claims {claim} by {source}, which is not in the register"
                )
                unknown.append(Problem("unknown", f"{case.path}:{case.line}", claim, message))
                continue
            own[claim].append(TestRef(case, result))
            for ancestor in ancestors_of(claim):
                if ancestor in via:
                    via[ancestor].append(TestRef(case, result, via=claim))

    claimed = {claim for claim, refs in own.items() if refs}
    rows = []
    untested = []
    for clause_id, clause in clauses.items():
        cited_here = tuple(c for c in code if c.clause_id == clause_id)
        tested = _is_tested(clause_id, clauses, claimed)
        rows.append(Row(clause, cited_here, tuple(own[clause_id]), tuple(via[clause_id]), tested))
        if not tested and not clause.planned:
            message = _untested_message(clause_id, clauses, claimed)
            untested.append(Problem("untested", clause_id, clause_id, message))

    located = unknown + _unknown(code, clauses, "code") + _unknown(test_text, clauses, "a test")
    for mark in uncited:
        message = f"marks a Reading without its id (cite it as reading:<name>): {mark.text}"
        located.append(Problem("uncited-reading", f"{mark.path}:{mark.line}", "", message))
    problems = sorted(located, key=_place) + untested
    path_text = str(results_path) if results_path and results_path.is_file() else None
    return Matrix(tuple(rows), tuple(problems), path_text)


def _ref_dict(ref: TestRef) -> dict:
    entry = {"nodeid": ref.case.nodeid, "line": ref.case.line, "result": ref.result}
    return entry | ({"via": ref.via} if ref.via else {})


def row_as_dict(row: Row) -> dict:
    clause = row.clause
    return {
        "id": clause.id,
        "kind": clause.kind,
        "title": clause.title,
        "summary": clause.summary,
        "text": clause.text,
        "parent": clause.parent,
        "governs": list(clause.governs),
        "domain_section": clause.domain_section or None,
        "source": clause.source or None,
        "status": clause.status,
        "pending": clause.pending or None,
        "tested": row.tested,
        "code": [{"path": c.path, "line": c.line, "written": c.written} for c in row.code],
        "tests": [_ref_dict(ref) for ref in row.tests],
        "tests_via_parts": [_ref_dict(ref) for ref in row.via_parts],
        "results": dict(row.results()),
    }


def matrix_as_dict(matrix: Matrix) -> dict:
    """The whole matrix as plain JSON values: what the command prints and the API will serve."""
    return {
        "results_file": matrix.results_path,
        "clauses": [row_as_dict(row) for row in matrix.rows],
        "problems": [
            {"kind": p.kind, "where": p.where, "clause": p.clause_id or None, "message": p.message}
            for p in matrix.problems
        ],
    }


CSV_HEADER = (
    "clause", "kind", "title", "summary", "tested", "code_locations", "tests",
    "tests_via_parts", "passed", "failed", "skipped", "not_run", "code", "test_ids", "status",
)  # fmt: skip


def matrix_csv_rows(matrix: Matrix) -> list[tuple]:
    """One row per clause under ``CSV_HEADER``: locations as ``path:line``, tests as node ids."""
    rows = []
    for row in matrix.rows:
        counts = row.results()
        rows.append((
            row.clause.id, row.clause.kind, row.clause.title, row.clause.summary,
            "yes" if row.tested else "no", len(row.code), len(row.tests), len(row.via_parts),
            counts["passed"], counts["failed"], counts["skipped"], counts[NOT_RUN],
            " ".join(f"{c.path}:{c.line}" for c in row.code),
            " ".join(ref.case.nodeid for ref in row.tests), row.clause.status,
        ))  # fmt: skip
    return rows
