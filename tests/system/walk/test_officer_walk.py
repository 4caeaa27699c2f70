"""A compliance officer reviews a paytable that amends an approved one: the changes from the
approved version, then one decision panel; and four-eyes, seen by the one who wrote a
version: why they may not decide it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.compliance.models import Paytable, RecordStatus
from portal.compliance.services.paytables import paytable_amend, paytable_submit, paytable_update
from tests.portal.browser import needs_chromium
from tests.portal.factories import MINIMUM_ODDS, approved_paytable, make_paytable

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

# Three numbers paid 13 to 4 instead of 3 to 1: more than the minimum. Its odds keep an edge
# of 1/52, but rounded up (reading:round-up) a 2-cent stake on it is paid 9 cents, which
# leaves the house nothing: approving it takes the acknowledgement of that wager and an
# override reason (§ 617b.8(f), reading:edge-acknowledgement).
AMENDED_ODDS = {**MINIMUM_ODDS, "three_numbers": "13/4"}


@pytest.fixture
def submitted_amendment(manager_a, officer2, holder_a):
    """v1 approved (by another officer), v2 changing one odds, submitted by the manager."""
    approved = approved_paytable(manager_a, officer2, holder_a)
    draft = paytable_amend(actor=manager_a, paytable=approved)
    paytable_update(actor=manager_a, paytable=draft, odds=AMENDED_ODDS)
    return approved, paytable_submit(actor=manager_a, paytable=draft)


def test_an_officer_reviews_the_changes_from_the_approved_version_and_approves(
    walk, officer, submitted_amendment
):
    approved, amendment = submitted_amendment
    page = walk.page
    walk.sign_in("officer")
    expect(page.get_by_role("heading", name="Dashboard", level=1)).to_be_visible()
    awaiting = page.get_by_role("region", name="Awaiting your review")
    expect(awaiting.get_by_role("listitem")).to_have_count(1)
    expect(awaiting).to_contain_text("Standard v2")
    expect(awaiting).to_contain_text("due in 15 days")  # § 601a.10: submitted today
    walk.shot("dashboard-awaiting-review")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Paytables").click()
    expect(page.get_by_role("heading", name="Paytables", level=1)).to_be_visible()
    rows = page.get_by_role("table", name="Paytables").get_by_role("row")
    expect(rows.filter(has_text="v2")).to_contain_text("Submitted")
    expect(rows.filter(has_text="v1")).to_contain_text("Approved")
    walk.shot("paytables-list")

    rows.filter(has_text="v2").get_by_role("link", name="Standard").click()
    expect(page.get_by_role("heading", name="Standard v2", level=1)).to_be_visible()
    expect(walk.status_badge()).to_have_text("Submitted")
    diff = page.get_by_role("region", name="Changes from the approved version (v1)")
    expect(diff).to_contain_text("2 of 13 rows differ")
    changed = diff.get_by_role("row", name="Three numbers")
    expect(changed).to_contain_text("3 to 1")  # approved v1
    expect(changed).to_contain_text("13 to 4")  # this version
    expect(changed.get_by_role("cell").last).to_have_text("changed")
    expect(diff.get_by_role("row", name="Wagers covering 0")).to_contain_text("changed")
    expect(diff.get_by_role("row", name="Straight up").get_by_role("cell").last).to_have_text(
        "same"
    )
    walk.shot("changes-from-the-approved-version")

    panel = page.get_by_role("group", name="Decide this paytable")
    expect(panel.get_by_role("button")).to_have_text(["Approve", "Request changes", "Reject"])
    panel.get_by_role("textbox", name=re.compile(r"^Reason")).fill(
        "Three numbers pays 13 to 4; edge 1/52."
    )
    panel.get_by_role("textbox", name="Override reason").fill("Tables with $1 chips only.")
    edges = panel.get_by_role("group", name=re.compile("house edge of zero or less"))
    expect(edges).to_contain_text("Three numbers: in the player's favour")
    edges.get_by_role("checkbox", name=re.compile("^I acknowledge")).check()
    walk.shot("decision-panel-filled")

    panel.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status")).to_contain_text("approved")
    expect(walk.status_badge()).to_have_text("Approved")
    decision = page.get_by_role("region", name="Decision")
    expect(decision).to_contain_text("officer")
    expect(decision).to_contain_text("Three numbers pays 13 to 4; edge 1/52.")
    expect(page.get_by_role("group", name="Decide this paytable")).to_have_count(0)
    versions = page.get_by_role("region", name="Versions")
    expect(versions.get_by_role("listitem").filter(has_text="v1")).to_contain_text("Superseded")
    walk.shot("approved-v1-superseded")

    amendment.refresh_from_db()
    approved.refresh_from_db()
    assert (amendment.status, amendment.decided_by) == (RecordStatus.APPROVED, officer)
    assert approved.status == RecordStatus.SUPERSEDED


def test_four_eyes_the_author_of_a_version_is_told_why_they_cannot_decide_it(
    walk, superuser, officer, holder_a
):
    # A superuser may draft as a manager and decide as an officer, but never their own work.
    own = paytable_submit(
        actor=superuser, paytable=make_paytable(superuser, holder_a, name="House special")
    )
    page = walk.page
    walk.sign_in(superuser.username)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Paytables").click()
    row = page.get_by_role("table", name="Paytables").get_by_role("row", name="House special")
    expect(row).to_contain_text("Submitted")
    walk.shot("paytables-list")

    row.get_by_role("link", name="House special").click()
    expect(page.get_by_role("heading", name="House special v1", level=1)).to_be_visible()
    actions = page.get_by_role("region", name="Actions")
    expect(actions).to_contain_text("No decision here.")
    expect(actions).to_contain_text(
        "You created and submitted this version: another officer must decide it (four-eyes)."
    )
    expect(actions).to_contain_text("Four-eyes rule: you created, edited or submitted this")
    expect(page.get_by_role("group", name="Decide this paytable")).to_have_count(0)
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)
    walk.shot("four-eyes-no-decision")

    # Another officer, who wrote none of it, gets the decision panel.
    walk.sign_out()
    walk.sign_in("officer")
    walk.open(f"/compliance/paytables/{own.pk}/")
    expect(page.get_by_role("group", name="Decide this paytable")).to_be_visible()
    walk.shot("another-officer-may-decide")
    assert Paytable.objects.get(pk=own.pk).status == RecordStatus.SUBMITTED
