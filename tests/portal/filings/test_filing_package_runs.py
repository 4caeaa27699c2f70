"""Building the filing package: a report run of its own kind (reading:filing-package), asked
for from the submission's page or the API, built in-process here, its files kept with the
run and each build in the audit trail. Whole flows: the request commits, then the run."""

import hashlib
import io
import json
import zipfile

import pytest
from django.conf import settings

from portal.audit.models import AuditEvent
from portal.reports.models import ReportRun, RunStatus

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


def _file(run: ReportRun, fmt: str) -> bytes:
    stored = run.files.get(format=fmt)
    return (settings.JINZI_REPORTS_DIR / stored.name).read_bytes()


@pytest.mark.clause("reading:filing-package", "601a.2", kind="proves")
def test_601a2_a_manager_builds_their_holders_package_from_its_page(
    client, login, submission, manager_a
):
    login(manager_a)
    page = client.get(f"/filings/rules/{submission.pk}/")
    assert page.status_code == 200 and "Build the filing package" in page.content.decode()

    answer = client.post(f"/filings/rules/{submission.pk}/")

    run = ReportRun.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/reports/{run.pk}/"
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.holder_id == submission.holder_id
    assert set(run.files.values_list("format", flat=True)) == {"json", "pdf", "zip"}
    zip_bytes = _file(run, "zip")
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        inside = {info.filename.split("/", 1)[1]: archive.read(info) for info in archive.infolist()}
    assert inside["filing-package.pdf"] == _file(run, "pdf")
    listing = json.loads(_file(run, "json"))
    assert listing["report"] == "filing_package"
    assert {row["name"] for row in listing["sections"][0]["rows"]} == set(inside)

    built = AuditEvent.objects.get(action="filing_package.build", object_id=str(run.pk))
    assert built.after["zip_sha256"] == hashlib.sha256(zip_bytes).hexdigest()
    assert built.actor == manager_a
    assert AuditEvent.objects.filter(action="report.request", object_id=str(run.pk)).exists()

    # The run's page offers its files; the package page lists the build.
    assert "/files/zip/" in client.get(f"/reports/{run.pk}/").content.decode()
    assert f"Build {run.pk}" in client.get(f"/filings/rules/{submission.pk}/").content.decode()


@pytest.mark.parametrize("who", ["officer", "auditor"])
def test_officers_and_auditors_build_any_holders_package_through_the_api(
    request, api_as, submission, who
):
    answer = api_as(request.getfixturevalue(who)).post(
        "/api/reports/",
        {"kind": "filing_package", "parameters": {"submission": submission.pk}},
        format="json",
    )

    assert answer.status_code == 201
    run = ReportRun.objects.get(pk=answer.json()["id"])
    assert run.status == RunStatus.SUCCEEDED, run.error


def test_a_player_may_not_build_a_package(client, login, submission, player):
    login(player)

    assert client.post(f"/filings/rules/{submission.pk}/").status_code in (403, 404)
    assert not ReportRun.objects.exists()


def test_a_package_whose_letter_is_missing_fails_saying_which_and_writes_nothing(
    client, login, submission, manager_a, officer, monkeypatch
):
    from django.core.files.storage import default_storage

    from portal.filings.bundle import MissingDocument
    from portal.reports.services import runs
    from tests.portal.filings.builders import store_letter

    default_storage.delete(store_letter(officer).document.name)
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)  # the worker's part, by hand
    login(manager_a)
    client.post(f"/filings/rules/{submission.pk}/")
    run = ReportRun.objects.get()

    with pytest.raises(MissingDocument, match="approval letter of the game software"):
        runs.report_run_execute(run_id=run.pk)  # the task retries, then fails the run

    assert not run.files.exists()
    assert not AuditEvent.objects.filter(action="filing_package.build").exists()
