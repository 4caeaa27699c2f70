"""A pytest plugin that keeps each test's last result, for the clause traceability matrix.

``manage.py clauses`` shows, beside each clause, whether the tests that prove it passed
the last time they ran. This plugin writes that down: one entry per test node (outcome
``passed``, ``failed`` or ``skipped``, node id, function name, when), to
``<JINZI_VAR_DIR or ./var>/clause-results.json`` or ``--clause-results PATH``.

A run updates the entries of the tests it ran and keeps the others, so a partial run does
not forget what a full run proved; a renamed test's old entry simply matches nothing. The
file also says when it was taken (``taken_at``: when its last run ended, UTC) and on which
database that run was (``database``: Django's ``sqlite`` or ``postgresql``), for the
Regulation page and ``clauses`` to show.
CI gives each of its passes a file of its own, emptied first, and checks them together
(``.ci/run``). The file is written to a temporary name and renamed, so a reader never sees
half of it.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import time
from pathlib import Path

import pytest

RESULTS_FILE = "clause-results.json"
# A test's setup, call and teardown each report; its result is the worst of them.
RANK = {"skipped": 1, "passed": 2, "failed": 3}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--clause-results",
        default=None,
        metavar="PATH",
        help=f"Where to keep each test's last result (default: $JINZI_VAR_DIR/{RESULTS_FILE}).",
    )


def results_path(config: pytest.Config) -> Path:
    """The settings module's var folder rule: $JINZI_VAR_DIR when set, else ./var."""
    given = config.getoption("--clause-results")
    if given:
        return Path(given)
    var_dir = os.environ.get("JINZI_VAR_DIR", "").strip()
    return (Path(var_dir) if var_dir else config.rootpath / "var") / RESULTS_FILE


def pytest_configure(config: pytest.Config) -> None:
    # xdist workers report to the controller, which writes the one file.
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(ClauseResults(results_path(config)), "clause-results")


def outcome_of(report: pytest.TestReport) -> str | None:
    """What one phase's report says of its test; None for a phase that says nothing."""
    if report.failed:
        return "failed"
    if report.skipped:
        return "skipped"  # an expected failure (xfail) proves nothing either
    return "passed" if report.when == "call" else None


def database_of_run() -> str:
    """The database this run's tests used: Django's, once the settings are loaded; else as
    the settings choose it from ``DATABASE_URL``."""
    try:
        from django.db import connection

        return connection.vendor
    except Exception:  # no Django settings in this run (the engine's tests alone)
        url = os.environ.get("DATABASE_URL", "").strip().lower()
        return "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"


# The wall clock as it was when the plugin loaded, carried forward by the monotonic clock:
# a test that travels in time (time_machine moves the wall clock, not the monotonic one)
# does not date its result, or the file, in its travelled-to day.
_WALL_AT_LOAD = time.time()
_MONOTONIC_AT_LOAD = time.monotonic()


def now_text() -> str:
    seconds = _WALL_AT_LOAD + (time.monotonic() - _MONOTONIC_AT_LOAD)
    instant = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    return instant.isoformat(timespec="seconds")


def write_atomically(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=1, sort_keys=True)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class ClauseResults:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.results: dict[str, dict] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcome = outcome_of(report)
        if outcome is None:
            return
        known = self.results.get(report.nodeid)
        if known is not None and RANK[known["outcome"]] >= RANK[outcome]:
            return
        self.results[report.nodeid] = {
            "outcome": outcome,
            "nodeid": report.nodeid,
            "function": report.nodeid.rsplit("::", 1)[-1].split("[", 1)[0],
            "at": now_text(),
        }

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.results:
            return
        kept: dict[str, dict] = {}
        if self.path.is_file():
            try:
                kept = json.loads(self.path.read_text(encoding="utf-8")).get("results", {})
            except (ValueError, AttributeError):
                kept = {}  # an unreadable file is replaced, not merged
        write_atomically(
            self.path,
            {
                "version": 1,
                "taken_at": now_text(),
                "database": database_of_run(),
                "results": kept | self.results,
            },
        )
