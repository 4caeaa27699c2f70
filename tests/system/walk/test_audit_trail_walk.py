"""An auditor reads the audit trail as a record (§ 811a.7): who by name, what happened by its
label, an event's values before and after labelled, the stored record folded away; then the
game availability log (§ 811a.7(f)), filtered by a holder chosen by name. The dashboard's
counts fit the page at any width and each opens the list it counts."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from portal.audit.models import AuditEvent
from portal.compliance.services.layouts import layout_withdraw
from tests.portal.browser import needs_chromium
from tests.portal.factories import approved_offering
from tests.portal.page_helpers import submitted_layout

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def _name(user, first: str, last: str) -> None:
    get_user_model().objects.filter(pk=user.pk).update(first_name=first, last_name=last)


def test_811a7_an_auditor_reads_the_trail_by_name_and_filters_the_log_by_holder(
    walk, auditor, manager_a, manager_b, officer, holder_a, holder_b, live_offering
):
    _name(manager_a, "Dana", "Reyes")
    _name(officer, "Sam", "Ortiz")
    approved_offering(manager_b, officer, holder_b, name="River table")
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Artwork recalled")
    page = walk.page

    walk.sign_in("auditor")
    walk.open("/audit/")
    expect(page.get_by_role("heading", name="Audit trail", level=1)).to_be_visible()
    filters = page.get_by_role("form", name="Filter the audit trail")
    filters.get_by_label("What happened").select_option("layout.withdraw")
    filters.get_by_role("button", name="Filter").click()
    events = page.get_by_role("table", name="Audit events, newest first")
    row = events.get_by_role("row").filter(has=page.get_by_role("cell"))
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Sam Ortiz")
    expect(row).to_contain_text("Approval withdrawn")
    expect(row).not_to_contain_text("layout.withdraw")
    walk.shot("trail-by-name")

    event = AuditEvent.objects.get(action="layout.withdraw")
    row.get_by_role("link", name=f"Event {event.sequence}").press("Enter")
    expect(page.get_by_role("heading", name=f"Audit event #{event.sequence}")).to_be_visible()
    facts = page.locator("dl.facts")
    expect(facts).to_contain_text("Sam Ortiz")
    expect(facts).to_contain_text("Approval withdrawn")
    changes = page.get_by_role("region", name="Before and after")
    expect(changes.get_by_role("columnheader")).to_have_text(["What", "Before", "After"])
    status = changes.get_by_role("row", name=re.compile(r"^Status"))
    expect(status).to_contain_text("Approved")
    expect(status).to_contain_text("Withdrawn")
    expect(changes.get_by_role("row", name=re.compile(r"^Created by"))).to_contain_text(
        "Dana Reyes"
    )
    expect(changes.locator("table.changes")).not_to_contain_text("_id")
    raw = page.locator("details.raw-record")
    expect(raw.locator("pre").first).not_to_be_visible()  # folded away until asked
    walk.shot("event-labelled-before-and-after")

    raw.locator("summary").click()
    expect(raw.locator("pre").first).to_be_visible()
    expect(raw).to_contain_text("layout.withdraw")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Availability log").click()
    expect(page.get_by_role("heading", name="Game availability log", level=1)).to_be_visible()
    log = page.get_by_role("table", name="Openings and closings")
    rows = log.get_by_role("row").filter(has=page.get_by_role("cell"))
    expect(rows).to_have_count(3)  # both tables opened, Keystone's closed: any change shown
    filters = page.get_by_role("form", name="Filter the availability log")
    expect(filters.get_by_role("combobox", name="Change")).to_have_value("any")
    filters.get_by_role("combobox", name="Holder").select_option(label="Keystone Casino (PA-001)")
    filters.get_by_role("button", name="Filter").click()
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="Closed")).to_have_count(1)
    expect(rows.filter(has_text="River table")).to_have_count(0)
    walk.shot("availability-by-holder")


@pytest.mark.parametrize("width", [1280, 375])
def test_the_dashboard_counts_fit_the_page_and_open_their_lists(
    walk, officer, manager_a, holder_a, live_offering, width
):
    submitted_layout(manager_a, holder_a, title="Waiting layout")
    page = walk.page
    walk.sign_in("officer")  # at the default width, where Sign out is in sight
    page.set_viewport_size({"width": width, "height": 900})
    walk.open("/compliance/")
    counts = page.locator("table.counts")
    expect(counts).to_be_visible()
    # Nothing scrolls sideways: neither the table in its panel nor the page.
    assert counts.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    walk.shot(f"dashboard-at-{width}")

    awaiting = counts.get_by_role("link", name="1 layouts: awaiting decision")
    awaiting.click()
    expect(page.get_by_role("heading", name="Layouts", level=1)).to_be_visible()
    expect(page).to_have_url(re.compile(r"/compliance/layouts/\?status=submitted$"))
    listed = page.get_by_role("table", name="Layouts").get_by_role("row")
    expect(listed.filter(has=page.get_by_role("cell"))).to_have_count(1)
    expect(listed.filter(has_text="Waiting layout")).to_have_count(1)
    walk.shot(f"awaiting-layouts-at-{width}")
