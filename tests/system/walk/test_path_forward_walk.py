"""A manager's paytable v2 is approved, but the table runs on what its rules submission
lists (§ 601a.2, § 617b.8(a)): the manager is told so and, with one button, lands on the
rules submission's amendment with v2 already listed, to check and submit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from portal.compliance.models import ListedGame, RecordStatus, RulesSubmission
from tests.portal.browser import REPO, needs_chromium
from tests.portal.compliance.test_path_forward import paytable_v2
from tests.portal.factories import approved_offering

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

BUTTON = "Amend rules submission 'Jinzi Roulette rules' v1 (it runs Table 1) to use v2"
# The record page shows the way forward once it includes ``{% path_forward record %}``.
RECORD_PAGE_SHOWS_IT = "path_forward" in Path(
    REPO, "templates", "compliance", "record_detail.html"
).read_text(encoding="utf-8")


@pytest.fixture
def moved_on(manager_a, officer, holder_a):
    """A live table on paytable v1, and the paytable's v2 approved since."""
    table = approved_offering(manager_a, officer, holder_a)
    return table, paytable_v2(manager_a, officer, table.paytable)


def _lands_on_the_prefilled_draft(walk, table, v2) -> None:
    page = walk.page
    expect(page.get_by_role("heading", name="Edit rules submission draft", level=1)).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text(
        "paytable 'Standard' v2 for Jinzi Roulette in place of v1"
    )
    expect(page.get_by_role("status")).to_contain_text("submit it for review")
    expect(page.get_by_role("combobox", name="Paytable")).to_have_value(str(v2.pk))
    draft = RulesSubmission.objects.get(series=table.rules_submission.series, version=2)
    assert draft.status == RecordStatus.DRAFT
    assert ListedGame.objects.get(submission=draft).paytable_id == v2.pk
    assert re.search(rf"/compliance/rules/{draft.pk}/edit/$", page.url)


def test_601a2_the_offering_form_says_why_v2_is_no_choice_and_leads_to_the_amendment(
    walk, moved_on
):
    table, v2 = moved_on
    page = walk.page
    walk.sign_in("manager_a")
    walk.open("/compliance/offerings/")
    page.get_by_role("link", name="New offering").click()
    expect(page.get_by_role("heading", name="New offering", level=1)).to_be_visible()
    note = page.get_by_role("note").filter(has_text="Paytable 'Standard' v2 is approved")
    expect(note).to_contain_text("no approved rules submission lists it yet")
    walk.shot("the-form-says-why-v2-is-no-choice")

    note.get_by_role("button", name=BUTTON).click()
    _lands_on_the_prefilled_draft(walk, table, v2)
    walk.shot("the-amendment-lists-v2")


@pytest.mark.skipif(
    not RECORD_PAGE_SHOWS_IT, reason="the record page does not include the way forward yet"
)
def test_601a2_a_manager_amends_the_rules_submission_from_paytable_v2(walk, moved_on):
    table, v2 = moved_on
    page = walk.page
    walk.sign_in("manager_a")
    walk.open(f"/compliance/paytables/{v2.pk}/")
    expect(page.get_by_role("heading", name="Standard v2", level=1)).to_be_visible()
    expect(walk.status_badge()).to_have_text("Approved")
    forward = page.get_by_role("region", name="Use v2 at your tables")
    expect(forward).to_contain_text("lists v1 of this paytable")
    walk.shot("approved-paytable-v2")

    forward.get_by_role("button", name=BUTTON).click()
    _lands_on_the_prefilled_draft(walk, table, v2)
    walk.shot("the-amendment-lists-v2")
