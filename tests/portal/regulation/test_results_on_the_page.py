"""The Regulation page says when the test results it shows were taken, and each test's claim:
proves it, cites it in a message, or related."""

from __future__ import annotations

import json

import pytest
from django.utils.text import slugify

from portal.regulation import views
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

HALF_BACK = (
    "tests/jinzi/test_jinzi_settlement.py::test_617b8_g_2_zero_returns_half_of_straight_up_on_ten"
)


def section(page: str, clause_id: str) -> str:
    start = page.index(f'id="clause-{slugify(clause_id)}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def results(tmp_path, monkeypatch):
    path = tmp_path / "clause-results.json"
    monkeypatch.setattr(views, "default_results_path", lambda: path)
    return path


def test_the_page_says_when_the_results_were_taken_and_on_which_database(login, auditor, results):
    results.write_text(
        json.dumps(
            {
                "version": 1,
                "taken_at": "2026-11-30T17:05:00+00:00",
                "database": "postgresql",
                "results": {
                    HALF_BACK: {"outcome": "passed", "at": "2026-11-29T16:00:00+00:00"},
                },
            }
        )
    )

    page = text(login(auditor).get("/regulation/"))

    assert "Test results taken <strong>2026-11-30 12:05 EST</strong> on PostgreSQL" in page
    assert "the oldest result kept is from 2026-11-29 11:00 EST" in page
    assert "passed" in section(page, "617b.8(g)(2)")


def test_without_results_the_page_says_none_were_taken_here(login, officer, results):
    page = text(login(officer).get("/regulation/"))

    assert "No test results recorded here" in page
    assert "Test results taken" not in page


def test_each_test_says_whether_it_proves_the_clause_or_only_cites_it(login, officer, results):
    page = text(login(officer).get("/regulation/"))

    g = section(page, "617b.8(g)")
    assert "test_617b8_g_an_odd_stake_is_refused_citing_the_zero_rule</code> " in g
    assert '<span class="badge claim-cites-in-message">cites it in a message</span>' in g
    assert '<span class="badge claim-proves">proves it</span>' in g
    b = section(page, "617b.8(b)")
    assert '<span class="badge claim-related">related</span>' in b  # expiry timing
    assert "test_617b8_b_a_table_on_a_layout_not_yet_approved_is_not_live" in b
