"""Reports from a real streaming replica (DATABASE_REPLICA_URL: .ci/run starts one beside
the throwaway primary). Transactional: rows a test rolls back never reach a replica, so
these commit theirs. A report made on the replica equals the one made on the primary; a
replica behind or down makes the run read the primary and say so."""

import json

import pytest
from django.conf import settings
from django.db import connections
from django.utils import timezone

from portal.core.replica import BEHIND, DOWN, PRIMARY, REPLICA, read_source, reading_from
from portal.reports import definitions
from portal.reports.audit_report.scope import last_round_before
from portal.reports.document import without_streams
from portal.reports.models import ReportRun, RunStatus
from tests.portal.reports.runs import DAY, api, play_the_day, stored

pytestmark = [
    pytest.mark.django_db(transaction=True, databases=["default", "replica"]),
    pytest.mark.skipif(
        "replica" not in settings.DATABASES,
        reason="needs a streaming replica (DATABASE_REPLICA_URL); .ci/run starts one",
    ),
]


@pytest.fixture(autouse=True)
def reads_the_replica(settings, tmp_path):
    settings.JINZI_READ_REPLICA = True
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"


def _audit(auditor) -> ReportRun:
    answer = api(auditor).post(
        "/api/reports/",
        {"kind": "audit", "parameters": {"start": DAY, "end": DAY}},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    return ReportRun.objects.get(pk=answer.json()["id"])


def _document(alias: str, cutoff) -> dict:
    """The audit report of the day as of ``cutoff``, its records read from ``alias``."""
    parameters = definitions.definition("audit").read(
        definitions.clean("audit", {"start": DAY, "end": DAY})
    )
    with reading_from(alias):
        document = definitions.definition("audit").build(
            parameters, lambda done, total: None, cutoff, last_round_before(cutoff)
        )
    document = json.loads(json.dumps(without_streams(document), default=str))
    document.pop("timings")  # how long each part took: the one thing that may differ
    return document


def test_a_report_from_the_replica_equals_the_same_report_from_the_primary(
    auditor, player, live_offering
):
    play_the_day(player, live_offering, keys="replica")

    run = _audit(auditor)
    assert run.status == RunStatus.SUCCEEDED
    assert (run.read_from, run.read_note) == (REPLICA, "")
    assert run.wal_position  # the primary's position it waited for
    totals = json.loads(stored(run, "json"))["totals"]
    assert totals["handle"] == 1_200, totals  # every round read

    cutoff = timezone.now()
    assert read_source().alias == REPLICA  # caught up with everything before the cutoff
    on_replica, on_primary = _document(REPLICA, cutoff), _document(PRIMARY, cutoff)

    assert on_replica == on_primary
    assert on_replica["totals"]["rounds"] == 3


def test_a_replica_behind_makes_the_run_read_the_primary_and_say_so(
    auditor, client, login, settings
):
    settings.JINZI_REPLICA_WAIT = 1
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT pg_wal_replay_pause()")
    try:
        run = api(auditor).post(  # its request is a write the paused replica has not replayed
            "/api/reports/", {"kind": "expiry", "parameters": {}}, format="json"
        )
    finally:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute("SELECT pg_wal_replay_resume()")
    run = ReportRun.objects.get(pk=run.json()["id"])

    assert run.status == RunStatus.SUCCEEDED
    assert (run.read_from, run.read_note) == (PRIMARY, BEHIND.format(seconds="1"))
    page = login(auditor).get(f"/reports/{run.pk}/").content.decode()
    assert "the primary database. The replica had not caught up" in " ".join(page.split())


def test_a_replica_that_cannot_be_reached_makes_the_run_read_the_primary(auditor):
    replica = connections[REPLICA]
    port = replica.settings_dict["PORT"]
    replica.close()
    replica.settings_dict["PORT"] = "1"  # nothing listens there
    try:
        source = read_source(wait=1)
    finally:
        replica.close()
        replica.settings_dict["PORT"] = port

    assert (source.alias, source.note) == (PRIMARY, DOWN)
