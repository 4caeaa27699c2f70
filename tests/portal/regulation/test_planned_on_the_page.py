"""The Regulation page, /api/regulation/ and the CSV say which clauses are planned (applied
by a later change) and where each Reading comes from, in words, never a file's name."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils.text import slugify

from portal.regulation.register import register
from tests.portal.pages.helpers import text

pytestmark = pytest.mark.django_db


def section(page: str, clause_id: str) -> str:
    start = page.index(f'id="clause-{slugify(clause_id)}"')
    return page[start : page.index("</section>", start)]


def test_the_page_marks_planned_clauses_as_not_yet_applied(login, auditor):
    page = text(login(auditor).get("/regulation/"))

    planned = [c.id for c in register().values() if c.planned]
    assert "reading:supersede" in planned
    assert "617a.6" not in planned  # applied with voids and adjustments
    assert "reading:one-account-per-holder" not in planned  # applied since accounts per holder
    for clause_id in planned:
        assert "Not yet applied" in section(page, clause_id), clause_id
    applied = section(page, "reading:corner-block")
    assert "Not yet applied" not in applied and "untested" not in applied
    assert "not yet applied" in section(page, "reading:supersede")  # the summary line, too
    # An applied Reading with nothing still to come says nothing of the kind.
    assert "not yet applied" not in section(page, "reading:round-up").lower()


def test_the_page_says_where_a_reading_comes_from_in_words(login, officer):
    page = text(login(officer).get("/regulation/"))

    assert "where it can be read more than one way" in section(page, "reading:corner-block")
    assert "where the rule is silent" in section(page, "reading:limit-raises")
    assert ".md" not in page and "register.toml" not in page


def test_the_api_and_the_csv_carry_each_clauses_status(login, officer):
    body = login(officer).get("/api/regulation/").json()
    status = {clause["id"]: clause["status"] for clause in body["clauses"]}
    assert status["reading:supersede"] == "planned" and status["617b.8(g)(2)"] == "applied"
    sources = {clause["source"] for clause in body["clauses"]}
    assert sources == {None, "domain", "project"}
    assert not [p for p in body["problems"] if p["clause"] == "reading:supersede"]

    response = login(officer).get("/regulation/?export=csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {row["clause"]: row["status"] for row in rows} == {
        clause.id: clause.status for clause in register().values()
    }
