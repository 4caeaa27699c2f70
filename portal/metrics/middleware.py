"""django-prometheus's request metrics, with every label bounded."""

from __future__ import annotations

from django_prometheus.middleware import PrometheusAfterMiddleware

# The methods a label may name; any other is counted as one (django-prometheus's word).
KNOWN_METHODS = frozenset(
    ("GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "OPTIONS", "CONNECT", "PATCH")
)
OTHER_METHOD = "<invalid method>"


class RequestMetricsMiddleware(PrometheusAfterMiddleware):
    """django-prometheus's ``PrometheusAfterMiddleware`` (requests and latency by route,
    ``view`` being the route's name), whose latency histogram labels a request with its
    method as sent: a client inventing methods would add a series for each. ``label_metric``
    is the class's hook for labels; here a method outside ``KNOWN_METHODS`` becomes
    ``<invalid method>``, as the library's own counters already say."""

    def label_metric(self, metric, request, response=None, **labels):
        if labels.get("method") not in (None, *KNOWN_METHODS):
            labels["method"] = OTHER_METHOD
        return super().label_metric(metric, request, response, **labels)
