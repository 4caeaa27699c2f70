"""An audit run that a later correction changed says so (reading:late-corrections): on its
page, in its JSON and in the list of runs, naming the correction and the run that reports
it; the run itself is not rewritten.

Holder A, noon in Pennsylvania: on 16 November round A (straight 7 1,000, outcome 7) and
round B (red 200, outcome 5) are played, and the day's audit report runs that evening. On
the 17th round A is voided and, later that day, round B adjusted; the 17th's audit report
runs on the 18th and lists both as corrections to an earlier gaming day.
"""

from __future__ import annotations

import datetime
import json
import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.core.padates import UTC, pa_date
from portal.game.corrections.services import correction_approve, correction_propose
from portal.reports.models import ReportRun, RunStatus
from portal.reports.selectors import corrected_since
from portal.reports.services import runs
from tests.portal.factories import finding_on
from tests.portal.reports.runs import api, stored
from tests.portal.reports.test_late_corrections import RED, STRAIGHT_7, _play

pytestmark = pytest.mark.django_db

FIRST = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=UTC)  # noon in Pennsylvania
EVENING = FIRST + datetime.timedelta(hours=8)  # 20:00 in Pennsylvania, the same day
SECOND = FIRST + datetime.timedelta(days=1)
THIRD = SECOND + datetime.timedelta(days=1)
DAY_ONE, DAY_TWO = pa_date(FIRST), pa_date(SECOND)


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


def _run(auditor, day, *, at, holder=None) -> ReportRun:
    """The audit report of ``day`` asked for and made at ``at``, by the run services."""
    with time_machine.travel(at):
        run, _ = runs.report_run_request(
            actor=auditor,
            kind="audit",
            parameters={"start": day.isoformat(), "end": day.isoformat(), "holder": holder},
            via="page",
        )
        runs.report_run_execute(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    return run


@pytest.fixture
def story(player, live_offering, supervisor_a, officer, auditor):
    with time_machine.travel(FIRST):
        from tests.portal.funding import wallet_top_up

        wallet_top_up(player=player, amount=10_000)
        a = _play(player, live_offering, STRAIGHT_7, 7, "since-round-a")
        b = _play(player, live_offering, RED, 5, "since-round-b")
    earlier = _run(auditor, DAY_ONE, at=EVENING)
    with time_machine.travel(SECOND):
        proposal = correction_propose(actor=supervisor_a, round_id=a.pk, kind="void", reason="x")
        void = correction_approve(actor=officer, correction_id=proposal.pk)
    with time_machine.travel(SECOND + datetime.timedelta(hours=2)):
        proposal = correction_propose(
            actor=supervisor_a,
            round_id=b.pk,
            kind="adjustment",
            finding_id=finding_on(b.pk),
            amount=150,
            reason="Payout error",
            notice="We credited $1.50.",
        )
        adjustment = correction_approve(actor=officer, correction_id=proposal.pk)
    return {"a": a, "b": b, "earlier": earlier, "void": void, "adjustment": adjustment}


def shown(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.clause("reading:late-corrections", kind="proves")
def test_811a9_an_earlier_run_is_marked_corrected_since_and_not_rewritten(story, auditor):
    earlier, void, adjustment = story["earlier"], story["void"], story["adjustment"]
    before = stored(earlier, "json")

    # Before the 17th's report has run, the day it will be reported in is named.
    [[first, second]] = corrected_since([earlier]).values()
    assert (first.correction, first.kind, first.round) == (void.pk, "void", story["a"].pk)
    assert (second.correction, second.kind) == (adjustment.pk, "adjustment")
    assert first.applied_day == second.applied_day == DAY_TWO
    assert first.reported_in is None

    later = _run(auditor, DAY_TWO, at=THIRD)

    found = corrected_since([earlier, later])
    assert [c.reported_in for c in found[earlier.pk]] == [later.pk, later.pk]
    assert later.pk not in found  # nothing decided after the 17th's report
    assert stored(earlier, "json") == before  # the earlier run's files are as they were
    document = json.loads(before)
    assert (document["totals"]["rounds"], document["totals"]["handle"]) == (2, 1_200)


def test_811a9_a_run_made_after_the_corrections_is_not_corrected_since(story, auditor):
    again = _run(auditor, DAY_ONE, at=THIRD)

    assert corrected_since([again]) == {}
    document = json.loads(stored(again, "json"))
    assert (document["totals"]["rounds"], document["totals"]["handle"]) == (1, 200)


def test_811a9_a_run_of_another_holder_is_not_corrected_by_these(story, auditor, holder_b):
    other = _run(auditor, DAY_ONE, at=EVENING, holder=holder_b.pk)

    assert corrected_since([other]) == {}


def test_811a9_the_run_page_links_the_correction_and_the_run_reporting_it(story, auditor, client):
    later = _run(auditor, DAY_TWO, at=THIRD)
    client.force_login(auditor)

    text = shown(client.get(f"/reports/{story['earlier'].pk}/").content.decode())
    html = client.get(f"/reports/{story['earlier'].pk}/").content.decode()

    assert "Corrected since" in text
    assert f"Void of round {story['a'].pk}" in text
    assert f"Adjustment of round {story['b'].pk}" in text
    assert f"reported in run #{later.pk}" in text
    assert f'href="/play/corrections/{story["void"].pk}/"' in html
    assert f'href="/reports/{later.pk}/"' in html
    assert "Corrected since" not in shown(client.get(f"/reports/{later.pk}/").content.decode())


def test_811a9_before_the_days_report_the_page_names_the_day_it_will_be_reported_in(
    story, auditor, client
):
    client.force_login(auditor)

    text = shown(client.get(f"/reports/{story['earlier'].pk}/").content.decode())

    assert "to be reported in the audit report of gaming day 17 November 2026" in text


def test_811a9_the_runs_json_says_corrected_since(story, auditor):
    later = _run(auditor, DAY_TWO, at=THIRD)

    answer = api(auditor).get(f"/api/reports/{story['earlier'].pk}/").json()

    assert [(c["kind"], c["round"], c["reported_in"]) for c in answer["corrected_since"]] == [
        ("void", story["a"].pk, later.pk),
        ("adjustment", story["b"].pk, later.pk),
    ]
    assert answer["corrected_since"][0]["applied_day"] == DAY_TWO.isoformat()
    listed = api(auditor).get("/api/reports/").json()["results"]
    assert {run["id"]: len(run["corrected_since"]) for run in listed} == {
        story["earlier"].pk: 2,
        later.pk: 0,
    }


def _list_queries(client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/reports/")
    assert page.status_code == 200
    return len(queries), shown(page.content.decode())


def test_811a9_the_list_of_runs_marks_corrected_runs_in_a_fixed_number_of_queries(
    story, auditor, client, holder_b
):
    later = _run(auditor, DAY_TWO, at=THIRD)
    client.force_login(auditor)
    few, text = _list_queries(client)
    assert "corrected since (2)" in text

    for holder in (holder_b.pk, None):  # more runs, corrected and not
        _run(auditor, DAY_ONE, at=EVENING + datetime.timedelta(minutes=1), holder=holder)
    _run(auditor, DAY_TWO, at=THIRD, holder=holder_b.pk)
    many, text = _list_queries(client)

    assert text.count("corrected since (2)") == 2
    assert many == few == LIST_QUERIES, later.pk


# The session, its user and their roles 3; the runs' count and page 2, their files 1,
# offering names 0 (no run is narrowed to one); the corrections after the earliest run 1
# and the runs that report them 1; the unread count 1; the holders for the form's choice
# and the filter's 3.
LIST_QUERIES = 12
