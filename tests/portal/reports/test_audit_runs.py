"""The audit report as a run: asked for over the API and the page, on its schedules, in
every format, and seen only by those who may (§ 811a.9)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

import pytest
from django.conf import settings

from portal.core.padates import day_starts
from portal.reports.models import ReportRun, RunStatus
from portal.reports.services import runs, schedules
from tests.portal.reports.runs import DAY, api, play_the_day, stored

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/reports/"
CONTRACT = {
    "report",
    "definition_version",
    "period",
    "totals",
    "outcome_counts",
    "chi_square",
    "chi_square_p",
    "resettlement",
    "reconciliation",
    "groups",
    "by_kind",
}


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.fixture
def played(player, live_offering):
    play_the_day(player, live_offering, keys="audit-run")
    return live_offering


def test_811a9_an_auditor_runs_the_audit_report_in_every_format(auditor, played):
    answer = api(auditor).post(
        URL, {"kind": "audit", "parameters": {"start": DAY, "end": DAY}}, format="json"
    )

    assert answer.status_code == 201, answer.content
    run = ReportRun.objects.get(pk=answer.json()["id"])
    assert run.status == RunStatus.SUCCEEDED and (run.progress_done, run.progress_total) == (4, 4)
    document = json.loads(stored(run, "json"))
    assert set(document) >= CONTRACT
    assert document["period"] == {"start": DAY, "end": DAY}
    assert document["totals"]["handle"] == 1200 and document["totals"]["bets"] == 6
    assert document["reconciliation"]["ok"] is True
    detail = document["sections"][-1]
    assert detail["key"] == "detail" and detail["rows"] == [] and detail["row_count"] == 6

    rows = list(csv.reader(io.StringIO(stored(run, "csv").decode())))
    at = rows.index(["Detail: every bet"])
    bets = rows[at + 2 : rows.index([], at)][:-1]  # then its note
    assert [(row[0], row[18]) for row in bets] == [  # the round, its bet's spot
        (str(round_id), spot)
        for round_id in sorted({int(r[0]) for r in bets})
        for spot in ("red", "straight:0")
    ]
    assert stored(run, "xlsx")[:2] == b"PK"
    pdf = stored(run, "pdf")
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Subtype /Image", pdf)) >= 3  # the three charts


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_bad_audit_parameters_are_refused_with_400_and_nothing_is_queued(
    auditor, holder_b, live_offering
):
    client = api(auditor)
    for parameters, field in [
        ({"start": "2026-11-20", "end": "2026-11-10"}, "start"),
        ({"start": "16/11/2026"}, "start"),
        ({"end": "2099-01-01"}, "end"),
        ({"start": "2024-01-01", "end": "2024-01-02"}, "end"),
        ({"win_threshold": 0}, "win_threshold"),
        ({"win_threshold": "ten"}, "win_threshold"),
        ({"as_of": "2026-11-10"}, "parameters"),
        ({"holder": holder_b.pk, "offering": live_offering.pk}, "offering"),
    ]:
        answer = client.post(URL, {"kind": "audit", "parameters": parameters}, format="json")
        assert answer.status_code == 400, (parameters, answer.content)
        assert field in json.dumps(answer.json()), (parameters, answer.json())
    assert not ReportRun.objects.exists()


def test_a_manager_sees_only_their_holders_audit_report(auditor, manager_a, holder_a, holder_b):
    own = runs.report_run_request(
        actor=auditor, kind="audit", parameters={"holder": holder_a.pk}, via="api"
    )[0]
    other = runs.report_run_request(
        actor=auditor, kind="audit", parameters={"holder": holder_b.pk}, via="api"
    )[0]
    client = api(manager_a)

    assert [row["id"] for row in client.get(URL).json()["results"]] == [own.pk]
    assert client.get(f"{URL}{other.pk}/files/json/").status_code == 404
    assert client.get(f"{URL}{own.pk}/files/json/").status_code == 200
    assert client.post(URL, {"kind": "audit"}, format="json").status_code == 403


def test_the_daily_schedule_makes_each_holders_previous_gaming_day_once(holder_a, holder_b):
    holder_b.gaming_day_start_hour = 6
    holder_b.save(update_fields=["gaming_day_start_hour"])
    # 05:30 on 17 November in Pennsylvania: holder A's 16th has ended, holder B's 16th
    # runs until 06:00, so B's last finished gaming day is the 15th.
    now = day_starts(datetime.date(2026, 11, 17), 5) + datetime.timedelta(minutes=30)

    first = schedules.audit_runs_daily(now=now)
    again = schedules.audit_runs_daily(now=now)

    periods = {run.holder_id: (run.parameters["start"], run.parameters["end"]) for run in first}
    assert periods == {holder_a.pk: (DAY, DAY), holder_b.pk: ("2026-11-15", "2026-11-15")}
    assert [run.pk for run in again] == [run.pk for run in first]
    assert {run.requested_via for run in first} == {"schedule"}
    ran = ReportRun.objects.filter(pk__in=[run.pk for run in first]).values_list(
        "status", flat=True
    )
    assert set(ran) == {RunStatus.SUCCEEDED}
    entry = settings.CELERY_BEAT_SCHEDULE["audit-report-daily"]
    assert entry["schedule"].minute == {15} and len(entry["schedule"].hour) == 24


def test_the_monthly_schedule_waits_for_each_holders_last_gaming_day(holder_a, holder_b):
    holder_b.gaming_day_start_hour = 6
    holder_b.save(update_fields=["gaming_day_start_hour"])
    december = datetime.date(2026, 12, 1)
    november = ("2026-11-01", "2026-11-30")

    def periods(runs):
        return [(run.holder_id, run.parameters["start"], run.parameters["end"]) for run in runs]

    # 01:45 on 1 December: holder A's November is over, holder B's 30th runs until 06:00.
    quarter_to = datetime.timedelta(minutes=45)
    early = schedules.audit_runs_monthly(now=day_starts(december, 1) + quarter_to)
    later = schedules.audit_runs_monthly(now=day_starts(december, 6) + quarter_to)

    assert periods(early) == [(holder_a.pk, *november)]
    assert periods(later) == [(None, *november), (holder_a.pk, *november), (holder_b.pk, *november)]
    assert later[1].pk == early[0].pk  # made once
    assert schedules.audit_runs_monthly(now=day_starts(datetime.date(2025, 6, 20), 12)) == []
    entry = settings.CELERY_BEAT_SCHEDULE["audit-report-monthly"]
    assert entry["schedule"].minute == {45} and len(entry["schedule"].hour) == 24


def test_the_reports_page_asks_for_an_audit_report(client, auditor, played):
    client.force_login(auditor)

    asked = client.post(
        "/reports/", {"kind": "audit", "start": DAY, "end": DAY, "as_of": "", "holder": ""}
    )
    bad = client.post("/reports/", {"kind": "audit", "start": DAY, "end": "2026-11-01"})

    run = ReportRun.objects.get()
    assert asked.status_code == 302 and run.parameters["start"] == DAY
    page = client.get(f"/reports/{run.pk}/").content.decode()
    assert "Succeeded" in page and f"/reports/{run.pk}/charts/outcomes.svg" in page
    assert bad.status_code == 400
    assert "The first gaming day must not be after the last" in bad.content.decode()


def test_no_run_outlives_the_brokers_visibility_timeout():
    from portal.reports.definitions import DEFINITIONS

    longest = max(report.time_limits[1] for report in DEFINITIONS.values())
    assert longest < settings.JINZI_BROKER_VISIBILITY_DEFAULT


def test_811a9_the_reports_form_says_every_error_at_once_above_the_form(client, auditor):
    client.force_login(auditor)

    refused = client.post(
        "/reports/",
        {"kind": "audit", "start": "2026-13-01", "end": "soon", "win_threshold": "ten"},
    )

    page = refused.content.decode()
    assert refused.status_code == 400
    assert "There is a problem" in page
    summary = page[
        page.index("error-summary-list") : page.index("</ul>", page.index("error-summary-list"))
    ]
    assert 'href="#start"' in summary and 'href="#end"' in summary
    assert 'href="#win_threshold"' in summary
    assert not ReportRun.objects.exists()
