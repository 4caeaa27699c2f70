"""The Celery queues' depths, read from Redis at the scrape: every queue Celery's
configuration names, each priority's list added in; nothing on another broker."""

from __future__ import annotations

import os
import uuid

import pytest
import redis
from celery import Celery
from kombu import Queue
from prometheus_client import CollectorRegistry

from portal.metrics.collectors import QueueDepthCollector, queue_names
from tests.portal.metrics.scrape import scrape

# The suite's Redis: CI's (.ci/run sets JINZI_TEST_REDIS_URL), else the local one, in a
# database kept for these tests (10 to 12); each test's keys sit under a prefix of its own.
REDIS_URL = os.environ.get("JINZI_TEST_REDIS_URL", "redis://127.0.0.1:6390/10")
PRIORITY = "\x06\x16"  # kombu's separator of a queue's name and a priority step


def _app(broker_url: str, **conf) -> Celery:
    app = Celery("metrics-test", set_as_current=False)
    app.conf.update(broker_url=broker_url, **conf)
    return app


def _read(app) -> dict[tuple[str, tuple], float]:
    registry = CollectorRegistry()
    registry.register(QueueDepthCollector(app))
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in registry.collect()
        for sample in family.samples
    }


@pytest.fixture
def broker():
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError:
        pytest.skip(f"needs the suite's Redis at {REDIS_URL} (JINZI_TEST_REDIS_URL)")
    prefix = f"metrics-test-{uuid.uuid4().hex}:"  # this test's keys alone, whoever else runs
    yield client, prefix
    client.delete(*client.keys(f"{prefix}*") or [f"{prefix}none"])
    client.close()


def test_each_configured_queue_reports_its_waiting_messages_every_priority_added(broker):
    client, prefix = broker
    client.rpush(f"{prefix}celery", "a", "b", "c")
    client.rpush(f"{prefix}reports", "a", "b")
    client.rpush(f"{prefix}reports{PRIORITY}6", "high")
    client.rpush(f"{prefix}not-configured", "ignored")
    app = _app(
        REDIS_URL,
        broker_transport_options={"global_keyprefix": prefix},
        task_routes={"reports.run": {"queue": "reports"}, "notifications.*": "notifications"},
        task_queues=[Queue("schedule")],
    )

    read = _read(app)

    assert read == {
        ("jinzi_celery_broker_up", ()): 1,
        ("jinzi_celery_queue_length", (("queue", "celery"),)): 3,
        ("jinzi_celery_queue_length", (("queue", "notifications"),)): 0,
        ("jinzi_celery_queue_length", (("queue", "reports"),)): 3,
        ("jinzi_celery_queue_length", (("queue", "schedule"),)): 0,
    }


def test_a_broker_that_does_not_answer_is_reported_down_and_the_scrape_still_answers():
    app = _app("redis://127.0.0.1:1/10")

    assert _read(app) == {("jinzi_celery_broker_up", ()): 0}


@pytest.mark.parametrize("broker_url", ["filesystem://", "", "memory://"])
def test_no_queue_is_read_from_a_broker_other_than_redis(broker_url):
    assert _read(_app(broker_url)) == {}


def test_the_queue_names_come_from_the_default_queue_declared_queues_and_routes():
    conf = _app(
        "",
        task_default_queue="work",
        task_queues=(Queue("reports"), Queue("report-joins")),
        task_routes=[
            {"a.task": {"queue": "notifications"}, "b.task": {"exchange": "x"}},
            lambda *args: None,  # a router function names no queue until it runs
        ],
    ).conf

    assert queue_names(conf) == ["notifications", "report-joins", "reports", "work"]


@pytest.mark.django_db
def test_the_portals_scrape_reads_no_queue_when_tasks_run_in_process(client):
    samples = scrape(client)

    assert not [name for name, _ in samples if name.startswith("jinzi_celery_")]
