"""The audit report's pass split by gaming day and joined again (§ 811a.9, § 811a.7): the
joined parts are the single pass, figure for figure, with faults planted where the parts
meet; and an audit run split over workers (a chord, run in-process here) makes the report
made in one piece.

Six gaming days (10 to 15 November 2026), three players, two rounds each a day. The faults,
each where some split's parts meet:
- the last round of 11 November: a bet's payout changed (the end of a part of 2 or 3 days);
- the second player's last round of 13 November deleted (their last round in a part that
  ends there): their next round links to a round that is gone;
- the third player's first round of 12 November and the first player's of 13 November:
  their ``prev_hash`` forged (the first round of a part).
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from celery.exceptions import (
    ChordError,
    SoftTimeLimitExceeded,
    TimeLimitExceeded,
    WorkerLostError,
)
from django.db import OperationalError

from portal.access.roles import Role
from portal.core.padates import day_starts
from portal.game.models import Bet, LedgerEntry, Round
from portal.game.play.services import round_play
from portal.notifications.sources.runs import run_finished
from portal.reports import tasks
from portal.reports.audit_report import audit_report
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.finishing import joined
from portal.reports.audit_report.resettlement.resettle import resettle
from portal.reports.audit_report.scope import scope_of
from portal.reports.models import ReportRun, RunStatus
from portal.reports.services import runs, split
from tests.portal.factories import in_session, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits
from tests.portal.reports.runs import stored
from tests.portal.reports.test_audit_report import _tamper

START = datetime.date(2026, 11, 10)
DAYS = 6
END = START + datetime.timedelta(days=DAYS - 1)
CUTOFF = day_starts(END + datetime.timedelta(days=2))
WAGERS = [
    [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [0], "stake": 200}],
    [{"kind": "black", "stake": 300}, {"kind": "split", "numbers": [0, 1], "stake": 100}],
    [{"kind": "straight", "numbers": [7], "stake": 500}, {"kind": "big", "stake": 200}],
]


def _day(n: int) -> datetime.date:
    return START + datetime.timedelta(days=n)


def _rounds_on(player, day: datetime.date):
    start = day_starts(day)
    return Round.objects.filter(
        player=player, started_at__gte=start, started_at__lt=day_starts(day + datetime.timedelta(1))
    ).order_by("sequence")


def play_history(players, offering) -> None:
    """Two rounds a day for each player, at noon and 1 p.m. in Pennsylvania."""
    with time_machine.travel(day_starts(START) + datetime.timedelta(hours=9)):
        for player in players:
            wallet_top_up(player=player, amount=100_000)
    number = 0
    for n in range(DAYS):
        for hour in (12, 13):
            for index, player in enumerate(players):
                at = day_starts(_day(n)) + datetime.timedelta(hours=hour, minutes=index)
                with time_machine.travel(at):
                    round_play(
                        player=player,
                        session=in_session(player),
                        offering_id=offering.pk,
                        wagers=WAGERS[(number + index) % len(WAGERS)],
                        idempotency_key=f"split-{number}-{index}",
                        rng=FixedBits(number % 13),
                    )
            number += 1


def plant_faults(players) -> dict:
    first, second, third = players
    changed = Round.objects.filter(
        started_at__lt=day_starts(_day(2)), started_at__gte=day_starts(_day(1))
    ).latest("pk")
    deleted = _rounds_on(second, _day(3)).last()
    forged = [_rounds_on(third, _day(2)).first(), _rounds_on(first, _day(3)).first()]
    bet = Bet.objects.filter(round=changed).order_by("position").first()
    stranger = Round.objects.order_by("pk").first()  # the previous round of neither

    def change():
        Bet.objects.filter(pk=bet.pk).update(returned=bet.returned + 100)
        LedgerEntry.objects.filter(round=deleted).delete()
        Bet.objects.filter(round=deleted).delete()
        Round.objects.filter(pk=deleted.pk).delete()
        for one in forged:
            Round.objects.filter(pk=one.pk).update(prev_hash=stranger.hash)

    _tamper(change)
    after = _rounds_on(second, _day(4)).first()
    return {"changed": changed.pk, "after_deleted": after.pk, "forged": [r.pk for r in forged]}


@pytest.fixture
def history(player, live_offering):
    players = [player, make_user("player2", Role.PLAYER), make_user("player3", Role.PLAYER)]
    play_history(players, live_offering)
    return plant_faults(players)


def figures(found: Pass) -> dict:
    """Every figure of a pass."""

    def sums(items):
        return {
            key: (acc.rounds, acc.handle, acc.returned, acc.mean_x13, acc.variance_x169)
            for key, acc in items.items()
        }

    return {
        "bets": found.bets_checked,
        "rounds": found.rounds_checked,
        "discrepancies": (found.discrepancy_count, found.discrepancies),
        "chain_problems": (found.chain_problem_count, found.chain_problems),
        "groups": sums(found.groups),
        "days": sums(found.days),
        "spots": found.spots,
        "odds": found.odds,
        "heads": found.heads,
        "spot_rows": list(found.spot_rows()),
        "left": (found.first_links, found.ends, found.part),
    }


def joined_by_parts(scope, splits: int) -> Pass:
    """The parts' passes sent through JSON, as a worker sends them back, then joined."""
    parts = []
    for first, last in split.split_days(scope.start, scope.end, splits):
        part = resettle(scope.part(first, last), part=True)
        parts.append(Pass.from_json(json.loads(json.dumps(part.to_json()))))
    return joined(parts)


@pytest.mark.django_db
@pytest.mark.clause("811a.7", kind="related")
def test_811a9_parts_joined_are_the_single_pass_with_faults_at_the_parts_edges(history):
    scope = scope_of(start=START, end=END, holder_id=None, offering_id=None, cutoff=CUTOFF)
    single = resettle(scope)

    # The faults are found (each of them), so the comparisons below compare something.
    assert single.rounds_checked == 3 * 2 * DAYS - 1
    assert len(single.days) == DAYS
    assert {d["round"] for d in single.discrepancies} == {history["changed"]}
    problem_rounds = {p["round"] for p in single.chain_problems}
    assert {history["changed"], history["after_deleted"], *history["forged"]} <= problem_rounds
    expected = figures(single)
    for splits in (1, 2, 3, 4, 6):
        assert figures(joined_by_parts(scope, splits)) == expected, splits


def test_811a9_a_period_is_split_into_consecutive_days_each_once():
    assert split.split_days(START, END, 4) == [
        (_day(0), _day(1)),
        (_day(2), _day(3)),
        (_day(4), _day(4)),
        (_day(5), _day(5)),
    ]
    assert split.split_days(START, END, 10) == [(_day(n), _day(n)) for n in range(DAYS)]
    assert split.split_days(START, START, 4) == [(START, START)]
    assert split.split_days(START, END, 1) == [(START, END)]


def _request(auditor) -> ReportRun:
    run, created = runs.report_run_request(
        actor=auditor,
        kind="audit",
        parameters={"start": START.isoformat(), "end": END.isoformat()},
        via="api",
    )
    assert created
    run.refresh_from_db()
    return run


def _same_report(document: dict, cutoff: datetime.datetime) -> None:
    """``document`` (a run's JSON file) against the report made in this process, in one
    piece, as of ``cutoff``."""
    here = audit_report(start=START, end=END, now=cutoff)
    assert here["resettlement"]["discrepancy_count"] == 2  # the bet, and its round's totals
    assert here["reconciliation"]["round_chains"]["ok"] is False
    assert document["cutoff"]["utc"] == cutoff.isoformat()
    for key in ("totals", "resettlement", "groups", "outcome_counts", "by_kind"):
        assert document[key] == json.loads(json.dumps(here[key])), key
    round_chains = json.loads(json.dumps(here["reconciliation"]["round_chains"]))
    assert document["reconciliation"]["round_chains"] == round_chains


@pytest.fixture
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.mark.django_db(transaction=True)
def test_811a9_with_a_result_backend_an_audit_run_is_split_and_makes_the_same_report(
    auditor, history, settings, reports_folder
):
    # Tasks run in-process here: the chord's parts, then its join, as workers would.
    settings.CELERY_RESULT_BACKEND = "redis://127.0.0.1:1/0"
    settings.JINZI_AUDIT_SPLITS = 3

    run = _request(auditor)

    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.cutoff is not None  # fixed when the parts were sent
    assert (run.progress_done, run.progress_total) == (4, 4)  # three parts and the join
    assert {f.format for f in run.files.all()} >= {"json", "csv", "xlsx", "pdf"}
    _same_report(json.loads(stored(run, "json")), run.cutoff)


@pytest.mark.django_db(transaction=True)
def test_811a9_without_a_result_backend_an_audit_run_is_made_in_one_piece(
    auditor, history, settings, reports_folder
):
    settings.CELERY_RESULT_BACKEND = ""
    settings.JINZI_AUDIT_SPLITS = 3

    run = _request(auditor)

    assert run.status == RunStatus.SUCCEEDED, run.error
    # Made in one piece, it still keeps the instant it read the records as of.
    document = json.loads(stored(run, "json"))
    assert document["cutoff"]["utc"] == run.cutoff.isoformat()
    assert document["cutoff"]["last_round"] == run.last_round
    assert (run.progress_done, run.progress_total) == (4, 4)  # the report's own four steps
    assert split.split_plan(run) is None
    settings.CELERY_RESULT_BACKEND = "redis://127.0.0.1:1/0"
    assert len(split.split_plan(run)) == 3
    settings.JINZI_AUDIT_SPLITS = 1
    assert split.split_plan(run) is None


def _waiting(auditor) -> ReportRun:
    """A split run waiting for its chord (claimed, its cutoff fixed)."""
    run, _ = runs.report_run_request(
        actor=auditor,
        kind="audit",
        parameters={"start": START.isoformat(), "end": END.isoformat()},
        via="api",
    )
    ReportRun.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING, cutoff=CUTOFF)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_811a9_a_failed_part_or_join_fails_the_run_through_the_error_callback(auditor):
    run = _waiting(auditor)

    # An error callback of an older attempt's chord (another cutoff) leaves the run alone.
    older = (CUTOFF - datetime.timedelta(hours=1)).isoformat()
    tasks.audit_failed(None, ValueError("stale"), None, run_id=run.pk, cutoff=older)
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING

    # Celery calls it with the failed task's request, the error and its traceback.
    tasks.audit_failed(
        None, ValueError("a part failed"), None, run_id=run.pk, cutoff=CUTOFF.isoformat()
    )

    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error == runs.UNEXPECTED.format(detail="a part failed")
    assert run.finished_at is not None
    # The failed run is told of as any failed run is, from its status.
    [notice] = run_finished(run)
    assert notice.subject.endswith("failed") and auditor.pk in notice.recipients


@pytest.mark.parametrize(
    "error",
    [
        # The join's own process died: Celery fails the join with the worker's loss.
        WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL) Job: 0."),
        # A part's process died: the chord's error names the part's.
        ChordError(
            "Dependency 5f0c raised WorkerLostError('Worker exited prematurely: signal 9 "
            "(SIGKILL) Job: 1.')"
        ),
    ],
    ids=["join", "part"],
)
@pytest.mark.django_db
def test_811a9_a_worker_lost_under_a_part_or_the_join_fails_the_run_in_plain_words(auditor, error):
    run = _waiting(auditor)

    tasks.audit_failed(None, error, None, run_id=run.pk, cutoff=CUTOFF.isoformat())

    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error == runs.WORKER_LOST and "Error" not in run.error


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (SoftTimeLimitExceeded(), runs.TOO_LONG),
        (TimeLimitExceeded(960), runs.TOO_LONG),
        (ChordError("Dependency 5f0c raised SoftTimeLimitExceeded()"), runs.TOO_LONG),
        (OperationalError("connection refused"), runs.DATABASE_LOST),
        (ChordError("Dependency 5f0c raised InterfaceError('closed')"), runs.DATABASE_LOST),
        (KeyError("holder"), runs.UNEXPECTED.format(detail="'holder'")),
        (ValueError(""), runs.UNEXPECTED.format(detail="no message")),
        # A message that only looks like Celery's wrapping is taken as it is.
        (
            RuntimeError("it raised WorkerLostError(x)"),
            runs.UNEXPECTED.format(detail="it raised WorkerLostError(x)"),
        ),
    ],
)
def test_a_failed_run_says_why_in_plain_words_never_an_errors_type(error, said):
    assert runs.failure_said(error) == said


@pytest.mark.django_db
def test_811a9_an_older_attempts_parts_and_join_leave_the_run_alone(auditor, reports_folder):
    run = _waiting(auditor)
    older = (CUTOFF - datetime.timedelta(hours=1)).isoformat()

    part = tasks.audit_part(run.pk, older, START.isoformat(), END.isoformat())
    tasks.audit_join([part], run.pk, older)

    run.refresh_from_db()
    assert part is None
    assert run.status == RunStatus.RUNNING and run.progress_done == 0
    assert not run.files.exists()


ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("", "16"),
        ("1", "1"),
        ("0", "JINZI_AUDIT_SPLITS must be at least 1; got 0"),
        ("three", "JINZI_AUDIT_SPLITS must be a whole number; got 'three'"),
    ],
)
def test_the_number_of_parts_is_read_at_start_up_and_a_bad_one_stops_it(value, said):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JINZI_")}
    env.update(DJANGO_DEBUG="1", JINZI_VAR_DIR="/tmp/chord-settings", JINZI_AUDIT_SPLITS=value)
    shown = subprocess.run(
        [sys.executable, "-c", "import portal.settings as s; print(s.JINZI_AUDIT_SPLITS)"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert said in (shown.stdout if shown.returncode == 0 else shown.stderr)
    assert (shown.returncode == 0) == said.isdigit()
