"""Run work in threads released at the same moment, each on its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def run_together(*work: Callable[[], object], timeout: float = 60) -> list[object]:
    """Each callable's result, or the exception it raised, in order."""
    barrier = threading.Barrier(len(work))
    outcomes: list[object] = [None] * len(work)

    def run(index: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = job()
        except Exception as exc:  # the outcome under test
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(work)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return outcomes
