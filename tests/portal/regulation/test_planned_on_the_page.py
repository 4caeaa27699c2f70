"""The Regulation page, /api/regulation/ and the CSV say which clauses are planned (applied
by a later change) and where each Reading comes from, in words, never a file's name."""

from __future__ import annotations

import csv
import dataclasses
import io
from types import MappingProxyType

import pytest
from django.utils.text import slugify

from portal.regulation.register import register
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db


def section(page: str, clause_id: str) -> str:
    start = page.index(f'id="clause-{slugify(clause_id)}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def one_planned(monkeypatch):
    """The register as it stands with one Reading still planned, as a later change would
    leave it (every clause is applied today)."""
    from portal.regulation import matrix, views

    clauses = dict(register())
    planned = dataclasses.replace(clauses["reading:filing-package"], status="planned")
    clauses["reading:filing-package"] = planned
    monkeypatch.setattr(matrix, "register", lambda: MappingProxyType(clauses))
    views._matrix.cache_clear()  # the page keeps the matrix it built: build it again
    yield clauses
    views._matrix.cache_clear()


def test_the_page_marks_the_planned_clauses_as_not_yet_applied_and_no_applied_one(
    login, auditor, one_planned
):
    page = text(login(auditor).get("/regulation/"))

    planned = [c.id for c in one_planned.values() if c.planned]
    assert planned == ["reading:filing-package"]
    for clause_id in planned:
        assert "not yet applied" in section(page, clause_id).lower(), clause_id
    for clause_id in ("reading:supersede", "617a.6", "reading:one-account-per-holder"):
        applied = section(page, clause_id)
        assert "not yet applied" not in applied.lower() and "untested" not in applied, clause_id
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
    assert status["reading:supersede"] == "applied" and status["617b.8(g)(2)"] == "applied"
    sources = {clause["source"] for clause in body["clauses"]}
    assert sources == {None, "domain", "project"}
    assert not [p for p in body["problems"] if p["clause"] == "reading:supersede"]

    response = login(officer).get("/regulation/?export=csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {row["Clause"]: row["Status"] for row in rows} == {
        clause.id: clause.status for clause in register().values()
    }
