"""A manager builds the filing package of their holder's rules submission from its page and
opens its PDF (reading:filing-package); a picture of each of the PDF's pages is kept beside
the screenshots, in ``<artifacts>/pdf/``, when poppler's pdftoppm is installed (CI installs
it)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.db import connection
from playwright.sync_api import expect

from portal.reports.models import ReportRun, RunStatus
from tests.portal.browser import needs_chromium
from tests.portal.filings.builders import filed_submission
from tests.system.walk.conftest import artifacts_dir

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.fixture
def submission(manager_a, officer, holder_a):
    return filed_submission(manager_a, officer, holder_a)


def _pictures_of(pdf, name: str) -> list:
    """Each page of ``pdf`` as a PNG in ``<artifacts>/pdf/<database>/<name>/``."""
    folder = artifacts_dir() / "pdf" / connection.vendor / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", str(pdf), str(folder / "page")],
        check=True,
        timeout=120,
    )
    return sorted(folder.glob("page-*.png"))


@pytest.mark.clause("reading:filing-package", kind="related")
def test_601a2_a_manager_builds_the_filing_package_and_opens_its_pdf(
    walk, axe, manager_a, submission
):
    page = walk.page
    walk.sign_in("manager_a")
    walk.open(f"/compliance/rules/{submission.pk}/")
    page.get_by_role("link", name="Filing package").click()
    expect(page.get_by_role("heading", name="Filing package", level=1)).to_be_visible()
    walk.shot("filing-package-page")
    axe.check("filing-package-page")

    page.get_by_role("button", name="Build the filing package").click()
    run = ReportRun.objects.get()
    expect(page.get_by_role("definition").filter(has_text="Succeeded")).to_be_visible()
    assert run.status == RunStatus.SUCCEEDED, run.error
    walk.shot("filing-package-built")
    axe.check("filing-package-built")

    files = page.get_by_role("table", name="Files")
    with page.expect_download() as downloading:
        files.get_by_role("link", name="PDF").click()
    saved = walk.folder / downloading.value.suggested_filename
    downloading.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftoppm"):
        pictures = _pictures_of(saved, "filing-package")
        assert len(pictures) >= 4  # cover, rule, layouts, paytable at least
    axe.assert_no_serious_violations()


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_an_officer_reads_the_par_sheet_in_the_decision_panel_then_approves(
    walk, axe, officer, manager_a, holder_a
):
    from portal.compliance.services.paytables import paytable_submit
    from tests.portal.factories import make_paytable

    submitted = paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a))
    page = walk.page
    walk.sign_in("officer")
    walk.open(f"/compliance/paytables/{submitted.pk}/")

    panel = page.get_by_role("group", name="Decide this paytable")
    sheet = panel.get_by_role("group", name="PAR sheet of this paytable")
    expect(sheet).to_be_visible()
    straight = sheet.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="Straight up", exact=True)
    )
    expect(straight.first).to_contain_text("3.8462 %")  # 1/26, as paid (§ 617b.8(f))
    expect(sheet.get_by_role("table", name="Hold to expect")).to_contain_text("1,000,000")
    sheet.screenshot(path=str(walk.folder / "par-sheet-in-the-panel.png"))
    walk.shot("par-sheet-in-the-decision-panel")
    axe.check("par-sheet-in-the-decision-panel")

    panel.get_by_role("button", name="Approve").click()
    expect(walk.status_badge()).to_have_text("Approved")
    axe.assert_no_serious_violations()
