"""The matrix on a small tree: parents and parts, unknown citations, last results, the
command's outputs and the results plugin that feeds them."""

from __future__ import annotations

import csv
import functools
import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command

from portal.regulation.management.commands import clauses as clauses_command
from portal.regulation.matrix import NOT_RUN, build_matrix, load_results, row_as_dict
from portal.regulation.register import load_register
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
id = "617b.8(a)"
kind = "rule"
title = "Offering"
summary = "Offer it."
text = "A certificate holder may offer it."

[[clause]]
id = "617b.8(g)"
kind = "rule"
title = "Zero"
summary = "When zero wins."
text = "When the winning outcome is zero, the following apply:"

[[clause]]
id = "617b.8(g)(1)"
kind = "rule"
title = "Straight up on zero"
summary = "11 to 1."
text = "Straight Up wagers placed on zero shall pay 11 to 1."

[[clause]]
id = "617b.8(g)(2)"
kind = "rule"
title = "Half back"
summary = "Half back."
text = "Wagers shall return one-half."

[[clause]]
id = "reading:zero-splits"
kind = "reading"
title = "Zero splits"
summary = "0-1 is a split."
source = "domain"
domain_section = "1. The game"
domain_opening = "0-1, 0-2 and 0-3 are splits"

[[clause]]
id = "reading:supersede"
kind = "reading"
title = "A table plays on"
summary = "Until the amendment is approved."
source = "domain"
domain_section = "3. People"
domain_opening = "approving a new version"
status = "planned"
"""

CODE = '''"""Settling (§ 617b.8(g)(2)); a typo: § 617b.8(h).

**Reading** (reading:zero-splits): 0-1, 0-2 and 0-3 are splits.
**Reading:** an uncited one.
"""

CLAUSE_RNG = "617b.8(a)"
'''

TESTS = """import pytest


def test_617b8_g_2_half_back(stake):
    pass


def test_617b8_h_is_a_typo():
    pass


def test_617b8_a_offering_is_live():
    pass


@pytest.mark.clause("reading:zero-splits", kind="proves")
def test_it_splits_on_zero():
    pass
"""


@pytest.fixture
def tree(tmp_path: Path) -> SimpleNamespace:
    files = {
        REGISTER_PATH: REGISTER,
        "jinzi/settlement.py": CODE,
        "tests/jinzi/test_settlement.py": TESTS,
    }
    clauses = write_tree(tmp_path, files)
    results = tmp_path / "var/clause-results.json"
    build = functools.partial(build_matrix, root=tmp_path, clauses=clauses, results_paths=results)
    return SimpleNamespace(root=tmp_path, clauses=clauses, results=results, build=build)


def problems(matrix) -> list[tuple[str, str, str]]:
    return [(p.kind, p.where, p.clause_id) for p in matrix.problems]


def test_it_lays_each_clause_beside_its_code_and_tests(tree):
    matrix = tree.build()
    half = matrix.row("617b.8(g)(2)")
    assert [(c.path, c.line) for c in half.code] == [("jinzi/settlement.py", 1)]
    assert [ref.case.function for ref in half.tests] == ["test_617b8_g_2_half_back"]
    assert [c.written for c in matrix.row("617b.8(a)").code] == ['"617b.8(a)"']
    assert [ref.case.function for ref in matrix.row("reading:zero-splits").tests] == [
        "test_it_splits_on_zero"
    ]


def test_it_lists_a_parts_tests_under_its_parents_via_that_part(tree):
    matrix = tree.build()
    assert [(r.case.function, r.via) for r in matrix.row("617b.8(g)").via_parts] == [
        ("test_617b8_g_2_half_back", "617b.8(g)(2)")
    ]
    assert len(matrix.row("617b.8").via_parts) == 2  # (g)(2) and (a)


def test_it_reports_unknown_clauses_in_code_and_test_names_with_file_and_line(tree):
    found = problems(tree.build())
    assert ("unknown", "jinzi/settlement.py:1", "617b.8(h)") in found
    assert ("unknown", "tests/jinzi/test_settlement.py:8", "617b.8(h)") in found
    assert ("uncited-reading", "jinzi/settlement.py:4", "") in found


def test_a_parent_is_untested_until_it_or_all_its_parts_are(tree):
    matrix = tree.build()
    assert [p for p in problems(matrix) if p[0] == "untested"] == [
        ("untested", "617b.8", "617b.8"),
        ("untested", "617b.8(g)", "617b.8(g)"),
        ("untested", "617b.8(g)(1)", "617b.8(g)(1)"),
    ]
    assert "617b.8(g)(1)" in next(p.message for p in matrix.problems if p.where == "617b.8(g)")
    test_file = tree.root / "tests/jinzi/test_settlement.py"
    test_file.write_text(TESTS + "\n\ndef test_617b8_g_1_straight_zero():\n    pass\n")
    matrix = tree.build()
    assert matrix.row("617b.8(g)").tested and not matrix.row("617b.8(g)").tests
    assert matrix.row("617b.8").tested  # its parts (a) and (g) are both tested
    assert [p for p in problems(matrix) if p[0] == "untested"] == []


def write_results(path: Path, outcomes: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = {
        nodeid: {"outcome": outcome, "nodeid": nodeid} for nodeid, outcome in outcomes.items()
    }
    path.write_text(json.dumps({"version": 1, "results": entries}))


def test_it_merges_the_last_results_a_failed_case_failing_the_test(tree):
    node = "tests/jinzi/test_settlement.py::test_617b8_g_2_half_back"
    write_results(tree.results, {f"{node}[2]": "passed", f"{node}[4]": "failed"})
    assert load_results(tree.results) == {node: "failed"}
    matrix = tree.build()
    assert [r.result for r in matrix.row("617b.8(g)(2)").tests] == ["failed"]
    assert [r.result for r in matrix.row("617b.8(a)").tests] == [NOT_RUN]
    assert matrix.row("617b.8(g)").results() == {"failed": 1}


def report(nodeid: str, when: str, outcome: str) -> SimpleNamespace:
    return SimpleNamespace(
        nodeid=nodeid, when=when, failed=outcome == "failed", skipped=outcome == "skipped"
    )


def test_the_results_plugin_keeps_each_tests_worst_phase_and_earlier_runs(tmp_path):
    path = tmp_path / "var/clause-results.json"
    write_results(path, {"tests/test_a.py::test_old": "passed"})
    plugin = ClauseResults(path)
    for nodeid, when, outcome in [
        ("tests/test_a.py::test_x[1]", "setup", "passed"),
        ("tests/test_a.py::test_x[1]", "call", "passed"),
        ("tests/test_a.py::test_x[1]", "teardown", "failed"),
        ("tests/test_a.py::test_y", "setup", "skipped"),
    ]:
        plugin.pytest_runtest_logreport(report(nodeid, when, outcome))
    plugin.pytest_sessionfinish(session=None)
    saved = json.loads(path.read_text())["results"]
    assert {nodeid: entry["outcome"] for nodeid, entry in saved.items()} == {
        "tests/test_a.py::test_old": "passed",
        "tests/test_a.py::test_x[1]": "failed",
        "tests/test_a.py::test_y": "skipped",
    }
    assert saved["tests/test_a.py::test_x[1]"]["function"] == "test_x"
    assert [p.name for p in path.parent.iterdir()] == ["clause-results.json"]


@pytest.fixture
def command(tree, monkeypatch):
    monkeypatch.setattr(clauses_command, "build_matrix", lambda results_paths: tree.build())

    def run(*args: str) -> str:
        out = io.StringIO()
        call_command(clauses_command.Command(), *args, stdout=out)
        return out.getvalue()

    return run


def test_the_command_prints_the_matrix_as_text_json_and_csv(command):
    text = command()
    assert "617b.8(g)(1)" in text and "UNTESTED" in text
    data = json.loads(command("--format", "json"))
    assert [c["id"] for c in data["clauses"]][:2] == ["617b.8", "617b.8(a)"]
    unknown = [p for p in data["problems"] if p["kind"] == "unknown"]
    assert [(p["where"], p["clause"]) for p in unknown] == [
        ("jinzi/settlement.py:1", "617b.8(h)"),
        ("tests/jinzi/test_settlement.py:8", "617b.8(h)"),
    ]
    rows = list(csv.DictReader(io.StringIO(command("--format", "csv"))))
    assert rows[4]["clause"] == "617b.8(g)(2)" and rows[4]["code"] == "jinzi/settlement.py:1"


def test_the_command_shows_one_clause_in_full(command):
    text = command("--clause", "617b.8(g)")
    assert "parts: 617b.8(g)(1), 617b.8(g)(2)" in text
    assert "tests/jinzi/test_settlement.py::test_617b8_g_2_half_back  (617b.8(g)(2))" in text
    with pytest.raises(CommandError, match=r"617b\.8\(h\) is not in the register"):
        command("--clause", "617b.8(h)")


def test_the_command_check_lists_every_problem_and_fails(command):
    out = io.StringIO()
    with pytest.raises(CommandError, match="6 clause traceability problems"):
        call_command(clauses_command.Command(), "--check", stdout=out)
    assert "unknown: jinzi/settlement.py:1: code cites § 617b.8(h)" in out.getvalue()
    assert "planned (not yet applied): reading:supersede: A table plays on" in out.getvalue()


def test_a_planned_clause_needs_no_test_and_is_listed_as_planned(tree):
    matrix = tree.build()
    row = matrix.row("reading:supersede")
    assert row.clause.planned and not row.tested
    assert [r.clause.id for r in matrix.planned] == ["reading:supersede"]
    assert "reading:supersede" not in {p.clause_id for p in matrix.problems}
    data = row_as_dict(row)
    assert (data["status"], data["source"]) == ("planned", "domain")
    assert row_as_dict(matrix.row("617b.8(a)"))["status"] == "applied"


def test_the_csv_and_the_text_say_which_clauses_are_planned(command):
    rows = list(csv.DictReader(io.StringIO(command("--format", "csv"))))
    assert {row["clause"]: row["status"] for row in rows}["reading:supersede"] == "planned"
    assert {row["status"] for row in rows} == {"applied", "planned"}
    line = next(line for line in command().splitlines() if line.startswith("reading:supersede"))
    assert line.endswith("PLANNED") and "UNTESTED" not in line
    assert "status: planned, not yet applied" in command("--clause", "reading:supersede")


PASSING_REGISTER = """
[[clause]]
id = "617b.8"
kind = "rule"
title = "Jinzi Roulette"
summary = "The rule."
text = "Effective June 14, 2025."

[[clause]]
id = "617b.8(g)"
kind = "rule"
title = "Zero"
summary = "When zero wins."
text = "When the winning outcome is zero, the following apply:"

[[clause]]
id = "617b.8(a)"
kind = "rule"
title = "Offering"
summary = "Offer it."
text = "A certificate holder may offer it."
status = "planned"

[[clause]]
id = "reading:round-up"
kind = "reading"
title = "Round up"
summary = "Fractional returns round up."
source = "project"
pending = "the edge shown for a paytable"
"""

PASSING_TESTS = """import pytest


def test_617b8_g_zero(stake):
    pass


@pytest.mark.clause("reading:round-up", kind="proves")
def test_it_rounds_up():
    pass
"""


def test_the_check_passes_with_planned_clauses_listed_and_a_planned_part_not_counted(
    tmp_path, monkeypatch
):
    for relative, text in {
        "portal/regulation/register.toml": PASSING_REGISTER,
        "jinzi/settlement.py": '"""Settling (§ 617b.8(g)); reading:round-up."""\n',
        "tests/jinzi/test_settlement.py": PASSING_TESTS,
    }.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    clauses = load_register(tmp_path / "portal/regulation/register.toml")
    matrix = build_matrix(root=tmp_path, clauses=clauses)
    # 617b.8's applied part (g) is tested; its planned part (a) does not hold it back.
    assert matrix.row("617b.8").tested and not matrix.row("617b.8(a)").tested
    assert matrix.problems == ()
    monkeypatch.setattr(clauses_command, "build_matrix", lambda results_paths: matrix)
    out = io.StringIO()
    call_command(clauses_command.Command(), "--check", stdout=out)
    assert out.getvalue().splitlines() == [
        "planned (not yet applied): 617b.8(a): Offering",
        "partly applied: reading:round-up: not yet applied: the edge shown for a paytable",
        "results: none (every test is not run; only the static checks apply)",
        "4 clauses: 3 applied, every one tested; 1 planned; no problems.",
    ]
