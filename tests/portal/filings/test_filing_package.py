"""The filing package of a rules submission (reading:filing-package, § 601a.2, § 601a.10(a)):
what it holds, that the same records give the same bytes, and who may build it."""

import datetime
import hashlib
import io
import json
import os
import time
import zipfile

import pytest
import time_machine
from pypdf import PdfReader

from portal.compliance.services.rules import (
    rules_submission_reject,
    rules_submission_submit,
    rules_submission_withdraw,
)
from portal.filings.bundle import (
    FILE_MODE,
    MANIFEST_NAME,
    PDF_NAME,
    SUMS_NAME,
    ZIP_TIME,
    package_of,
)
from portal.filings.contents import filing_of
from portal.reports.models import ReportRun
from tests.portal.factories import (
    approve_running_software,
    approved_layout,
    approved_paytable,
    make_layout,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db


def _entries(zip_bytes: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return {info.filename.split("/", 1)[1]: archive.read(info) for info in archive.infolist()}


def _pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.clause("reading:filing-package", "601a.2", kind="proves")
def test_601a2_the_package_holds_the_pdf_every_source_file_and_their_sha256(submission, holder_a):
    package = package_of(filing_of(submission))
    entries = _entries(package.zip_bytes)

    names = set(entries)
    assert {PDF_NAME, "submission.json", "history.csv", MANIFEST_NAME, SUMS_NAME} <= names
    assert {
        "software/identity.json",
        "software/approval.json",
        "software/approval-letter.pdf",
    } <= names
    layout_files = {name.rsplit("/", 1)[1] for name in names if name.startswith("layouts/")}
    assert layout_files == {"layout.json", "schematic.svg", "wheel.svg", "artwork.png"}
    paytable_files = {name.rsplit("/", 1)[1] for name in names if name.startswith("paytables/")}
    assert paytable_files == {
        "paytable.json",
        "par-sheet.json",
        "par-sheet.csv",
        "hold-forecast.svg",
    }

    manifest = json.loads(entries[MANIFEST_NAME])
    listed = {item["name"]: item for item in manifest["files"]}
    assert set(listed) == names - {MANIFEST_NAME, SUMS_NAME}
    for name, item in listed.items():
        assert item["sha256"] == hashlib.sha256(entries[name]).hexdigest()
        assert item["bytes"] == len(entries[name])
    sums = dict(line.split("  ")[::-1] for line in entries[SUMS_NAME].decode().splitlines())
    assert set(sums) == names - {SUMS_NAME}
    assert all(sums[name] == hashlib.sha256(entries[name]).hexdigest() for name in sums)
    assert manifest["holder"] == holder_a.name
    assert manifest["rules_submission"]["version"] == submission.version

    stored = json.loads(entries["submission.json"])
    assert stored["games"][0]["min_wager_cents"] == 100
    assert stored["status"] == "approved"


@pytest.mark.clause("reading:filing-package", "601a.2", kind="proves")
def test_601a2_the_pdf_has_the_cover_the_rule_with_options_par_sheet_software_and_history(
    submission, holder_a
):
    package = package_of(filing_of(submission))
    text = _pdf_text(package.pdf.data)
    flat = " ".join(text.split())

    assert "Filing package: Jinzi Roulette" in flat
    assert holder_a.name in flat
    assert "Jinzi Roulette rules, version 1" in flat
    # § 617b.8's own words, beside this submission's choices.
    assert "13 equally spaced compartments" in flat
    assert "clockwise from 0: 0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6" in flat
    assert "Paytable 'Standard' v1, the minimum" in flat
    # The PAR sheet at the listed stakes, and the history with who decided.
    assert "PAR sheet" in flat and "$1.00 to $500.00 a spot" in flat
    assert "officer" in flat and "Approved" in flat
    assert "Page 1 of" in flat
    # The software identity and its approval.
    assert filing_of(submission).identity.digest[:16] in flat.replace(" ", "")


@pytest.mark.clause("reading:filing-package", kind="proves")
def test_reading_filing_package_the_same_records_give_the_same_bytes_whatever_the_clock_and_zone(
    submission, settings
):
    first = package_of(filing_of(submission))

    zone = os.environ.get("TZ")
    settings.TIME_ZONE = "Asia/Tokyo"
    os.environ["TZ"] = "Asia/Tokyo"
    time.tzset()
    try:
        with time_machine.travel(datetime.datetime(2027, 7, 4, 23, 30, tzinfo=datetime.UTC)):
            again = package_of(filing_of(submission))
    finally:
        if zone is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = zone
        time.tzset()

    assert again.zip_bytes == first.zip_bytes
    assert again.pdf.data == first.pdf.data
    with zipfile.ZipFile(io.BytesIO(first.zip_bytes)) as archive:
        for info in archive.infolist():
            assert info.date_time == ZIP_TIME
            assert info.external_attr >> 16 == FILE_MODE


@pytest.mark.clause("reading:filing-package", kind="proves")
def test_reading_filing_package_a_changed_record_changes_the_package(submission, officer):
    before = package_of(filing_of(submission))
    rules_submission_withdraw(actor=officer, submission=submission, reason="Replaced")
    submission.refresh_from_db()

    after = package_of(filing_of(submission))

    assert after.zip_bytes != before.zip_bytes  # the status and the history moved


@pytest.mark.clause("601a.10(a)", kind="proves")
def test_601a10_a_the_package_carries_each_layouts_schematic_and_its_artwork(submission):
    entries = _entries(package_of(filing_of(submission)).zip_bytes)
    folder = next(name.rsplit("/", 1)[0] for name in entries if name.endswith("schematic.svg"))

    schematic = entries[f"{folder}/schematic.svg"].decode()
    assert schematic.lstrip().startswith("<?xml") or "<svg" in schematic[:400]
    for number in range(13):
        assert f">{number}<" in schematic
    layout = json.loads(entries[f"{folder}/layout.json"])
    assert layout["wheel_order"] == [0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6]
    assert hashlib.sha256(entries[f"{folder}/artwork.png"]).hexdigest() == layout["artwork_sha256"]


def test_a_draft_submission_with_an_invalid_paytable_still_packages_and_says_why(
    manager_a, officer, holder_a
):
    paytable = make_paytable(manager_a, holder_a)
    layout = make_layout(manager_a, holder_a)
    draft = make_rules(manager_a, holder_a, paytable, layout)
    type(paytable).objects.filter(pk=paytable.pk).update(odds={"straight": "10"})
    approve_running_software(officer)

    package = package_of(filing_of(type(draft).objects.get(pk=draft.pk)))

    assert "odds give no PAR sheet" in " ".join(_pdf_text(package.pdf.data).split())


def _run_count() -> int:
    return ReportRun.objects.count()


@pytest.mark.clause("reading:filing-package", kind="cites-in-message")
def test_601a2_a_withdrawn_or_rejected_submission_has_no_package_409_and_nothing_is_stored(
    client, login, submission, manager_a, officer, holder_a
):
    rules_submission_withdraw(actor=officer, submission=submission, reason="Replaced")
    paytable = approved_paytable(manager_a, officer, holder_a)
    layout = approved_layout(manager_a, officer, holder_a, title="Second")
    rejected = rules_submission_submit(
        actor=manager_a, submission=make_rules(manager_a, holder_a, paytable, layout, title="B")
    )
    rules_submission_reject(actor=officer, submission=rejected, reason="Incomplete")
    login(manager_a)

    for record in (submission, rejected):
        answer = client.post(f"/filings/rules/{record.pk}/")
        assert answer.status_code == 409
        assert "§ 601a.2" in answer.content.decode()
    assert _run_count() == 0


def test_a_manager_gets_404_for_another_holders_submission_and_nothing_is_stored(
    client, login, submission, manager_b
):
    login(manager_b)

    assert client.get(f"/filings/rules/{submission.pk}/").status_code == 404
    assert client.post(f"/filings/rules/{submission.pk}/").status_code == 404
    assert client.post("/filings/rules/999999/").status_code == 404
    assert _run_count() == 0


def test_the_api_refuses_another_holders_submission_404_and_a_bad_number_400(
    api_as, submission, manager_b
):
    api = api_as(manager_b)
    other = api.post(
        "/api/reports/",
        {"kind": "filing_package", "parameters": {"submission": submission.pk}},
        format="json",
    )
    bad = api.post(
        "/api/reports/",
        {"kind": "filing_package", "parameters": {"submission": "first"}},
        format="json",
    )

    assert other.status_code == 404
    assert bad.status_code == 400 and "whole number" in bad.content.decode()
    assert _run_count() == 0


def test_the_reports_page_does_not_offer_the_filing_package_it_is_built_from_the_submission(
    client, login, auditor
):
    login(auditor)
    page = client.get("/reports/").content.decode()
    form = page[page.index('id="kind"') :]
    asked = form[: form.index("</select>")]  # the form's list of reports, not the filter's

    assert 'value="filing_package"' not in asked
    assert 'value="audit"' in asked
