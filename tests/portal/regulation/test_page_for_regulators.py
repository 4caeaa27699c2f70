"""The Regulation page is for regulators first: for each clause the rule's text, our reading
of it and whether it is proven, in a few lines; where the code applies it and the tests
that claim it are folded away under the clause, for whoever checks them."""

from __future__ import annotations

import json

import pytest
from django.utils.text import slugify

from portal.regulation import views
from portal.regulation.register import register
from tests.portal.page_helpers import text
from tests.portal.plain_words import shown_text

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


def test_each_clause_shows_its_text_our_reading_and_whether_it_is_proven_first(
    login, auditor, results
):
    page = text(login(auditor).get("/regulation/"))

    for clause in register().values():
        part = section(page, clause.id)
        shown = shown_text(part)
        assert '<p class="standing standing-' in part, clause.id
        assert "proven" in shown.lower() or "proofs written" in shown.lower(), clause.id
        assert clause.summary[:40] in part.replace("&#x27;", "'").replace("&quot;", '"')
        # What is shown comes before the folded evidence.
        assert part.index('class="standing') < part.index("<details"), clause.id
        if clause.text:
            assert part.index("rule-text") < part.index("our-reading"), clause.id


def test_code_paths_and_test_names_are_folded_away(login, officer, results):
    page = text(login(officer).get("/regulation/"))

    g2 = section(page, "617b.8(g)(2)")
    folded = g2[g2.index("<details") : g2.index("</details>")]
    assert ".py:" in folded and "tests/" in folded  # there, for whoever unfolds them
    shown = shown_text(page)
    assert ".py" not in shown and "tests/" not in shown and "::" not in shown
    assert "Where it is applied and tested" in shown


def test_a_passed_proof_shows_as_proven_and_no_results_as_not_run_here(login, auditor, results):
    without = shown_text(section(text(login(auditor).get("/regulation/")), "617b.8(g)(2)"))
    results.write_text(
        json.dumps(
            {
                "version": 1,
                "taken_at": "2026-11-30T17:05:00+00:00",
                "database": "sqlite",
                "results": {HALF_BACK: {"outcome": "passed", "at": "2026-11-30T17:00:00+00:00"}},
            }
        )
    )
    page = text(login(auditor).get("/regulation/"))

    assert "not run on this installation" in without and "Proven" not in without
    assert "Proven: 1 test showing it applied passed." in shown_text(section(page, "617b.8(g)(2)"))
    # A clause whose proofs were not in the results is not proven.
    assert "Not proven" in shown_text(section(page, "617b.8(c)"))
    assert "proven," in shown_text(page[: page.index("<section")])  # the count at the top
