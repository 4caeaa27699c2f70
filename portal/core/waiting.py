"""What waits for a person's decision in apps the dashboard does not know: each app adds
its own counter from its ``AppConfig.ready`` (the layers' arrows point down: the dashboard
reads them without importing the apps above it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    """A number of things waiting for ``user``'s decision, and the list that shows them."""

    label: str  # "Voids and adjustments waiting for your decision"
    number: int
    url: str


_counters: list[Callable[[object], list[Waiting]]] = []


def add_counter(counter: Callable[[object], list[Waiting]]) -> None:
    if counter not in _counters:
        _counters.append(counter)


def waiting_for(user) -> list[Waiting]:
    """Every counter's count for ``user``: one query each, for those that concern them."""
    return [found for counter in _counters for found in counter(user)]
