"""What proves a clause, and ``clauses --check`` reading the results, on a small tree.

Only a ``proves`` claim proves: a clause whose tests only cite it in a message, or are only
related to it, is untested; a clause marker must say its kind. With results files (CI's
SQLite and PostgreSQL passes, read as one), a proving test that failed, and a clause none of
whose proving tests passed, fail the check too. A chapter (``617a``, cited "Chapter 617a")
is tested through its applied sections.
"""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command

from portal.regulation.management.commands import clauses as clauses_command
from portal.regulation.matrix import (
    build_matrix,
    combine_results,
    load_results,
    read_results_file,
)
from tests.clause_results import ClauseResults
from tests.portal.regulation.trees import REGISTER_PATH, write_tree

REGISTER = """
[[clause]]
id = "617b.8"
kind = "rule"
title = "Jinzi Roulette"
summary = "The rule."
text = "Effective June 14, 2025."

[[clause]]
id = "617b.8(b)"
kind = "rule"
title = "Layout approval"
summary = "Approved before use."
text = "The layout shall be submitted for approval."

[[clause]]
id = "617b.8(g)"
kind = "rule"
title = "Zero"
summary = "When zero wins."
text = "When the winning outcome is zero, the following apply:"

[[clause]]
id = "617b.8(g)(2)"
kind = "rule"
title = "Half back"
summary = "Half back."
text = "Wagers shall return one-half."

[[clause]]
id = "617a"
kind = "neighbour"
title = "Roulette (Chapter 617a)"
summary = "The frame of (a)."

[[clause]]
id = "617a.2"
kind = "neighbour"
title = "Inspection before a table opens"
summary = "The check before a table takes bets."

[[clause]]
id = "617a.6"
kind = "neighbour"
title = "Irregularities"
summary = "Voids."
status = "planned"
"""

CODE = '''"""Opening a table (§ 617a.2), as Roulette does (Chapter 617a).

Half back (§ 617b.8(g)(2)).
"""
'''

PROVING = """import pytest


def test_617b8_g_2_half_back():
    pass


def test_617a2_a_table_opens_after_the_check():
    pass


@pytest.mark.clause("617b.8(b)", kind="proves")
def test_a_table_needs_an_approved_layout():
    pass
"""

NODE = "tests/portal/test_game.py::"
HALF_BACK = NODE + "test_617b8_g_2_half_back"
CHECK = NODE + "test_617a2_a_table_opens_after_the_check"
LAYOUT = NODE + "test_a_table_needs_an_approved_layout"


@pytest.fixture
def tree(tmp_path: Path) -> SimpleNamespace:
    files = {
        REGISTER_PATH: REGISTER,
        "jinzi/table.py": CODE,
        "tests/portal/test_game.py": PROVING,
    }
    clauses = write_tree(tmp_path, files)
    build = functools.partial(build_matrix, root=tmp_path, clauses=clauses)

    def tests(text: str) -> None:
        (tmp_path / "tests/portal/test_game.py").write_text(text, encoding="utf-8")

    def results(name: str, outcomes: dict[str, str], **header) -> Path:
        path = tmp_path / "var/ci" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = {node: {"outcome": outcome, "nodeid": node} for node, outcome in outcomes.items()}
        path.write_text(json.dumps({"version": 1, **header, "results": entries}))
        return path

    return SimpleNamespace(root=tmp_path, build=build, tests=tests, results=results)


def problems(matrix) -> list[tuple[str, str]]:
    return [(p.kind, p.where) for p in matrix.problems]


def check(tree, monkeypatch, *results: Path) -> str:
    """``manage.py clauses --check`` on the tree, as CI runs it: ``--results`` per file."""
    monkeypatch.setattr(clauses_command, "build_matrix", tree.build)
    out = io.StringIO()
    arguments = [argument for path in results for argument in ("--results", str(path))]
    try:
        call_command(clauses_command.Command(), "--check", *arguments, stdout=out)
    except CommandError as error:
        return f"{out.getvalue()}FAILED: {error}"
    return out.getvalue()


ALL_PASSED = {HALF_BACK: "passed", CHECK: "passed", LAYOUT: "passed"}


def test_a_tree_whose_every_proof_passed_passes_the_check_and_says_when_it_was_taken(
    tree, monkeypatch
):
    results = tree.results(
        "sqlite.json", ALL_PASSED, taken_at="2026-11-30T17:00:00+00:00", database="sqlite"
    )
    matrix = tree.build(results_paths=[results])
    assert problems(matrix) == []
    assert matrix.row("617b.8(g)(2)").proved is True

    out = check(tree, monkeypatch, results)
    assert "FAILED" not in out
    assert f"results: {results} (sqlite): taken 2026-11-30T17:00:00+00:00, 3 tests" in out
    assert out.splitlines()[-1] == (
        "7 clauses: 6 applied, every one proved by a passing test; 1 planned; no problems."
    )


def test_a_planted_failing_proving_test_fails_the_check(tree, monkeypatch):
    results = tree.results("sqlite.json", ALL_PASSED | {HALF_BACK: "failed"})

    matrix = tree.build(results_paths=results)

    assert problems(matrix) == [
        ("failed", "tests/portal/test_game.py:4"),
        ("unproved", "617b.8"),
        ("unproved", "617b.8(g)"),
        ("unproved", "617b.8(g)(2)"),
    ]
    out = check(tree, monkeypatch, results)
    assert (
        "failed: tests/portal/test_game.py:4: test test_617b8_g_2_half_back, which proves "
        "617b.8(g)(2), failed"
    ) in out
    assert "unproved: 617b.8(g)(2): no test that proves 617b.8(g)(2) passed in the results " in out
    assert out.endswith("FAILED: 4 clause traceability problems (listed above)")
    # The same tree, the test passing: no problem.
    assert "FAILED" not in check(tree, monkeypatch, tree.results("ok.json", ALL_PASSED))


def test_a_failed_proof_fails_the_check_even_beside_another_that_passed(tree, monkeypatch):
    tree.tests(PROVING + "\n\ndef test_617b8_g_2_half_back_again():\n    pass\n")
    again = NODE + "test_617b8_g_2_half_back_again"
    results = tree.results("sqlite.json", ALL_PASSED | {again: "failed"})

    assert problems(tree.build(results_paths=results)) == [
        ("failed", "tests/portal/test_game.py:17")
    ]
    assert "FAILED" in check(tree, monkeypatch, results)


def test_skipped_or_unrun_proofs_leave_a_clause_unproved(tree):
    results = tree.results("sqlite.json", {HALF_BACK: "passed", CHECK: "skipped"})

    matrix = tree.build(results_paths=results)

    assert problems(matrix) == [
        ("unproved", "617b.8"),
        ("unproved", "617b.8(b)"),
        ("unproved", "617a"),
        ("unproved", "617a.2"),
    ]
    message = next(p.message for p in matrix.problems if p.where == "617a.2")
    assert message == "no test that proves 617a.2 passed in the results (1 skipped)"
    assert matrix.row("617b.8(b)").proved is False  # its test is in neither pass: not run


def test_both_passes_read_as_one_a_failure_anywhere_fails_a_skip_beside_a_pass_passes(
    tree, monkeypatch
):
    assert combine_results(
        {"t::skipped_then_passed": {"outcome": "skipped"}, "t::x[1]": {"outcome": "passed"}},
        {"t::skipped_then_passed": {"outcome": "passed"}, "t::x[2]": {"outcome": "failed"}},
    ) == {"t::skipped_then_passed": "passed", "t::x": "failed"}

    # PostgreSQL-only: skipped on SQLite, passed on PostgreSQL. Proved.
    sqlite = tree.results("sqlite.json", ALL_PASSED | {CHECK: "skipped"}, database="sqlite")
    postgres = tree.results("postgresql.json", ALL_PASSED, database="postgresql")
    assert "FAILED" not in check(tree, monkeypatch, sqlite, postgres)
    assert load_results([sqlite, postgres])[CHECK] == "passed"

    # Failed on PostgreSQL only: failed, whatever SQLite said.
    postgres = tree.results("postgresql.json", ALL_PASSED | {CHECK: "failed"})
    out = check(tree, monkeypatch, sqlite, postgres)
    assert "test test_617a2_a_table_opens_after_the_check, which proves 617a.2, failed" in out
    assert "FAILED" in out


def test_a_clause_only_cited_in_messages_or_related_is_untested_even_when_they_pass(
    tree, monkeypatch
):
    tree.tests(
        PROVING.replace('kind="proves"', 'kind="cites-in-message"')
        + """

@pytest.mark.clause("617b.8(b)", kind="related")
def test_617b8_b_an_approval_expires_at_local_midnight():
    pass
"""
    )
    results = tree.results("sqlite.json", ALL_PASSED)

    matrix = tree.build(results_paths=results)

    untested = [p for p in matrix.problems if p.kind == "untested"]
    assert [(p.where, p.message) for p in untested] == [
        (
            "617b.8",
            "no test proves 617b.8, and its parts 617b.8(b) are not all tested",
        ),
        (
            "617b.8(b)",
            "no test proves 617b.8(b), though 2 tests claim it (1 cites-in-message, 1 related)",
        ),
    ]
    assert [ref.kind for ref in matrix.row("617b.8(b)").tests] == ["cites-in-message", "related"]
    assert "FAILED: 2 clause traceability problems" in check(tree, monkeypatch, results)
    assert "FAILED" in check(tree, monkeypatch)  # without results too: it is static


def test_a_clause_marker_must_say_its_kind(tree):
    tree.tests(
        PROVING.replace(', kind="proves"', "")
        + '\n\n@pytest.mark.clause("617a.2", kind="proof")\ndef test_it_checks():\n    pass\n'
    )

    matrix = tree.build()

    marker = [(p.where, p.message) for p in matrix.problems if p.kind == "marker"]
    assert marker == [
        (
            "tests/portal/test_game.py:12",
            'the clause marker of 617b.8(b) says no kind: add kind="proves", '
            '"cites-in-message" or "related"',
        ),
        (
            "tests/portal/test_game.py:17",
            "the clause marker of 617a.2 says kind='proof'; a kind is proves, "
            "cites-in-message, related",
        ),
    ]
    # A claim without a kind proves nothing.
    assert ("untested", "617b.8(b)") in problems(matrix)


def test_a_chapter_is_cited_by_name_and_tested_through_its_applied_sections(tree):
    matrix = tree.build()

    chapter = matrix.row("617a")
    assert [c.written for c in chapter.code] == ["Chapter 617a"]
    assert chapter.tested and not chapter.tests  # 617a.2 is tested; 617a.6 is planned
    assert [(ref.case.function, ref.via) for ref in chapter.via_parts] == [
        ("test_617a2_a_table_opens_after_the_check", "617a.2")
    ]
    assert matrix.row("617a.2").parent == "617a"
    assert matrix.row("617b.8").parent is None  # its chapter, 617b, is not registered
    tree.tests(PROVING.replace("def test_617a2_", "def test_it_"))
    assert ("untested", "617a") in problems(tree.build())


def test_the_check_refuses_a_results_file_it_was_given_and_cannot_read(tree, monkeypatch):
    out = check(tree, monkeypatch, tree.root / "var/ci/missing.json")
    assert "FAILED: cannot read the results file" in out
    broken = tree.results("broken.json", {})
    broken.write_text("{not json")
    assert "is not a results file" in check(tree, monkeypatch, broken)


def report(nodeid: str, when: str, outcome: str) -> SimpleNamespace:
    return SimpleNamespace(
        nodeid=nodeid, when=when, failed=outcome == "failed", skipped=outcome == "skipped"
    )


def test_the_results_file_says_when_it_was_taken_and_on_which_database(tmp_path):
    path = tmp_path / "var/clause-results.json"
    plugin = ClauseResults(path)
    plugin.pytest_runtest_logreport(report("tests/test_a.py::test_x", "call", "passed"))
    plugin.pytest_sessionfinish(session=None)

    data = json.loads(path.read_text())
    assert data["database"] in {"sqlite", "postgresql"}
    entries, info = read_results_file(path)
    assert info.taken_at == data["taken_at"] and info.taken_at.endswith("+00:00")
    assert info.oldest == entries["tests/test_a.py::test_x"]["at"] <= info.taken_at
    assert (info.database, info.tests) == (data["database"], 1)
