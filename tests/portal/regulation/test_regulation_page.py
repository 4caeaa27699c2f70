"""The Regulation page and /api/regulation/: every registered clause with the rule's text,
the code that applies it, the tests that prove it, links to what it governs (issue 16)."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils.html import escape
from django.utils.text import slugify

from portal.regulation.register import register
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db


@pytest.mark.clause("617b.8", kind="related")
def test_617b8_every_back_office_role_reads_the_matrix_beside_the_rules_text(login, auditor):
    page = text(login(auditor).get("/regulation/"))

    for clause in register().values():
        assert f'id="clause-{slugify(clause.id)}"' in page and escape(clause.title) in page
    # (g)(2) with its own words, and a Reading marked as one.
    assert "§ 617b.8(g)(2)" in page
    assert "shall return one-half of the amount wagered" in page
    assert '<span class="badge">Reading</span>' in page and "reading:zero-splits" in page


@pytest.mark.parametrize("role", ["officer", "manager_a", "auditor", "superuser"])
def test_the_page_is_for_every_back_office_role_and_links_what_they_may_open(login, request, role):
    response = login(request.getfixturevalue(role)).get("/regulation/")

    page = text(response)
    assert response.status_code == 200
    assert 'href="/compliance/paytables/"' in page  # (f) governs paytables
    # The rounds list only for those who may see every round.
    assert ('href="/play/rounds/"' in page) == (role != "manager_a")


def test_players_may_not_read_it(login, player):
    assert login(player).get("/regulation/").status_code == 403
    assert login(player).get("/api/regulation/").status_code == 403


def test_the_api_serves_the_same_clauses_as_json(login, officer):
    body = login(officer).get("/api/regulation/").json()

    ids = [clause["id"] for clause in body["clauses"]]
    assert ids == list(register())
    g2 = next(clause for clause in body["clauses"] if clause["id"] == "617b.8(g)(2)")
    assert g2["kind"] == "rule" and g2["parent"] == "617b.8(g)"
    assert g2["tests"], "(g)(2) is proved by named tests"
    assert all(test["nodeid"].startswith("tests/") for test in g2["tests"])


def test_the_matrix_exports_as_csv(login, auditor):
    response = login(auditor).get("/regulation/?export=csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [row["Clause"] for row in rows] == list(register())
    assert {row["Kind"] for row in rows} == {"rule", "neighbour", "reading"}


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_matrix_exports_as_a_pdf_for_a_test_lab(login, officer):
    response = login(officer).get("/regulation/?export=pdf")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('attachment; filename="clause-matrix-')
    assert response.content.startswith(b"%PDF")
    assert len(response.content) > 5_000  # every clause's row, not an empty page


def test_an_unknown_export_is_a_400(login, officer):
    response = login(officer).get("/regulation/?export=docx")

    assert response.status_code == 400 and "ask for csv or pdf" in text(response)
