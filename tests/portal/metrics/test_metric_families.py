"""Each family /metrics shows moves when the thing it counts happens: requests by route,
rounds settled (by holder, once committed), report runs by kind, status and duration."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from portal.core.errors import ValidationFailed
from portal.game.play.services import round_play
from portal.reports.models import ReportRun, RunStatus
from portal.reports.services.runs import report_run_request
from tests.portal.factories import in_session
from tests.portal.game.conftest import FixedBits
from tests.portal.metrics.scrape import scrape, value

pytestmark = pytest.mark.django_db

REQUESTS = "django_http_requests_total_by_view_transport_method_total"
LATENCY = "django_http_requests_latency_seconds_by_view_method_count"
ROUNDS = "jinzi_rounds_settled_total"
RUNS = "jinzi_report_runs"
DURATION = "jinzi_report_run_duration_seconds"


def test_requests_are_counted_and_timed_by_the_name_of_their_route(client):
    before = scrape(client)
    labels = {"view": "healthz", "transport": "http", "method": "GET"}

    client.get("/healthz")
    client.get("/healthz")
    after = scrape(client)

    assert value(after, REQUESTS, **labels) - value(before, REQUESTS, **labels) == 2
    timed = value(after, LATENCY, view="healthz", method="GET")
    assert timed - value(before, LATENCY, view="healthz", method="GET") == 2


def test_a_method_nobody_knows_is_timed_under_one_label_not_its_own(client):
    client.generic("BREW", "/healthz")
    samples = scrape(client)

    assert value(samples, LATENCY, view="healthz", method="<invalid method>") >= 1
    assert not [labels for _, labels in samples if ("method", "BREW") in labels]


def _play(player, offering, key, stake=200):
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=[{"kind": "red", "stake": stake}],
        idempotency_key=key,
        rng=FixedBits(0),
    )


def test_a_round_committed_counts_once_for_its_holder_and_never_names_the_player(
    client, funded_player, live_offering, django_capture_on_commit_callbacks
):
    holder = str(live_offering.holder_id)
    before = value(scrape(client), ROUNDS, holder=holder)

    with django_capture_on_commit_callbacks(execute=True):
        _play(funded_player, live_offering, "metrics-round-1")
    with django_capture_on_commit_callbacks(execute=True):
        _play(funded_player, live_offering, "metrics-round-1")  # a retry: the same round
    samples = scrape(client)

    assert value(samples, ROUNDS, holder=holder) - before == 1
    rounds = [labels for name, labels in samples if name == ROUNDS]
    assert rounds and all(dict(labels).keys() == {"holder"} for labels in rounds)


def test_a_round_refused_or_not_yet_committed_is_not_counted(
    client, funded_player, live_offering, django_capture_on_commit_callbacks
):
    holder = str(live_offering.holder_id)
    before = value(scrape(client), ROUNDS, holder=holder)

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ValidationFailed):
        _play(funded_player, live_offering, "metrics-refused", stake=10**9)
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        _play(funded_player, live_offering, "metrics-uncommitted")

    assert len(waiting) == 1
    assert value(scrape(client), ROUNDS, holder=holder) == before


def test_a_report_run_shows_queued_then_finished_with_its_duration(
    client, auditor, django_capture_on_commit_callbacks
):
    before = scrape(client)
    succeeded = {"kind": "expiry", "status": "succeeded"}

    with django_capture_on_commit_callbacks(execute=False) as sending:
        run = report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    waiting = scrape(client)
    for send in sending:
        send()
    finished = scrape(client)

    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED
    assert value(waiting, RUNS, kind="expiry", status="queued") == 1
    assert value(finished, RUNS, kind="expiry", status="queued") == 0
    assert value(finished, RUNS, **succeeded) - value(before, RUNS, **succeeded) == 1
    assert value(finished, f"{DURATION}_count", **succeeded) == 1
    assert value(finished, f"{DURATION}_bucket", **succeeded, le="+Inf") == 1


def _finished(kind, status, seconds, number):
    started = timezone.now() - datetime.timedelta(hours=1)
    return ReportRun.objects.create(
        kind=kind,
        definition_version="1",
        parameters={},
        parameters_key=f"metrics-{number}",
        requested_via="api",
        status=status,
        started_at=started,
        finished_at=started + datetime.timedelta(seconds=seconds),
    )


def test_run_durations_fall_in_their_buckets_and_add_up(client):
    for number, seconds in enumerate((3, 100, 100)):
        _finished("audit", RunStatus.SUCCEEDED, seconds, number)
    _finished("audit", RunStatus.FAILED, 20_000, 9)
    ReportRun.objects.create(
        kind="audit",
        definition_version="1",
        parameters={},
        parameters_key="waiting",
        requested_via="api",
    )

    samples = scrape(client)

    done = {"kind": "audit", "status": "succeeded"}
    buckets = {
        le: value(samples, f"{DURATION}_bucket", **done, le=le)
        for le in ("1.0", "5.0", "60.0", "300.0", "14400.0", "+Inf")
    }
    assert buckets == {"1.0": 0, "5.0": 1, "60.0": 1, "300.0": 3, "14400.0": 3, "+Inf": 3}
    assert value(samples, f"{DURATION}_sum", **done) == 203
    failed = {"kind": "audit", "status": "failed"}
    assert value(samples, f"{DURATION}_bucket", **failed, le="14400.0") == 0
    assert value(samples, f"{DURATION}_count", **failed) == 1
    assert value(samples, RUNS, kind="audit", status="queued") == 1
    assert value(samples, f"{DURATION}_count", kind="audit", status="queued") == 0
