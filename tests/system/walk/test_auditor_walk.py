"""An auditor filters the audit trail, opens an event and reads its before and after, runs a
report on demand (§ 811a.9) and downloads it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.audit.models import AuditEvent
from portal.compliance.services.paytables import paytable_amend, paytable_approve, paytable_submit
from portal.reports.models import ReportRun, RunStatus
from tests.portal.browser import needs_chromium
from tests.portal.factories import approved_paytable

# The report this walk runs is made by PostgreSQL's own readers there (COPY, the columnar
# pass): it also runs in the second database's pass.
pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium, pytest.mark.every_database]


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    """Report files go to a throwaway folder (as in the report tests); the run itself is
    done in-process when the request commits, as everywhere in the suite (no broker)."""
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.fixture
def amended_paytable(manager_a, officer, officer2, holder_a):
    """v1 approved by one officer; v2, the same odds renewed, approved by the other."""
    approved = approved_paytable(manager_a, officer, holder_a)
    draft = paytable_amend(actor=manager_a, paytable=approved)
    draft = paytable_submit(actor=manager_a, paytable=draft)
    return paytable_approve(actor=officer2, paytable=draft, reason="Same odds, renewed")


def test_811a7_an_auditor_filters_the_trail_reads_an_event_and_downloads_a_report(
    walk, auditor, amended_paytable, live_offering
):
    page = walk.page
    walk.sign_in("auditor")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Audit trail").click()
    expect(page.get_by_role("heading", name="Audit trail", level=1)).to_be_visible()
    walk.shot("audit-trail")

    filters = page.get_by_role("form", name="Filter the audit trail")
    filters.get_by_label("What happened").select_option("paytable.approve")
    filters.get_by_role("button", name="Filter").click()
    events = page.get_by_role("table", name="Audit events, newest first")
    rows = events.get_by_role("row").filter(has=page.get_by_role("cell"))
    # Approvals only: the two of "Standard" (v1, v2), and the live table's paytable.
    expected = AuditEvent.objects.filter(action="paytable.approve").count()
    expect(rows).to_have_count(expected)
    for row in rows.all():
        expect(row).to_contain_text("Approved")
    walk.shot("filtered-by-action")

    filters = page.get_by_role("form", name="Filter the audit trail")
    filters.get_by_label("Kind of record").select_option(label="Paytable")
    filters.get_by_role("button", name="Filter").click()
    expect(rows).to_have_count(expected)  # every approval here is a paytable's
    row = rows.filter(has_text="Paytable “Standard” v2")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("officer2")
    expect(row).to_contain_text("Same odds, renewed")
    walk.shot("filtered-by-action-and-kind")

    event = AuditEvent.objects.get(action="paytable.approve", object_id=str(amended_paytable.pk))
    # Followed from the keyboard: a pointer click aims at the link's first box, its 1-pixel
    # visually hidden "Event " label, which the cell around it covers.
    row.get_by_role("link", name=f"Event {event.sequence}").press("Enter")
    expect(page.get_by_role("heading", name=f"Audit event #{event.sequence}")).to_be_visible()
    changes = page.get_by_role("region", name="Before and after")
    status = changes.get_by_role("row", name=re.compile(r"^Status"))
    expect(status).to_contain_text("Submitted")
    expect(status).to_contain_text("Approved")
    expect(status.get_by_role("rowheader")).to_contain_text("(changed)")  # marked, for all
    reason = changes.get_by_role("row", name=re.compile(r"^Reason for the decision"))
    expect(reason).to_contain_text("Same odds, renewed")
    expect(
        changes.get_by_role("row", name=re.compile(r"^Odds: Straight up")).get_by_role("rowheader")
    ).not_to_contain_text("changed")
    walk.shot("event-before-and-after")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    expect(page.get_by_role("heading", name="Reports", level=1)).to_be_visible()
    form = page.get_by_role("form", name="Run a report")
    form.get_by_label("Report", exact=True).select_option(label="Expiry report")
    form.get_by_role("textbox", name="As of").fill("2026-11-30")
    walk.shot("reports-form")

    form.get_by_role("button", name="Run the report").click()
    run = ReportRun.objects.get()
    expect(page.get_by_role("heading", name=f"Expiry report — run #{run.pk}")).to_be_visible()
    expect(page.get_by_role("definition").filter(has_text="Succeeded")).to_be_visible()
    files = page.get_by_role("table", name="Files")
    expect(files.get_by_role("link")).to_have_text(["CSV", "JSON", "PDF", "XLSX"])
    walk.shot("report-run-succeeded")

    pdf = run.files.get(format="pdf")
    assert run.status == RunStatus.SUCCEEDED
    with (
        page.expect_response(re.compile(r"/files/pdf/$")) as answered,
        page.expect_download() as downloading,
    ):
        files.get_by_role("link", name="PDF").click()
    download = downloading.value
    saved = walk.folder / download.suggested_filename  # kept beside the screenshots
    download.save_as(saved)
    assert download.suggested_filename == pdf.name == f"expiry-{run.pk}.pdf"
    assert saved.stat().st_size == pdf.size
    assert saved.read_bytes().startswith(b"%PDF")
    headers = answered.value.headers
    assert headers["content-type"] == "application/pdf"
    assert "attachment" in headers["content-disposition"]
    assert headers["cache-control"] == "private, no-store"
    # Taking the file is itself in the trail.
    assert AuditEvent.objects.filter(action="report.download", actor=auditor).exists()
