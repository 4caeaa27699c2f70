"""``GET /metrics``: Prometheus's text format, for the bearer of ``JINZI_METRICS_TOKEN``."""

from __future__ import annotations

import hmac
import os

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from portal.metrics.collectors import QueueDepthCollector, ReportRunsCollector

# prometheus_client's multiprocess mode: each process writes its metrics to files in this
# folder, and a scrape adds up every process's (gunicorn.conf.py prepares it).
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
NO_TOKEN = "metrics are read with the bearer token (Authorization: Bearer <JINZI_METRICS_TOKEN>)"
GET_ONLY = "metrics are read with GET"


class _ThisProcess:
    """The metrics this process keeps in memory (prometheus_client's default registry),
    when it runs alone: ``manage.py runserver``, the test suite."""

    def collect(self):
        return REGISTRY.collect()


def scrape_registry() -> CollectorRegistry:
    """What one scrape reads: every gunicorn worker's metrics (the multiprocess folder) or
    this process's, and the figures read at the scrape from the database and the broker."""
    registry = CollectorRegistry()
    if os.environ.get(MULTIPROCESS_DIR):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(ReportRunsCollector())
    registry.register(QueueDepthCollector())
    return registry


def _bearer_matches(request: HttpRequest, token: str) -> bool:
    scheme, _, offered = request.headers.get("Authorization", "").partition(" ")
    # Compared in constant time: how long a refusal takes says nothing about the token.
    return scheme.lower() == "bearer" and hmac.compare_digest(
        offered.strip().encode(), token.encode()
    )


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """Off (404) without a token configured; 401 to a request without the right one, whatever
    its method, so the address says nothing more to a stranger; then GET or HEAD only."""
    token = settings.JINZI_METRICS_TOKEN
    if not token:
        raise Http404("no metrics here")
    if not _bearer_matches(request, token):
        refused = HttpResponse(NO_TOKEN, status=401, content_type="text/plain; charset=utf-8")
        refused["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return refused
    if request.method not in ("GET", "HEAD"):
        refused = HttpResponse(GET_ONLY, status=405, content_type="text/plain; charset=utf-8")
        refused["Allow"] = "GET, HEAD"
        return refused
    # The classic text format (0.0.4), which every Prometheus server reads; the names and
    # labels here are all plain ASCII, so nothing needs the newer format's escaping.
    body = generate_latest(scrape_registry())
    return HttpResponse(body, content_type=CONTENT_TYPE_PLAIN_0_0_4)
