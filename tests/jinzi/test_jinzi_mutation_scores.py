"""The summary `make mutation` prints from mutmut's list of mutants (docs/mutation.md)."""

from __future__ import annotations

from tests.jinzi import mutation_scores

LISTED = """\
    jinzi.stats.x_hold_check__mutmut_1: killed
    jinzi.stats.x_hold_check__mutmut_2: survived
    jinzi.stats.x_hold_check__mutmut_3: timeout
    jinzi.settlement.xǁSettlementTableǁsettle__mutmut_1: killed
    jinzi.settlement.xǁSettlementTableǁsettle__mutmut_2: survived
Running stats...
""".splitlines()


def test_scores_are_counted_per_file_with_timeouts_as_killed():
    settlement, stats = mutation_scores.scores(LISTED)

    assert (settlement.path, settlement.total, settlement.killed) == ("jinzi/settlement.py", 2, 1)
    assert settlement.survivors == ["jinzi.settlement.xǁSettlementTableǁsettle__mutmut_2"]
    assert (stats.path, stats.total, stats.killed, stats.unchecked) == ("jinzi/stats.py", 3, 2, 0)
    assert round(stats.score, 1) == 66.7


def test_the_table_has_a_row_per_file_and_one_for_all():
    table = mutation_scores.table(mutation_scores.scores(LISTED))

    assert "| `jinzi/settlement.py` | 2 | 1 | 1 | 0 | 50.0 % |" in table
    assert "| `jinzi/stats.py` | 3 | 2 | 1 | 0 | 66.7 % |" in table
    assert table.splitlines()[-1] == "| **all** | 5 | 3 | 2 | 0 | 60.0 % |"


def test_a_survivor_not_listed_on_the_page_fails_the_run(tmp_path):
    page = tmp_path / "mutation.md"
    page.write_text("- `jinzi.stats.x_hold_check__mutmut_2`: equivalent, because …\n")
    files = mutation_scores.scores(LISTED)

    text, ok = mutation_scores.report(files, mutation_scores.explained(page))
    assert not ok
    assert "jinzi.stats.x_hold_check__mutmut_2  (listed)" in text
    assert "jinzi.settlement.xǁSettlementTableǁsettle__mutmut_2  (NOT LISTED)" in text

    page.write_text(page.read_text() + "- `jinzi.settlement.xǁSettlementTableǁsettle__mutmut_2`\n")
    assert mutation_scores.report(files, mutation_scores.explained(page))[1]


def test_a_mutant_left_unchecked_fails_the_run():
    files = mutation_scores.scores(["    jinzi.rng.x_spins__mutmut_1: not checked"])

    assert files[0].unchecked == 1
    assert not mutation_scores.report(files, set())[1]
    assert not mutation_scores.report([], set())[1]
