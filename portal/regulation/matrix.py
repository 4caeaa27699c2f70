"""The traceability matrix: each registered clause → where the code applies it → what proves it.

Each test's claim of a clause has a kind (``portal.regulation.citations``): only a
``proves`` claim proves; ``cites-in-message`` and ``related`` claims are listed beside it.
The matrix also lists what is wrong, so CI can refuse it (``manage.py clauses --check``):

- ``untested``: an applied clause no test proves (a planned one, which a later issue will
  apply, is listed as such and needs no test yet). A leaf (a clause with no registered
  parts, such as ``617b.8(d)(4)`` or ``811a.9``) needs a ``proves`` claim of its own. A
  parent is tested when a test proves it, or when every one of its applied parts is tested:
  the parts are what the parent says (``617b.8(d)`` is its ten wagers; Chapter ``617a`` its
  sections). Tests of a part are listed under each parent as "via" that part, but never
  stand in for a parent's own claim unless all of its applied parts are tested.
- ``marker``: a clause marker that does not say its kind, or says another word.
- ``unknown``: code, a test's text or a test's claim cites a clause not in the register.
- ``noncanonical``: a registered clause written another way (``§617b.8``): one form, so
  one grep finds every place.
- ``uncited-reading``: a line marks a Reading without saying which (``reading:<name>``).

With test results (the files ``tests/clause_results.py`` writes; without one every test is
"not run" and only the above is checked), also:

- ``failed``: a test that proves a clause failed;
- ``unproved``: an applied clause none of whose ``proves`` tests passed (all failed,
  skipped or not run), or a parent whose parts are not all proved.

Several results files (CI's SQLite and PostgreSQL passes) are read as one: a test failed if
it failed in any of them, else passed if it passed in any, else skipped if skipped in any;
so a test skipped on SQLite and passed on PostgreSQL passed, and a failure anywhere fails.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from portal.regulation.citations import (
    CLAIM_KINDS,
    PROVES,
    ROOT,
    Citation,
    TestCase,
    scan_code,
    scan_tests,
)
from portal.regulation.register import (
    Clause,
    ancestors_of,
    children_of,
    register,
    registered_parent,
)

NOT_RUN = "not run"
# A test's result across its parametrised cases and across results files: the highest rank.
# A failure anywhere fails it; otherwise a pass anywhere passes it (a test skipped on SQLite
# and passed on PostgreSQL passed).
OUTCOME_RANK = {"failed": 3, "passed": 2, "skipped": 1}
PARAMETERS_RE = re.compile(r"\[.*\]$")
# A marker's kind when it gives none, or gives another word: shown as such, and reported.
NO_KIND = "no kind"


@dataclass(frozen=True)
class TestRef:
    case: TestCase
    result: str
    via: str | None = None  # the registered part it claims, when listed under a parent
    kind: str = PROVES  # of the claim: proves, cites-in-message, related, or NO_KIND

    @property
    def proves(self) -> bool:
        return self.kind == PROVES


@dataclass(frozen=True)
class Row:
    clause: Clause
    code: tuple[Citation, ...]
    tests: tuple[TestRef, ...]
    via_parts: tuple[TestRef, ...]
    tested: bool  # a test proves it (or, for a parent, each applied part is tested)
    proved: bool | None = None  # that proof passed in the results; None without results
    parent: str | None = None  # the registered clause one level up (a section's chapter)

    def results(self) -> Counter:
        """How its tests (own and via its parts) last ended, one count per test."""
        return Counter(ref.result for ref in self.tests + self.via_parts)

    @property
    def proofs(self) -> tuple[TestRef, ...]:
        """Its own tests whose claim proves it."""
        return tuple(ref for ref in self.tests if ref.proves)

    def kinds(self) -> Counter:
        """Its own claims by kind."""
        return Counter(ref.kind for ref in self.tests)


@dataclass(frozen=True)
class ResultsFile:
    """One results file read: where, when its last run ended (``taken_at``, UTC ISO 8601),
    on which database, the oldest result it still keeps, and how many tests it holds."""

    path: str
    taken_at: str | None
    database: str | None
    oldest: str | None
    tests: int


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
    results: tuple[ResultsFile, ...] = ()

    @property
    def results_path(self) -> str | None:
        """The results files read, as one line; None when none was."""
        return ", ".join(r.path for r in self.results) or None

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


def _paths(results_paths: Path | Sequence[Path] | None) -> list[Path]:
    if results_paths is None:
        return []
    given = [results_paths] if isinstance(results_paths, Path | str) else list(results_paths)
    return [Path(path) for path in given if Path(path).is_file()]


def read_results_file(path: Path) -> tuple[dict, ResultsFile]:
    """A results file's entries by node id, and what it says of itself."""
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = data.get("results", {}) if isinstance(data, dict) else {}
    if not isinstance(entries, dict):
        raise ValueError(f"{path}: not a file of test results")
    times = sorted(e["at"] for e in entries.values() if isinstance(e, dict) and e.get("at"))
    info = ResultsFile(
        path=str(path),
        taken_at=data.get("taken_at") or (times[-1] if times else None),
        database=data.get("database"),
        oldest=times[0] if times else None,
        tests=len(entries),
    )
    return entries, info


def combine_results(*files: Mapping[str, Mapping]) -> dict[str, str]:
    """Each test's outcome by node id without parameters, over every case and every file:
    the highest ``OUTCOME_RANK`` (failed, then passed, then skipped)."""
    outcomes: dict[str, str] = {}
    for entries in files:
        for nodeid, entry in entries.items():
            base = PARAMETERS_RE.sub("", nodeid)
            outcome = entry.get("outcome", NOT_RUN)
            if OUTCOME_RANK.get(outcome, 0) > OUTCOME_RANK.get(outcomes.get(base, ""), 0):
                outcomes[base] = outcome
    return outcomes


def load_results(results_paths: Path | Sequence[Path] | None) -> dict[str, str]:
    """Each test's outcome by node id without parameters, from one results file or several
    read as one (``combine_results``); {} when there is none."""
    return combine_results(*(read_results_file(path)[0] for path in _paths(results_paths)))


def _is_tested(clause_id: str, clauses: Mapping[str, Clause], claimed: set[str]) -> bool:
    """Proved by a claim in ``claimed``, or (a parent) each of its applied parts is."""
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


def _other_claims(refs: list[TestRef]) -> str:
    """ ", though 3 tests claim it (2 cites-in-message, 1 related)": the claims that do not
    prove it."""
    counts = Counter(ref.kind for ref in refs if not ref.proves)
    if not counts:
        return ""
    total = sum(counts.values())
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    tests = f"{total} tests claim" if total != 1 else "1 test claims"
    return f", though {tests} it ({kinds})"


def _untested_message(
    clause_id: str, clauses: Mapping[str, Clause], claimed: set[str], refs: list[TestRef]
) -> str:
    parts = [p for p in _applied_parts(clause_id, clauses) if not _is_tested(p, clauses, claimed)]
    others = _other_claims(refs)
    if parts:
        return (
            f"no test proves {clause_id}{others}, and its parts {', '.join(parts)} are not "
            "all tested"
        )
    return f"no test proves {clause_id}{others}"


def _unproved_message(
    clause_id: str, clauses: Mapping[str, Clause], passed: set[str], refs: list[TestRef]
) -> str:
    counts = Counter(ref.result for ref in refs if ref.proves)
    ended = ", ".join(f"{n} {result}" for result, n in sorted(counts.items()))
    message = f"no test that proves {clause_id} passed in the results"
    if ended:
        message += f" ({ended})"
    parts = [p for p in _applied_parts(clause_id, clauses) if not _is_tested(p, clauses, passed)]
    if parts:
        message += f", and its parts {', '.join(parts)} are not all proved"
    return message


def _marker_problems(case: TestCase) -> list[Problem]:
    problems = []
    for mark in case.marks:
        ids = ", ".join(mark.ids)
        if mark.kind is None:
            message = (
                f'the clause marker of {ids} says no kind: add kind="proves", '
                f'"cites-in-message" or "related"'
            )
        elif mark.kind not in CLAIM_KINDS:
            message = (
                f"the clause marker of {ids} says kind={mark.kind!r}; a kind is "
                f"{', '.join(CLAIM_KINDS)}"
            )
        else:
            continue
        problems.append(Problem("marker", f"{case.path}:{mark.line}", mark.ids[0], message))
    return problems


def build_matrix(
    *,
    root: Path = ROOT,
    clauses: Mapping[str, Clause] | None = None,
    results_paths: Path | Sequence[Path] | None = None,
) -> Matrix:
    """Scan ``root`` and lay each registered clause beside its code and its tests; with
    results files (those that exist of ``results_paths``), check that what proves passed."""
    clauses = register() if clauses is None else clauses
    code, uncited = scan_code(root)
    cases, test_text = scan_tests(clauses, root)
    read = [read_results_file(path) for path in _paths(results_paths)]
    outcomes = combine_results(*(entries for entries, _ in read))
    with_results = bool(read)

    own: dict[str, list[TestRef]] = {clause_id: [] for clause_id in clauses}
    via: dict[str, list[TestRef]] = {clause_id: [] for clause_id in clauses}
    unknown: list[Problem] = []
    markers: dict[str, Problem] = {}
    failed: list[Problem] = []
    for case in cases:
        result = outcomes.get(case.nodeid, NOT_RUN)
        for problem in _marker_problems(case):
            markers.setdefault(problem.where, problem)  # a module's marker: once
        for claim in case.claims:
            if claim not in clauses:
                source = "its clause marker" if claim in case.marked else "its name"
                message = (
                    f"test {case.function} claims {claim} by {source}, which is not in the register"
                )
                unknown.append(Problem("unknown", f"{case.path}:{case.line}", claim, message))
                continue
            kind = case.kind_of(claim)
            kind = kind if kind in CLAIM_KINDS else NO_KIND
            own[claim].append(TestRef(case, result, kind=kind))
            for ancestor in ancestors_of(claim, clauses):
                if ancestor in via:
                    via[ancestor].append(TestRef(case, result, via=claim, kind=kind))
            if with_results and kind == PROVES and result == "failed":
                message = f"test {case.function}, which proves {claim}, failed"
                failed.append(Problem("failed", f"{case.path}:{case.line}", claim, message))

    claimed = {claim for claim, refs in own.items() if any(ref.proves for ref in refs)}
    passed = {
        claim
        for claim, refs in own.items()
        if any(ref.proves and ref.result == "passed" for ref in refs)
    }
    rows = []
    untested = []
    for clause_id, clause in clauses.items():
        cited_here = tuple(c for c in code if c.clause_id == clause_id)
        tested = _is_tested(clause_id, clauses, claimed)
        proved = _is_tested(clause_id, clauses, passed) if with_results else None
        parent = registered_parent(clause_id, clauses)
        refs = own[clause_id]
        rows.append(
            Row(clause, cited_here, tuple(refs), tuple(via[clause_id]), tested, proved, parent)
        )
        if clause.planned:
            continue
        if not tested:
            message = _untested_message(clause_id, clauses, claimed, refs)
            untested.append(Problem("untested", clause_id, clause_id, message))
        elif proved is False:
            message = _unproved_message(clause_id, clauses, passed, refs)
            untested.append(Problem("unproved", clause_id, clause_id, message))

    located = unknown + _unknown(code, clauses, "code") + _unknown(test_text, clauses, "a test")
    located += list(markers.values()) + failed
    for mark in uncited:
        message = f"marks a Reading without its id (cite it as reading:<name>): {mark.text}"
        located.append(Problem("uncited-reading", f"{mark.path}:{mark.line}", "", message))
    problems = sorted(located, key=_place) + untested
    return Matrix(tuple(rows), tuple(problems), tuple(info for _, info in read))


def _ref_dict(ref: TestRef) -> dict:
    entry = {
        "nodeid": ref.case.nodeid,
        "line": ref.case.line,
        "result": ref.result,
        "claim": ref.kind,
    }
    return entry | ({"via": ref.via} if ref.via else {})


def row_as_dict(row: Row) -> dict:
    clause = row.clause
    return {
        "id": clause.id,
        "kind": clause.kind,
        "title": clause.title,
        "summary": clause.summary,
        "text": clause.text,
        "parent": row.parent,
        "governs": list(clause.governs),
        "domain_section": clause.domain_section or None,
        "source": clause.source or None,
        "status": clause.status,
        "pending": clause.pending or None,
        "tested": row.tested,
        "proved": row.proved,
        "claims": dict(row.kinds()),
        "code": [{"path": c.path, "line": c.line, "written": c.written} for c in row.code],
        "tests": [_ref_dict(ref) for ref in row.tests],
        "tests_via_parts": [_ref_dict(ref) for ref in row.via_parts],
        "results": dict(row.results()),
    }


def matrix_as_dict(matrix: Matrix) -> dict:
    """The whole matrix as plain JSON values: what the command prints and the API will serve."""
    return {
        "results_file": matrix.results_path,
        "results": [
            {
                "path": r.path,
                "taken_at": r.taken_at,
                "database": r.database,
                "oldest": r.oldest,
                "tests": r.tests,
            }
            for r in matrix.results
        ],
        "clauses": [row_as_dict(row) for row in matrix.rows],
        "problems": [
            {"kind": p.kind, "where": p.where, "clause": p.clause_id or None, "message": p.message}
            for p in matrix.problems
        ],
    }


CSV_HEADER = (
    "clause", "kind", "title", "summary", "tested", "code_locations", "tests",
    "tests_via_parts", "passed", "failed", "skipped", "not_run", "code", "test_ids", "status",
    "proving_tests", "proved",
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
            len(row.proofs), {True: "yes", False: "no", None: ""}[row.proved],
        ))  # fmt: skip
    return rows
