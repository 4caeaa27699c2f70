"""What a scrape reads as it happens, from the records and the broker every process shares.

Report runs are counted from the database, not by counters in the process that finished
them: a run finishes in a Celery worker, on another host or in a process of its own, whose
counters the web's ``/metrics`` never sees (prometheus_client's multiprocess mode adds up
the processes of one gunicorn, on one host). The table is the one account every process
agrees on, and a scrape of any web worker reads the same figures: two aggregate queries.
The queues' depths are read from the broker the same way, at the scrape, by whichever web
worker answers it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta

import redis
from celery import current_app
from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.utils import floatToGoString

from portal.reports.models import ReportKind, ReportRun, RunStatus

# A report run's time from its start to its end, in seconds: from an expiry report's
# seconds to the audit report's hard limit of 4 h 5 min.
DURATION_BUCKETS = (1, 5, 15, 60, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600)
# How long a scrape waits for the broker before it reports the broker as not reached.
BROKER_TIMEOUT = 2  # seconds
# kombu's Redis transport keeps a queue as one list per priority step: the queue's own name
# for priority 0 (a task with none), the name, this separator and the step for the others.
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (0, 3, 6, 9)


class ReportRunsCollector:
    """``jinzi_report_runs`` (runs kept, by kind and status, 0 for none) and
    ``jinzi_report_run_duration_seconds`` (runs that started and ended, by kind and final
    status: how long each took, as a histogram). A run deleted by retention leaves the
    histogram: Prometheus reads the drop as a counter's reset."""

    def collect(self) -> Iterator[GaugeMetricFamily | HistogramMetricFamily]:
        yield self._runs()
        yield self._durations()

    @staticmethod
    def _runs() -> GaugeMetricFamily:
        family = GaugeMetricFamily(
            "jinzi_report_runs", "Report runs kept, by kind and status.", labels=["kind", "status"]
        )
        counts = {(kind, status): 0 for kind in ReportKind.values for status in RunStatus.values}
        rows = ReportRun.objects.order_by().values("kind", "status").annotate(runs=Count("pk"))
        counts |= {(row["kind"], row["status"]): row["runs"] for row in rows}
        for (kind, status), runs in sorted(counts.items()):
            family.add_metric([kind, status], runs)
        return family

    @staticmethod
    def _durations() -> HistogramMetricFamily:
        family = HistogramMetricFamily(
            "jinzi_report_run_duration_seconds",
            "Time from a report run's start to its end, by kind and final status.",
            labels=["kind", "status"],
        )
        within = {
            f"within_{index}": Count("pk", filter=Q(duration__lte=timedelta(seconds=bound)))
            for index, bound in enumerate(DURATION_BUCKETS)
        }
        rows = (
            ReportRun.objects.order_by()
            .filter(started_at__isnull=False, finished_at__isnull=False)
            .alias(
                duration=ExpressionWrapper(
                    F("finished_at") - F("started_at"), output_field=DurationField()
                )
            )
            .values("kind", "status")
            .annotate(runs=Count("pk"), total=Sum("duration"), **within)
        )
        for row in rows:
            buckets = [
                (floatToGoString(bound), row[f"within_{index}"])
                for index, bound in enumerate(DURATION_BUCKETS)
            ]
            family.add_metric(
                [row["kind"], row["status"]],
                [*buckets, ("+Inf", row["runs"])],
                sum_value=(row["total"] or timedelta()).total_seconds(),
            )
        return family


def queue_names(conf) -> list[str]:
    """Every queue the Celery configuration ``conf`` names: the default queue, the declared
    queues (``task_queues``) and the queues tasks are routed to (``task_routes``, a mapping
    or a list of them; a router that is a function names none until it runs)."""
    names = {conf.task_default_queue}
    names.update(getattr(queue, "name", queue) for queue in conf.task_queues or ())
    routes = conf.task_routes or ()
    for table in [routes] if isinstance(routes, dict) else routes:
        if not isinstance(table, dict):
            continue
        for route in table.values():
            queue = route.get("queue") if isinstance(route, dict) else route
            name = getattr(queue, "name", queue)
            if isinstance(name, str):
                names.add(name)
    return sorted(name for name in names if isinstance(name, str) and name)


def _redis_url(broker_url) -> str | None:
    """The first broker's address when it is Redis (kombu takes ``;``-separated fail-overs)."""
    first = str(broker_url or "").split(";")[0].strip()
    return first if first.startswith(("redis://", "rediss://")) else None


class QueueDepthCollector:
    """``jinzi_celery_queue_length``: the messages waiting in each configured queue, read
    from Redis as the scrape asks (``LLEN`` of each priority's list, summed), with
    ``jinzi_celery_broker_up`` saying whether the broker answered. Nothing on the filesystem
    broker (`make run`) or with tasks run in-process: there is no queue a scrape could read
    cheaply. The queues are read from Celery's configuration at each scrape, so queues
    added to it are counted without a change here."""

    def __init__(self, app=None) -> None:
        self.app = app

    def collect(self) -> Iterable[GaugeMetricFamily]:
        conf = (self.app or current_app).conf
        url = _redis_url(conf.broker_url)
        if url is None:
            return []
        names = queue_names(conf)
        prefix = (conf.broker_transport_options or {}).get("global_keyprefix", "")
        up = GaugeMetricFamily("jinzi_celery_broker_up", "1 when the broker answered the scrape.")
        lengths = GaugeMetricFamily(
            "jinzi_celery_queue_length", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        try:
            depths = _lengths(url, names, prefix)
        except redis.RedisError:
            up.add_metric([], 0)
            return [up]
        up.add_metric([], 1)
        for name in names:
            lengths.add_metric([name], depths[name])
        return [up, lengths]


def _priority_list(queue: str, step: int) -> str:
    """The Redis list of ``queue``'s messages of one priority step (kombu's naming)."""
    return f"{queue}{PRIORITY_SEPARATOR}{step}" if step else queue


def _lengths(url: str, names: list[str], prefix: str) -> dict[str, int]:
    """Each queue's messages, every priority's list (a few LLENs on one connection: a
    scrape asks for a handful of short lists)."""
    client = redis.Redis.from_url(
        url, socket_timeout=BROKER_TIMEOUT, socket_connect_timeout=BROKER_TIMEOUT
    )
    try:
        return {
            name: sum(client.llen(_priority_list(prefix + name, step)) for step in PRIORITY_STEPS)
            for name in names
        }
    finally:
        client.close()
