"""The system tests: the browser walk, the crawl of every page for plain words, the
compatibility tests against an earlier release, reliability under a database restart, and
retention (exports, backup and restore). Each drives the whole portal rather than one app;
each is marked ``system`` (``-m system`` selects them, ``-m "not system"`` leaves them out).
They share the portal tests' people, clients and browser (``tests.portal.fixtures``)."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.system)
