"""Report runs (§ 811a.9): asked for once, run by a Celery task (in-process here), each file
written whole and recorded with its size and SHA-256, downloaded only through a view that
checks the role, and every request and download in the audit trail."""

import dataclasses
import hashlib
import json

import pytest
from celery.exceptions import Retry
from django.conf import settings
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient

from portal.audit.models import AuditEvent
from portal.reports import definitions, tasks
from portal.reports.models import ReportFile, ReportRun, RunStatus
from portal.reports.services import files, runs

# Whole flows: a request commits, then its on_commit queues the run (in-process here).
pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/reports/"
EXPIRY = {"kind": "expiry", "parameters": {"as_of": "2026-11-30"}}


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_811a9_an_auditor_runs_the_expiry_report_in_every_format(auditor, live_offering):
    answer = api(auditor).post(URL, EXPIRY, format="json")

    assert answer.status_code == 201
    run = ReportRun.objects.get(pk=answer.json()["id"])
    assert run.status == RunStatus.SUCCEEDED
    assert (run.progress_done, run.progress_total) == (8, 8)  # the expiry report's sections
    files = {f.format: f for f in run.files.all()}
    assert set(files) == {"json", "csv", "xlsx", "pdf"}
    for report_file in files.values():
        content = (settings.JINZI_REPORTS_DIR / report_file.name).read_bytes()
        assert len(content) == report_file.size
        assert hashlib.sha256(content).hexdigest() == report_file.sha256
    document = json.loads((settings.JINZI_REPORTS_DIR / files["json"].name).read_text())
    assert document["title"] == "Expiry report" and document["period"] == {"as_of": "2026-11-30"}
    assert not list(settings.JINZI_REPORTS_DIR.glob("*.part"))  # no half files left
    assert AuditEvent.objects.filter(action="report.request", object_id=str(run.pk)).exists()


def test_811a9_the_same_report_asked_twice_while_queued_is_one_run(auditor, officer, monkeypatch):
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)  # the queue holds it

    first = api(auditor).post(URL, EXPIRY, format="json")
    second = api(officer).post(URL, EXPIRY, format="json")

    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["id"] == second.json()["id"]
    assert ReportRun.objects.count() == 1


@pytest.mark.parametrize(
    ("parameters", "field", "text"),
    [
        ({"as_of": "2025-06-13"}, "as_of", "§ 617b.8"),
        ({"as_of": "30/11/2026"}, "as_of", "YYYY-MM-DD"),
        ({"holder": 999_999}, "holder", "no certificate holder"),
        ({"offering": "abc"}, "offering", "whole number"),
        ({"colour": "red"}, "parameters", "unknown parameter"),
    ],
)
def test_bad_parameters_are_refused_with_400_and_nothing_is_queued(
    auditor, parameters, field, text
):
    answer = api(auditor).post(URL, {"kind": "expiry", "parameters": parameters}, format="json")

    assert answer.status_code == 400
    assert text in " ".join(answer.json()["errors"][field])
    assert not ReportRun.objects.exists()


def test_an_unknown_report_is_refused(auditor):
    answer = api(auditor).post(URL, {"kind": "weather"}, format="json")

    assert answer.status_code == 400 and not ReportRun.objects.exists()


@pytest.mark.parametrize("who", ["player", "manager_a"])
def test_players_and_managers_are_refused_a_report_about_every_holder(request, who):
    # Compliance and auditors ask about any holder; a manager about their own only
    # (tests/portal/reports/test_run_page_and_files.py), a player never.
    answer = api(request.getfixturevalue(who)).post(URL, EXPIRY, format="json")

    assert answer.status_code == 403 and not ReportRun.objects.exists()


def test_a_manager_sees_only_the_runs_about_their_holder(auditor, manager_a, holder_a, holder_b):
    own = runs.report_run_request(
        actor=auditor, kind="expiry", parameters={"holder": holder_a.pk}, via="api"
    )[0]
    other = runs.report_run_request(
        actor=auditor, kind="expiry", parameters={"holder": holder_b.pk}, via="api"
    )[0]
    every = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    client = api(manager_a)

    listed = [row["id"] for row in client.get(URL).json()["results"]]

    assert listed == [own.pk]
    assert client.get(f"{URL}{other.pk}/").status_code == 404
    assert client.get(f"{URL}{every.pk}/files/pdf/").status_code == 404
    assert client.get(f"{URL}{own.pk}/files/pdf/").status_code == 200


def test_811a9_a_download_is_audited_and_served_only_through_the_view(auditor, player):
    run = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    report_file = run.files.get(format="csv")

    answer = api(auditor).get(f"{URL}{run.pk}/files/csv/")
    body = b"".join(answer.streaming_content)

    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    assert hashlib.sha256(body).hexdigest() == report_file.sha256
    event = AuditEvent.objects.filter(action="report.download").get()
    assert event.after["format"] == "csv" and event.after["sha256"] == report_file.sha256
    assert api(player).get(f"{URL}{run.pk}/files/csv/").status_code == 403
    assert api(auditor).get(f"{URL}{run.pk}/files/docx/").status_code == 404


def test_a_failing_run_is_retried_with_back_off_then_says_why_and_can_be_retried(
    auditor, monkeypatch
):
    def broken(parameters, progress, *fixed):
        raise RuntimeError("the database went away")

    real = definitions.definition
    monkeypatch.setattr(
        definitions, "definition", lambda kind: dataclasses.replace(real(kind), build=broken)
    )
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)  # the worker is driven below
    run = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]

    # An attempt with retries left asks for another, with back-off (in-process, Celery
    # runs it at once); the last attempt records the failure instead of retrying.
    with pytest.raises(Retry, match="Retry in 10s"):
        tasks.run_report.apply(args=[run.pk], retries=0)
    assert tasks.run_report.apply(args=[run.pk], retries=tasks.MAX_RETRIES).state == "SUCCESS"

    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error == runs.UNEXPECTED.format(detail="the database went away")
    monkeypatch.undo()
    answer = api(auditor).post(f"{URL}{run.pk}/retry/")
    assert answer.status_code == 200
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED and not run.error
    assert api(auditor).post(f"{URL}{run.pk}/retry/").status_code == 409  # not failed now


def test_a_run_interrupted_mid_way_is_claimed_again_and_leaves_one_set_of_files(
    auditor, monkeypatch
):
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)
    run = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    written = files.write_file

    def crash_after_two(run, document, fmt, **kwargs):
        if fmt == "xlsx":
            raise SystemExit("worker killed")  # the worker dies between two files
        return written(run, document, fmt, **kwargs)

    monkeypatch.setattr(files, "write_file", crash_after_two)
    with pytest.raises(SystemExit):
        runs.report_run_execute(run_id=run.pk)
    assert ReportRun.objects.get(pk=run.pk).status == RunStatus.RUNNING
    # A hard kill mid-write leaves the temporary file behind (no ``finally`` runs).
    half = settings.JINZI_REPORTS_DIR / f".expiry-{run.pk}.xlsx.0123abcd.part"
    half.write_bytes(b"PK\x03\x04 half a workbook")
    monkeypatch.setattr(files, "write_file", written)

    runs.report_run_execute(run_id=run.pk)  # the message comes back (acks_late)

    run.refresh_from_db()
    assert (run.status, run.attempts) == (RunStatus.SUCCEEDED, 2)
    assert ReportFile.objects.filter(run=run).count() == 4
    assert len(list(settings.JINZI_REPORTS_DIR.iterdir())) == 4
    runs.report_run_execute(run_id=run.pk)  # a duplicate message does nothing
    assert ReportRun.objects.get(pk=run.pk).attempts == 2


def test_when_the_queue_is_down_the_run_waits_queued_and_the_sweep_sends_it(auditor, monkeypatch):
    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker")

    monkeypatch.setattr(tasks.run_report, "apply_async", unreachable)
    answer = api(auditor).post(URL, EXPIRY, format="json")

    assert answer.status_code == 201
    assert "will start when the queue is back" in answer.json()["notice"]
    assert ReportRun.objects.get().status == RunStatus.QUEUED
    monkeypatch.undo()

    assert runs.report_runs_resend_stuck(older_than=0) == 1
    assert ReportRun.objects.get().status == RunStatus.SUCCEEDED


def test_the_schedule_runs_the_expiry_report_daily_at_0005_pennsylvania_time():
    entry = settings.CELERY_BEAT_SCHEDULE["expiry-report-daily"]

    run_id = tasks.expiry_report_daily.delay().get()

    assert (entry["schedule"].hour, entry["schedule"].minute) == ({0}, {5})
    assert settings.CELERY_TIMEZONE == "America/New_York"
    run = ReportRun.objects.get(pk=run_id)
    assert (run.requested_by, run.requested_via, run.status) == (None, "schedule", "succeeded")


def test_the_reports_page_asks_for_a_run_and_follows_it(client, auditor, officer):
    client.force_login(auditor)

    asked = client.post("/reports/", {"kind": "expiry", "as_of": "2026-11-30", "holder": ""})
    run = ReportRun.objects.get()
    page = client.get(f"/reports/{run.pk}/").content.decode()
    polled = client.get(f"/reports/{run.pk}/", headers={"HX-Request": "true"}).content.decode()
    download = client.get(f"/reports/{run.pk}/files/pdf/")

    assert asked.status_code == 302 and asked["Location"] == f"/reports/{run.pk}/"
    assert "Succeeded" in page and f"/reports/{run.pk}/files/xlsx/" in page
    assert "hx-trigger" not in polled  # done: the page stops asking
    finished = client.get(f"/reports/{run.pk}/", headers={"HX-Request": "true"})
    assert finished["HX-Refresh"] == "true"  # and loads once whole, with its charts
    assert download.status_code == 200
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    bad = client.post("/reports/", {"kind": "expiry", "as_of": "2024-01-01"})
    assert bad.status_code == 400 and "§ 617b.8" in bad.content.decode()


def test_a_run_in_progress_is_polled_by_htmx(client, auditor, monkeypatch):
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)
    run = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    client.force_login(auditor)

    polled = client.get(f"/reports/{run.pk}/", headers={"HX-Request": "true"}).content.decode()

    assert 'hx-trigger="every 2s"' in polled and "Queued" in polled


def test_811a9_the_json_file_is_the_document_the_openapi_schema_describes(auditor, tmp_path):
    from django.core.management import call_command

    from portal.reports.api.serializers import ReportDocumentSerializer

    run = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    document = json.loads((settings.JINZI_REPORTS_DIR / f"expiry-{run.pk}.json").read_text())
    call_command("spectacular", "--file", str(tmp_path / "schema.json"), "--format", "openapi-json")
    schema = json.loads((tmp_path / "schema.json").read_text())

    described = schema["components"]["schemas"]["ReportDocument"]["properties"]
    answer = schema["paths"]["/api/reports/{id}/files/{fmt}/"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/ReportDocument")
    required = set(schema["components"]["schemas"]["ReportDocument"]["required"])
    assert set(described) == set(ReportDocumentSerializer().fields)
    assert required <= set(document) <= set(described)
    section = schema["components"]["schemas"]["ReportSection"]
    assert all(
        set(section["required"]) <= set(s) <= set(section["properties"])
        for s in document["sections"]
    )
