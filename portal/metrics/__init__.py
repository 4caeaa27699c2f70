"""``/metrics`` for Prometheus (docs/operations.md, "Metrics"): requests by route, rounds
settled, report runs by status and duration, the Celery queues' depths. One bearer token
(``JINZI_METRICS_TOKEN``) guards it; without one the address is off."""
