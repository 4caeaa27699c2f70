"""A certificate holder's manager drafts a paytable, is told on the field that a straight up
below 11 to 1 breaks § 617b.8(f), fixes it, saves the draft and submits it for review."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.compliance.models import Paytable, RecordStatus
from tests.portal.browser import needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

BELOW_MINIMUM = "§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1"


def test_617b8_f_a_manager_drafts_a_paytable_fixes_the_straight_up_and_submits_it(walk, manager_a):
    page = walk.page
    walk.sign_in("manager_a")
    expect(page.get_by_role("heading", name="Dashboard", level=1)).to_be_visible()
    expect(page.get_by_role("region", name="Drafts")).to_contain_text("No drafts.")
    walk.shot("dashboard")

    page.get_by_role("link", name="New paytable").click()
    expect(page.get_by_role("heading", name="New paytable", level=1)).to_be_visible()
    page.get_by_label("Name").fill("Weekend")
    straight = page.get_by_role("textbox", name="Straight up")
    expect(straight).to_have_value("11")  # the form starts at the minimums
    straight.fill("10")
    # The live preview (htmx) already says why, before anything is sent.
    preview = page.get_by_role("region", name="House edge preview")
    expect(preview).to_contain_text(BELOW_MINIMUM)
    walk.shot("odds-typed-below-the-minimum")

    page.get_by_role("button", name="Create draft").click()
    straight = page.get_by_role("textbox", name="Straight up")
    # The error is on the field itself: marked invalid, and read out with it.
    expect(straight).to_have_attribute("aria-invalid", "true")
    expect(straight).to_have_accessible_description(re.compile(re.escape(BELOW_MINIMUM)))
    expect(page.get_by_role("row", name="Straight up")).to_contain_text(BELOW_MINIMUM)
    # Said once on the form, and once in the error summary at its top, which links to it.
    expect(page.locator(".odds-table").get_by_text("§ 617b.8(f): ", exact=False)).to_have_count(1)
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    expect(summary.get_by_role("link", name=BELOW_MINIMUM)).to_have_attribute(
        "href", "#id_straight"
    )
    expect(page.get_by_text("§ 617b.8(f): ", exact=False)).to_have_count(2)
    expect(page.get_by_role("textbox", name="Split")).not_to_have_attribute("aria-invalid", "true")
    assert not Paytable.objects.exists()  # nothing was saved
    walk.shot("refused-on-the-straight-up-field")

    straight.fill("11")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("status")).to_contain_text("Paytable 'Weekend' drafted.")
    expect(page.get_by_role("heading", name="Weekend v1", level=1)).to_be_visible()
    expect(walk.status_badge()).to_have_text("Draft")
    edge = page.get_by_role("table", name="Exact house edge per wager")
    expect(edge.get_by_role("row", name="Straight up")).to_contain_text("11 to 1")
    walk.shot("draft-saved")

    page.get_by_role("button", name="Submit for review").click()
    expect(page.get_by_role("status")).to_contain_text("submitted")
    expect(walk.status_badge()).to_have_text("Submitted")
    expect(page.get_by_role("link", name="Edit draft")).to_have_count(0)  # no longer a draft
    walk.shot("submitted-for-review")

    page.get_by_role("link", name="My submissions").click()
    expect(page.get_by_role("heading", name="My submissions", level=1)).to_be_visible()
    row = page.get_by_role("row", name="Weekend")
    expect(row).to_contain_text("Paytable")
    expect(row).to_contain_text("v1")
    expect(row).to_contain_text("Submitted")
    walk.shot("my-submissions")

    stored = Paytable.objects.get()
    assert (stored.status, stored.odds["straight"]) == (RecordStatus.SUBMITTED, "11")
    assert stored.submitted_by == manager_a
