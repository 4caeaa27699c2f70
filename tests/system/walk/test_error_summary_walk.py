"""A refused form opens with its error summary focused, so it is what a screen reader reads
and what the page shows first; each of its links puts the cursor in the field it names. The
focus is moved by the site's own script file (no inline script: the page's policy would
block it, and the browser fixture fails the test on any such violation)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.compliance.models import RulesSubmission
from tests.portal.browser import needs_chromium
from tests.portal.factories import approved_layout, approved_paytable

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


@pytest.fixture
def parts(manager_a, officer, holder_a):
    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )


def test_a_refused_rules_form_focuses_its_summary_whose_links_lead_to_the_fields(
    walk, manager_a, parts
):
    page = walk.page
    walk.open("/accounts/login/")
    page.get_by_label("Username").fill("manager_a")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    # The sign-in page puts the cursor in Username; refused, it gives the summary the focus.
    refused = page.get_by_role("alert").filter(has_text="There is a problem")
    expect(refused).to_be_focused()
    expect(refused).to_contain_text("correct username and password")
    walk.shot("sign-in-refused-the-summary-has-the-focus")

    walk.sign_in("manager_a")
    walk.open("/compliance/rules/new/")
    expect(page.get_by_role("heading", name="New rules submission", level=1)).to_be_visible()
    expect(page.locator("[data-error-summary]")).to_have_count(0)
    page.get_by_label("Paytable").select_option(index=1)
    page.get_by_label("Layout").select_option(index=1)
    page.get_by_label("Chip unit ($)").fill("1.00")
    page.get_by_label("Minimum wager per spot ($)").fill("2.555")  # a tenth of a cent
    page.get_by_label("Maximum wager per spot ($)").fill("500.00")
    page.get_by_label("Maximum stake per round ($)").fill("2000.00")
    walk.shot("typed-with-a-title-missing-and-a-tenth-of-a-cent")

    page.get_by_role("button", name="Create draft").click()

    summary = page.get_by_role("alert").filter(has_text="There is a problem")
    expect(summary).to_be_visible()
    expect(summary).to_be_focused()
    title_link = summary.get_by_role("link", name="Enter the title")
    money_link = summary.get_by_role(
        "link", name="Enter the minimum wager per spot in dollars and cents, like 2.00"
    )
    expect(title_link).to_have_attribute("href", "#id_title")
    expect(money_link).to_have_attribute("href", "#id_min_wager")
    assert not RulesSubmission.objects.exists()
    walk.shot("refused-the-summary-has-the-focus")

    money_link.click()
    minimum = page.get_by_label("Minimum wager per spot ($)")
    expect(minimum).to_be_focused()
    expect(minimum).to_have_value("2.555")  # as typed, to correct
    expect(minimum).to_be_in_viewport()
    walk.shot("the-link-put-the-cursor-in-the-minimum-wager")

    minimum.fill("2.00")
    title_link.click()
    expect(page.get_by_label("Title")).to_be_focused()
    page.get_by_label("Title").fill("House rules")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("heading", name="House rules v1", level=1)).to_be_visible()
    assert RulesSubmission.objects.get().games.get().min_wager == 200
    walk.shot("saved-in-dollars")
