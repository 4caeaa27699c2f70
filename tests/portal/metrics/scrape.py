"""Reading ``/metrics`` as Prometheus does: with the bearer token, in the text format."""

from __future__ import annotations

from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families


def bearer(token: str | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {settings.JINZI_METRICS_TOKEN if token is None else token}"}


def scrape(client) -> dict[tuple[str, frozenset], float]:
    """Every sample of one scrape: (name, its labels) to its value."""
    answer = client.get("/metrics", headers=bearer())
    assert answer.status_code == 200, answer.content
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.content.decode())
        for sample in family.samples
    }


def value(samples, name: str, **labels) -> float:
    """A sample's value; 0 when the scrape has none (a counter not yet counted)."""
    return samples.get((name, frozenset(labels.items())), 0.0)
