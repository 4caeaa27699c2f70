"""The scanner: clause citations in code, Readings cited (or not) by id, and test claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal.regulation.citations import citations_in_text, claims_in_name, scan_code, scan_tests
from portal.regulation.register import register


def cited(text: str) -> list[str]:
    return [c.clause_id for c in citations_in_text("x.py", text)[0]]


def test_it_reads_every_section_sign_citation_registered_or_not():
    assert cited("§ 617b.8(g)(2) and § 601a.10(a) (relating to…)") == ["617b.8(g)(2)", "601a.10(a)"]
    assert cited("a typo: § 617b.8(h).") == ["617b.8(h)"]
    assert cited("§ 811a.7's log, § 617b.8.") == ["811a.7", "617b.8"]


def test_it_reads_clause_constants_and_readings_by_id():
    assert cited('CLAUSE_WHEEL = "617b.8(c)"') == ["617b.8(c)"]
    assert cited("**Reading** (reading:zero-splits): 0-1 is a split") == ["reading:zero-splits"]


def test_it_does_not_take_a_notes_section_number_for_a_clause():
    assert cited('the notes §2 "Hold", §3') == []


def test_it_leaves_an_rfcs_sections_alone_but_not_a_clause_after_them():
    assert cited("RFC 6750 §3.1: a token sent and refused") == []
    assert cited("RFC 9110, § 15.5 and § 617b.8(e)") == ["617b.8(e)"]
    assert cited("§3.1") == ["3.1"]


def test_it_tells_a_canonical_citation_from_another_spelling():
    first, second = citations_in_text("x.py", "§ 617b.8(c), §617b.8(c)")[0]
    assert first.canonical and not second.canonical


def test_it_reads_a_chapter_cited_as_a_whole_by_its_number():
    assert cited("as in standard roulette (Chapter 617a); accounts (Chapter 812a).") == [
        "617a",
        "812a",
    ]
    assert cited("see § 617a.2 of Chapter 617a") == ["617a.2", "617a"]
    assert cited("a chapter of the notes, chapter 3") == []
    canonical, lower, spaced = citations_in_text(
        "x.py", "Chapter 617a, chapter 617a, Chapter  617a"
    )[0]
    assert canonical.canonical and not lower.canonical and not spaced.canonical


@pytest.mark.parametrize(
    "line",
    [
        "**Reading:** 0 borders 1, 2 and 3",
        "**Reading (zero, the notes):** a wager placed on zero",
        "either may follow 0 (NOTES.md Reading).",
        'help_text="Minor units; even (notes.md reading)."',
        "whichever it is (the Reading).",
        "Readings of this report (each is also a note):",
    ],
)
def test_it_reports_a_reading_marked_without_its_id(line):
    assert [mark.line for mark in citations_in_text("x.py", line)[1]] == [1]


@pytest.mark.parametrize(
    "line",
    [
        "**Reading** (reading:placed-on-zero): a wager placed on zero covers 0",
        '"""Reading the game availability log: its filters."""',
        "W against E ± SD (see the module's reading).",
    ],
)
def test_it_leaves_cited_readings_and_the_verb_alone(line):
    assert citations_in_text("x.py", line)[1] == []


@pytest.mark.parametrize(
    ("name", "claims"),
    [
        ("test_617b8_g_2_wagers_not_on_zero_return_half", ["617b.8(g)(2)"]),
        ("test_617b8_d_10_big_is_7_to_12", ["617b.8(d)(10)"]),
        ("test_617b8_sunset_closes_every_table", ["617b.8"]),
        ("test_617b8_a_offering_needs_approved_rules", ["617b.8(a)"]),
        ("test_617b8_h_is_a_typo", ["617b.8(h)"]),
        ("test_617b8_d_11_is_a_typo", ["617b.8(d)(11)"]),
        ("test_617b9_is_a_typo", ["617b.9"]),
        ("test_811a7_a_top_up_is_audited", ["811a.7"]),
        ("test_811a7_b_is_a_typo", ["811a.7(b)"]),
        ("test_811a7f_the_log_names_the_cause", ["811a.7(f)"]),
        ("test_811a7_f_the_log_names_the_cause", ["811a.7(f)"]),
        ("test_617b8g2_glued", ["617b.8(g)(2)"]),
        ("test_601a2_a_layout_not_listed_is_refused", ["601a.2"]),
        ("test_601a10_a_15_days_to_review", ["601a.10(a)"]),
        ("test_810a5_p_values_match_the_tables", ["810a.5"]),
        ("test_617b8_c_and_g_settle_refuses_bad_input", ["617b.8(c)", "617b.8(g)"]),
        ("test_810a11_811a7_rounds_are_chained", ["810a.11", "811a.7"]),
        ("test_reading_zero_splits_are_splits", ["reading:zero-splits"]),
        ("test_reading_zero_split_typo", ["reading:zero-split-typo"]),
        ("test_2a_the_gaming_day_turns_at_midnight", []),
        ("test_617a2_a_table_opens_after_the_check", ["617a.2"]),
        ("test_617b8_e_617a5_drawn_after_betting_closes", ["617b.8(e)", "617a.5"]),
        ("test_617a4_no_odds_below_the_floor_of_617b8_f", ["617a.4"]),
        ("test_it_reads_the_register", []),
    ],
)
def test_it_reads_the_claims_of_a_test_name(name, claims):
    assert claims_in_name(name, register()) == claims


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_it_scans_code_and_templates_but_not_migrations_or_the_register(tmp_path):
    write(tmp_path, "jinzi/wheel.py", '"""The wheel of § 617b.8(c)."""\n')
    write(tmp_path, "templates/game/replay.html", "{# § 810a.11(a): a replay #}\n")
    write(tmp_path, "portal/game/migrations/0001_initial.py", "# § 617b.8(z)\n")
    write(tmp_path, "portal/regulation/register.toml", 'id = "617b.8(z)"\n')
    found, uncited = scan_code(tmp_path)
    assert [(c.path, c.line, c.clause_id) for c in found] == [
        ("jinzi/wheel.py", 1, "617b.8(c)"),
        ("templates/game/replay.html", 1, "810a.11(a)"),
    ]
    assert uncited == []


TEST_MODULE = '''
import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.clause("811a.9", kind="related")]


def test_617b8_g_2_half_back():
    """Cites § 617b.8(g)(2)."""


@pytest.mark.clause("reading:placed-on-zero", "617b.8(g)", kind="proves")
def test_it_pays_a_split_on_zero():
    pass


@pytest.mark.clause("reading:even-stakes")
class TestStakes:
    def test_617b8_h_typo(self):
        pass


def helper_617b8_c():
    pass
'''


def test_it_reads_test_claims_by_name_and_marker_with_node_ids(tmp_path):
    write(tmp_path, "tests/jinzi/test_settle.py", TEST_MODULE)
    cases, cites = scan_tests(register(), tmp_path)
    assert [(c.nodeid, c.claims) for c in cases] == [
        ("tests/jinzi/test_settle.py::test_617b8_g_2_half_back", ("617b.8(g)(2)", "811a.9")),
        (
            "tests/jinzi/test_settle.py::test_it_pays_a_split_on_zero",
            ("811a.9", "reading:placed-on-zero", "617b.8(g)"),
        ),
        (
            "tests/jinzi/test_settle.py::TestStakes::test_617b8_h_typo",
            ("617b.8(h)", "811a.9", "reading:even-stakes"),
        ),
    ]
    assert cases[0].line == 7
    assert cases[1].marked == ("811a.9", "reading:placed-on-zero", "617b.8(g)")
    # A name claims proves; a marker gives its own kind, or none (None: reported).
    assert [c.kinds for c in cases] == [
        ("proves", "related"),
        ("related", "proves", "proves"),
        ("proves", "related", None),
    ]
    assert [(m.ids, m.kind, m.line) for m in cases[2].marks] == [
        (("811a.9",), "related", 4),
        (("reading:even-stakes",), None, 16),
    ]
    assert [(c.line, c.clause_id) for c in cites] == [
        (4, "811a.9"),
        (8, "617b.8(g)(2)"),
        (11, "617b.8(g)"),
        (11, "reading:placed-on-zero"),
        (16, "reading:even-stakes"),
    ]


KINDS_MODULE = """
import pytest

pytestmark = pytest.mark.clause("617b.8(g)", kind="related")


@pytest.mark.clause("617b.8(b)", kind="related")
def test_617b8_b_an_approval_expires_at_local_midnight():
    pass


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
@pytest.mark.clause("reading:even-stakes", kind="proves")
def test_617b8_g_an_odd_stake_is_refused_citing_the_zero_rule():
    pass


def test_617b8_g_2_zero_returns_half():
    pass


@pytest.mark.clause("617b.8(c)", kind="disproves")
def test_617b8_c_wheel():
    pass
"""


def test_a_marker_re_kinds_the_claim_of_a_name_and_the_nearest_marker_wins(tmp_path):
    write(tmp_path, "tests/portal/test_kinds.py", KINDS_MODULE)
    cases, _ = scan_tests(register(), tmp_path)
    kinds = {c.function: dict(zip(c.claims, c.kinds, strict=True)) for c in cases}
    assert kinds == {
        "test_617b8_b_an_approval_expires_at_local_midnight": {
            "617b.8(b)": "related",
            "617b.8(g)": "related",
        },
        "test_617b8_g_an_odd_stake_is_refused_citing_the_zero_rule": {
            "617b.8(g)": "cites-in-message",
            "reading:even-stakes": "proves",
        },
        "test_617b8_g_2_zero_returns_half": {"617b.8(g)(2)": "proves", "617b.8(g)": "related"},
        "test_617b8_c_wheel": {"617b.8(c)": "disproves", "617b.8(g)": "related"},
    }
    assert cases[0].kind_of("617b.8(b)") == "related"
