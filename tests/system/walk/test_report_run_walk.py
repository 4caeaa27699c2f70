"""An auditor runs the audit report of a gaming day from the Reports page, typing the big-win
threshold in dollars, and reads its figures on the run's page without downloading anything:
totals, hold against its expected band, flags, exceptions, re-settlement and reconciliation
(§ 811a.9); then keeps the PDF beside the screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.reports.models import ReportRun, RunStatus
from tests.portal.browser import needs_chromium
from tests.portal.reports.runs import play_the_day

# The report this walk runs is made by PostgreSQL's own readers there (COPY, the columnar
# pass): it also runs in the second database's pass.
pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium, pytest.mark.every_database]


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    """Report files go to a throwaway folder; the run is done in-process when the request
    commits, as everywhere in the suite (no broker)."""
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.fixture
def played(player, live_offering):
    play_the_day(player, live_offering, keys="walk-report")
    return live_offering


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_an_auditor_runs_the_audit_report_and_reads_its_figures(walk, auditor, played):
    page = walk.page
    walk.sign_in("auditor")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    expect(page.get_by_role("heading", name="Reports", level=1)).to_be_visible()

    form = page.get_by_role("form", name="Run a report")
    form.get_by_label("Report", exact=True).select_option(label="Audit report")
    form.get_by_label("From gaming day").fill("2026-11-16")
    form.get_by_label("To gaming day").fill("2026-11-16")
    form.get_by_label("Big win from (dollars").fill("10000.00")
    walk.shot("audit-report-form")

    form.get_by_role("button", name="Run the report").click()
    run = ReportRun.objects.get()
    expect(page.get_by_role("heading", name=f"Audit report — run #{run.pk}")).to_be_visible()
    expect(page.get_by_role("definition").filter(has_text="Succeeded")).to_be_visible()
    assert run.status == RunStatus.SUCCEEDED
    assert run.parameters["win_threshold"] == 1_000_000  # typed in dollars, kept in cents

    parameters = page.get_by_role("definition").filter(has_text="Period:")
    expect(parameters).to_contain_text("Period: 16 November 2026")
    expect(parameters).to_contain_text("Win threshold $10,000.00")
    expect(parameters).not_to_contain_text("win_threshold")

    figures = page.get_by_role("table", name="Figures")

    def figure(label: str):
        header = page.get_by_role("rowheader", name=label, exact=True)
        return figures.get_by_role("row").filter(has=header)

    for label, value in [
        ("Handle (H)", "$12.00"),
        ("Win (W = H − returned)", "-$17.00"),
        ("Hold (W / H)", "-141.67%"),
        ("Expected band (E ± 1.96 SD)", " to "),
        ("Against the band", "low volume"),
        ("Re-settlement", "6 bets settled again, 0 discrepancies"),
        ("Reconciliation", "ok: everything reconciles"),
    ]:
        expect(figure(label)).to_contain_text(value)
    expect(figure("Exceptions")).to_contain_text("Single wins above the threshold: 0")
    page.wait_for_load_state("networkidle")  # the charts, drawn from the stored document
    walk.shot("audit-report-figures")

    files = page.get_by_role("table", name="Files")
    with page.expect_download() as downloading:
        files.get_by_role("link", name="PDF").click()
    saved = walk.folder / downloading.value.suggested_filename  # kept beside the screenshots
    downloading.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF")
    assert b"DejaVuSans" in saved.read_bytes()  # the embedded font, named in the file


@pytest.mark.clause("811a.9(d)(1)", kind="related")
def test_811a9_d_1_an_auditor_runs_the_player_account_summary(walk, axe, auditor, played):
    page = walk.page
    walk.sign_in("auditor")
    walk.open("/reports/")

    form = page.get_by_role("form", name="Run a report")
    form.get_by_label("Report", exact=True).select_option(label="Player Account Summary")
    form.get_by_label("Gaming day (player account summary").fill("2026-11-16")
    axe.check("account-summary-form")
    form.get_by_role("button", name="Run the report").click()

    run = ReportRun.objects.get()
    heading = f"Player Account Summary — run #{run.pk}"
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    expect(page.get_by_role("definition").filter(has_text="Succeeded")).to_be_visible()
    parameters = page.get_by_role("definition").filter(has_text="Gaming day")
    expect(parameters).to_contain_text("Gaming day 16 November 2026")
    counts = page.get_by_role("table", name="Counts")
    expect(counts.get_by_role("row").filter(has_text="Player accounts")).to_contain_text("1")
    walk.shot("account-summary-run")
    axe.check("account-summary-run")
    axe.assert_no_serious_violations()
    assert run.status == RunStatus.SUCCEEDED and run.parameters["day"] == "2026-11-16"
