"""The register against the project's shared reference, where it sits beside the checkout
(../shared): the rule kept with the register is the published one, and the register carries
every paragraph the domain notes mark as a Reading, one entry each.

Elsewhere (a clone on its own) these are skipped: the register is the project's reference,
and its own tests (``test_register``) check it on its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from portal.regulation.register import register

SHARED = Path(__file__).resolve().parents[4] / "shared"
RULE_FILE = (
    Path(__file__).resolve().parents[3] / "portal" / "regulation" / "617b8-jinzi-roulette.txt"
)
SHARED_RULE_FILE = SHARED / "regulation" / "617b8-jinzi-roulette.txt"
DOMAIN_FILE = SHARED / "DOMAIN.md"
MARKER = "**Reading:**"

needs_rule = pytest.mark.skipif(
    not SHARED_RULE_FILE.is_file(),
    reason=f"the published rule is not beside this checkout ({SHARED_RULE_FILE} is missing)",
)
needs_notes = pytest.mark.skipif(
    not DOMAIN_FILE.is_file(),
    reason=(
        f"the domain notes are not beside this checkout ({DOMAIN_FILE} is missing), so the "
        "register's Readings cannot be compared with them"
    ),
)


def flat(text: str) -> str:
    return " ".join(text.split())


def notes() -> tuple[list[str], list[str]]:
    """The notes' headings, and each marked Reading's paragraph, from its first words."""
    text = DOMAIN_FILE.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    return headings, [flat(part) for part in text.split(MARKER)[1:]]


@needs_rule
def test_the_rule_kept_with_the_register_is_the_shared_one():
    assert RULE_FILE.read_bytes() == SHARED_RULE_FILE.read_bytes()


@needs_notes
def test_it_registers_every_reading_of_the_domain_notes_once():
    headings, openings = notes()
    readings = [c for c in register().values() if c.source == "domain"]
    assert len(readings) == len(openings)
    for clause in readings:
        assert clause.kind == "reading"
        assert clause.domain_section in headings, clause.id
        matching = [o for o in openings if o.startswith(flat(clause.domain_opening))]
        assert len(matching) == 1, clause.id
    # One to one: no two entries name the same paragraph.
    named = [
        next(i for i, o in enumerate(openings) if o.startswith(flat(c.domain_opening)))
        for c in readings
    ]
    assert sorted(named) == list(range(len(openings)))


@needs_notes
def test_no_project_reading_is_one_the_domain_notes_mark():
    _, openings = notes()
    for clause in register().values():
        if clause.source == "project":
            assert not any(o.startswith(flat(clause.summary)[:40]) for o in openings), clause.id


@needs_notes
def test_the_register_restates_the_readings_in_its_own_words():
    """Beyond the few first words that name a paragraph, no summary copies the notes: a
    run of twelve words in a row shared with them is a copied sentence."""
    text = flat(DOMAIN_FILE.read_text(encoding="utf-8").replace("**", ""))
    for clause in register().values():
        if clause.kind != "reading":
            continue
        words = flat(clause.summary).split()
        runs = [" ".join(words[i : i + 12]) for i in range(len(words) - 11)]
        assert not [run for run in runs if run in text], clause.id
