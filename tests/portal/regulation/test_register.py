"""The register: complete for the issue's list, true to the rule's text, and refused when an
edit breaks it. (Against the domain notes, where they are beside the project:
``test_register_domain_notes``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from portal.regulation.register import (
    RegisterError,
    ancestors_of,
    children_of,
    load_register,
    parent_of,
    register,
)

# The rule's official text, kept with the register so that the register is checked against it
# wherever the suite runs.
RULE_FILE = (
    Path(__file__).resolve().parents[3] / "portal" / "regulation" / "617b8-jinzi-roulette.txt"
)

EXPECTED_RULE = [
    "617b.8",
    *(f"617b.8({letter})" for letter in "abcdefg"),
    *(f"617b.8(d)({n})" for n in range(1, 11)),
    "617b.8(g)(1)",
    "617b.8(g)(2)",
]
EXPECTED_NEIGHBOURS = ["601a.2", "601a.10(a)", "810a.5", "810a.11", "811a.7", "811a.7(f)", "811a.9"]
# Chapter 812a and § 814a.2: the player's interactive gaming account (issue 23).
PLAYER_ACCOUNT = [
    "812a.4",
    "812a.6",
    "812a.7",
    "812a.7(a)",
    "812a.7(b)",
    "812a.9(a)(4)",
    "812a.10",
    "812a.11",
    "812a.12",
    "814a.2",
]
# Chapter 617a, the frame of § 617b.8(a): the chapter as a whole and its sections. What
# carries over to an RNG table is applied (617a.1–617a.5); irregularities, as voids, are
# applied with voids and adjustments, as is § 812a.7(a)(9) (adjustments).
CHAPTER_617A = [f"617a.{n}" for n in range(1, 6)]
# Applied with voids and adjustments of rounds.
APPLIED_WITH_VOIDS = ["617a.6", "812a.7(a)(9)"]
# Applied with the decisions that show their impact: tables play on under their listed versions.
APPLIED_WITH_IMPACT = ["reading:supersede"]
# Registered ahead of the issue that applies it (the filing package); software under approval
# is applied with its approvals (issue 38).
# Applied by the players' registration and protection (issue 34): minimum-age,
# exclusion-list-import, self-exclusion; and spend-limit-net, with the limits (issue 35).
# The filing package (issue 39) applied the last of them.
PLANNED_READINGS: tuple[str, ...] = ()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_it_registers_every_part_of_the_rule_and_the_neighbours_of_the_issue():
    clauses = register()
    for clause_id in EXPECTED_RULE:
        assert clauses[clause_id].kind == "rule"
    for clause_id in EXPECTED_NEIGHBOURS:
        assert clauses[clause_id].kind == "neighbour"


def test_812a_814a2_the_player_account_clauses_are_registered_and_applied():
    clauses = register()
    for clause_id in PLAYER_ACCOUNT:
        assert clauses[clause_id].kind == "neighbour" and not clauses[clause_id].planned
        assert "player_account" in clauses[clause_id].governs
    assert not clauses["reading:one-account-per-holder"].planned


def test_it_registers_a_parent_for_every_part():
    clauses = register()
    for clause in clauses.values():
        assert all(ancestor in clauses for ancestor in ancestors_of(clause.id))
        assert all(ancestor in clauses for ancestor in ancestors_of(clause.id, clauses))
    # A chapter registered as a whole has its sections as parts; 617b is not registered.
    assert ancestors_of("617a.2", clauses) == ["617a"]
    assert ancestors_of("812a.7(a)(9)", clauses) == ["812a.7(a)", "812a.7", "812a"]
    assert ancestors_of("617b.8(g)(2)", clauses) == ["617b.8(g)", "617b.8"]
    assert children_of("617b.8(g)", clauses) == ["617b.8(g)(1)", "617b.8(g)(2)"]
    assert len(children_of("617b.8(d)", clauses)) == 10


def test_it_records_that_g_1_means_f_where_it_says_e():
    assert "typo for (f)" in register()["617b.8(g)(1)"].summary


def test_it_quotes_the_rule_word_for_word():
    rule = flat(RULE_FILE.read_text(encoding="utf-8"))
    for clause in register().values():
        if clause.kind == "rule":
            assert flat(clause.text) in rule, clause.id


def test_every_reading_says_where_it_comes_from_and_project_ones_claim_no_place_in_the_notes():
    clauses = register().values()
    readings = [c for c in clauses if c.kind == "reading"]
    assert {c.source for c in readings} == {"domain", "project"}
    assert all(c.source == "" for c in clauses if c.kind != "reading")
    for clause in readings:
        if clause.source == "project":
            assert (clause.domain_section, clause.domain_opening) == ("", ""), clause.id
        else:
            assert clause.domain_section and clause.domain_opening, clause.id


def test_it_registers_the_chapter_617a_frame_applied_and_later_readings_as_planned():
    clauses = register()
    assert clauses["617a"].kind == "neighbour" and not clauses["617a"].planned
    assert children_of("617a", clauses) == [*CHAPTER_617A, "617a.6"]
    for clause_id in CHAPTER_617A:
        assert clauses[clause_id].kind == "neighbour" and not clauses[clause_id].planned, clause_id
    for clause_id in APPLIED_WITH_VOIDS:
        assert clauses[clause_id].kind == "neighbour" and not clauses[clause_id].planned, clause_id
    assert "notified" in clauses["812a.7(a)(9)"].summary
    for clause_id in APPLIED_WITH_IMPACT:
        assert clauses[clause_id].kind == "reading" and not clauses[clause_id].planned, clause_id
        assert clauses[clause_id].status == "applied", clause_id
    # What is left to come is the Readings the domain notes gained for later issues.
    assert [c.id for c in clauses.values() if c.planned] == list(PLANNED_READINGS)
    for clause_id in PLANNED_READINGS:
        assert clauses[clause_id].kind == "reading" and clauses[clause_id].source == "domain"
    voids = clauses["reading:voids-and-adjustments"]
    assert voids.status == "applied" and not voids.pending
    assert "§ 812a.7(a)(9)" in voids.summary  # adjustments
    assert (
        clauses["reading:round-up"].status == "applied" and not clauses["reading:round-up"].pending
    )
    # The rule itself, and the Readings the code applies today, are applied.
    assert not any(c.planned for c in clauses.values() if c.kind == "rule")
    for clause_id in ("reading:corner-block", "reading:straight-zero-floor", "reading:low-volume"):
        assert clauses[clause_id].status == "applied", clause_id


def test_a_clause_is_applied_unless_it_says_it_is_planned(tmp_path):
    clauses = load_register(
        write(
            tmp_path,
            ENTRY.format(id="617b.8", kind="rule"),
            ENTRY.format(id="617b.8(g)", kind="rule") + 'status = "planned"\n',
        )
    )
    assert [c.status for c in clauses.values()] == ["applied", "planned"]
    assert [c.planned for c in clauses.values()] == [False, True]


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ('status = "later"\n', "status must be one of applied, planned"),
        ('status = "planned"\npending = "the rest"\n', "only an applied clause says what is"),
        ('pending = """a\nb"""\n', "pending must be one line"),
    ],
)
def test_it_refuses_an_unknown_status_or_a_pending_note_on_a_planned_clause(
    tmp_path, fields, complaint
):
    with pytest.raises(RegisterError, match=re.escape(complaint)):
        load_register(write(tmp_path, ENTRY.format(id="617b.8", kind="rule") + fields))


@pytest.mark.parametrize(
    ("clause_id", "parent"),
    [
        ("617b.8(g)(2)", "617b.8(g)"),
        ("617b.8(d)(10)", "617b.8(d)"),
        ("617b.8(g)", "617b.8"),
        ("617b.8", None),
        ("811a.7(f)", "811a.7"),
        ("reading:zero-splits", None),
        ("617a", None),
    ],
)
def test_it_finds_a_parent_from_the_id_alone(clause_id, parent):
    assert parent_of(clause_id) == parent


ENTRY = """
[[clause]]
id = "{id}"
kind = "{kind}"
title = "T"
summary = "S"
text = "The rule."
"""


def write(tmp_path: Path, *entries: str) -> Path:
    path = tmp_path / "register.toml"
    path.write_text("".join(entries), encoding="utf-8")
    return path


def test_it_reads_a_small_register_in_order(tmp_path):
    path = write(
        tmp_path, ENTRY.format(id="617b.8", kind="rule"), ENTRY.format(id="617b.8(g)", kind="rule")
    )
    assert list(load_register(path)) == ["617b.8", "617b.8(g)"]


@pytest.mark.parametrize(
    ("entries", "complaint"),
    [
        ([("617b.8", "rule"), ("617b.8", "rule")], "registered twice"),
        ([("617b.8(g)", "rule")], "its parent 617b.8 is not registered"),
        ([("617b.8 (g)", "rule")], "not canonical"),
        ([("617B.8", "rule")], "not canonical"),
        ([("617b.8", "law")], "kind must be one of"),
        ([("601a.2", "rule")], "kind must be 'neighbour'"),
        ([("617a", "rule")], "kind must be 'neighbour'"),
        ([("617", "neighbour")], "not canonical"),
        ([("reading:zero-splits", "reading")], "domain_section"),
    ],
)
def test_it_refuses_a_broken_register_naming_the_entry(tmp_path, entries, complaint):
    path = write(tmp_path, *(ENTRY.format(id=i, kind=k) for i, k in entries))
    with pytest.raises(RegisterError, match=re.escape(complaint)):
        load_register(path)


READING = """
[[clause]]
id = "reading:x"
kind = "reading"
title = "T"
summary = "S"
"""


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ("", "a Reading names its source"),
        ('source = "blog"\n', "a Reading names its source"),
        ('source = "domain"\n', "a domain Reading names its domain_section"),
        ('source = "domain"\ndomain_section = "1. The game"\n', "domain_opening"),
        ('source = "project"\ndomain_section = "1. The game"\n', "a project Reading is not in"),
        ('source = "project"\ndomain_opening = "a corner"\n', "a project Reading is not in"),
    ],
)
def test_it_refuses_a_reading_without_its_source_or_in_the_wrong_place(tmp_path, fields, complaint):
    with pytest.raises(RegisterError, match=re.escape(complaint)):
        load_register(write(tmp_path, READING + fields))


@pytest.mark.parametrize(
    "fields",
    [
        'source = "project"\n',
        'source = "domain"\ndomain_section = "1. The game"\ndomain_opening = "a corner"\n',
    ],
)
def test_it_reads_a_domain_or_a_project_reading(tmp_path, fields):
    clauses = load_register(write(tmp_path, READING + fields))
    assert clauses["reading:x"].source in ("domain", "project")


def test_it_refuses_a_source_on_a_clause_of_the_rule(tmp_path):
    entry = ENTRY.format(id="617b.8", kind="rule") + 'source = "project"\n'
    with pytest.raises(RegisterError, match="only a Reading has a source"):
        load_register(write(tmp_path, entry))


def test_it_refuses_a_summary_of_more_than_one_line(tmp_path):
    entry = ENTRY.format(id="617b.8", kind="rule").replace('summary = "S"', 'summary = """S\nS"""')
    with pytest.raises(RegisterError, match="one line"):
        load_register(write(tmp_path, entry))


def test_it_refuses_an_unknown_record_kind(tmp_path):
    entry = ENTRY.format(id="617b.8", kind="rule") + 'governs = ["wallet"]\n'
    with pytest.raises(RegisterError, match="governs"):
        load_register(write(tmp_path, entry))
