"""The live preview of a paytable's odds (htmx, as they are typed) shows every error in the
odds, as submitting the form does, each in the same words: not only the first one met."""

from __future__ import annotations

import pytest

from portal.compliance.forms import ODDS_UNREADABLE_PLAIN
from tests.portal.factories import MINIMUM_ODDS
from tests.portal.page_helpers import field_errors, text
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db

PREVIEW = "/compliance/paytables/preview/"
BAD = {"straight": "abc", "split": "4", "column": ""}


def _form(**odds) -> dict:
    return {"name": "House special", **{k: str(v) for k, v in {**MINIMUM_ODDS, **odds}.items()}}


@pytest.mark.clause("617b.8(f)", kind="cites-in-message")
def test_617b8_f_the_preview_shows_every_odds_error_as_submitting_does(login, manager_a):
    client = login(manager_a)

    preview = text(client.post(PREVIEW, _form(**BAD)))
    submitted = client.post("/compliance/paytables/new/", _form(**BAD))

    said = {
        "straight": ODDS_UNREADABLE_PLAIN.format(label="Straight up"),
        "split": "§ 617b.8(f): Split pays 4 to 1, below the minimum 5 to 1",
        "column": "Enter the odds for Column, at least 2 to 1",
    }
    assert submitted.status_code == 400
    for kind, message in said.items():
        assert message in field_errors(submitted, f"id_{kind}")  # submit shows it on its field
        assert preview.count(message) == 1  # and so does the preview, once
    assert "<table" not in preview  # no edge table until every odds is accepted
    assert not developer_words(shown_text(preview))
    assert "(str)" not in preview and "got " not in preview


def test_the_preview_without_errors_shows_the_edge_table(login, manager_a):
    preview = text(login(manager_a).post(PREVIEW, _form(straight="12/1")))

    assert '<table class="edge">' in preview
    assert "The house edge is shown once every odds is accepted" not in preview


def test_the_preview_ignores_a_missing_name(login, manager_a):
    """Only the odds are previewed: a name not typed yet is no error there."""
    preview = text(login(manager_a).post(PREVIEW, {**_form(), "name": ""}))

    assert '<table class="edge">' in preview
