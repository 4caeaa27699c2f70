"""The browser walk: each role's main job, end to end, in the real Chromium of
``tests.portal.browser`` (which also fails a test on any Content-Security-Policy violation).

Every step is kept as a full-page screenshot, ``<artifacts>/walk/<database>/<test>/NN-step.png``:
``<artifacts>`` is ``$JINZI_ARTIFACTS_DIR`` if set, else ``var/artifacts`` in the repository
(not the portal's var dir, which a test run may point at a throwaway folder), and
``<database>`` is ``sqlite`` or ``postgresql``, so CI's two passes keep both sets. The
accessibility tests write what axe-core found per page beside them, in
``<artifacts>/axe/<database>/``, and print a summary at the end of the run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.db import connection
from playwright.sync_api import Page, expect

from tests.portal.browser import AXE_FAILING_IMPACTS, REPO, axe_check, axe_failures
from tests.portal.factories import PASSWORD
from tests.portal.plain_words import developer_words, shown_text

IMPACTS = ("critical", "serious", "moderate", "minor")


def artifacts_dir() -> Path:
    """Where the browser tests keep what they leave for people to look at."""
    return Path(os.environ.get("JINZI_ARTIFACTS_DIR") or REPO / "var" / "artifacts")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Walk:
    """One person's way through the portal in the browser, a screenshot per step."""

    def __init__(self, page: Page, base_url: str, folder: Path) -> None:
        self.page = page
        self.base_url = base_url
        self.folder = folder
        self.shots: list[Path] = []

    def open(self, path: str) -> None:
        self.page.goto(f"{self.base_url}{path}")

    def sign_in(self, username: str, password: str = PASSWORD) -> None:
        """Through the login page, as a person does (django-axes guards it; the test
        settings ask for no second factor)."""
        self.open("/accounts/login/")
        expect(self.page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(password)
        self.page.get_by_role("button", name="Sign in").click()
        expect(self.page.get_by_role("button", name="Sign out")).to_be_visible()

    def sign_out(self) -> None:
        self.page.get_by_role("button", name="Sign out").click()
        expect(self.page.get_by_role("button", name="Sign out")).to_have_count(0)

    def status_badge(self):
        """The record's status badge, beside its title."""
        return self.page.get_by_role("main").locator(".status").first

    def shot(self, step: str) -> Path:
        """Keep the whole page as it stands now as ``NN-step.png``, once it is seen to speak
        plain words (``tests.portal.plain_words``): no field name, type, module or file."""
        if "/api/" not in self.page.url:
            register = urlsplit(self.page.url).path.startswith("/regulation/")
            shown = shown_text(self.page.content(), apart=True)
            words = developer_words(shown, cites_readings=register)
            assert not words, f"developer words on {self.page.url} at {step!r}: {words[:5]}"
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{len(self.shots) + 1:02d}-{_slug(step)}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.shots.append(path)
        return path


# When this run began (the conftest loads first in the process that prints the summary):
# the summary lists what was written since.
_RUN_STARTED = time.time()


@pytest.fixture
def walk(page, live_server, request):
    """A ``Walk`` on the live server; its screenshots replace the test's previous ones."""
    folder = artifacts_dir() / "walk" / connection.vendor / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    walk = Walk(page, live_server.url, folder)
    yield walk


# --- axe-core ----------------------------------------------------------------------------


class Axe:
    """Runs axe-core on each page a test names and keeps what it found; the test then asks
    that none of its pages had a "serious" or "critical" violation."""

    def __init__(self, page: Page, test: str, folder: Path) -> None:
        self.page = page
        self.test = test
        self.folder = folder
        self.checked: dict[str, dict] = {}

    def check(self, name: str) -> dict:
        result = axe_check(self.page)
        result["url"] = self.page.url
        self.checked[name] = result
        return result

    def failures(self) -> str:
        lines = []
        for name, result in self.checked.items():
            for rule in axe_failures(result["violations"]):
                lines.append(f"{name} ({result['url']}): {rule['impact']} {rule['id']}")
                lines.append(f"    {rule['help']} ({rule['helpUrl']})")
                for node in rule["nodes"]:
                    lines.append(f"    - {node['target']}: {node['html'][:160]}")
                    fix = " ".join((node["summary"] or "").split())
                    lines.append(f"      {fix}")
        return "\n".join(lines)

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{self.test}.json"
        path.write_text(json.dumps(self.checked, indent=2, ensure_ascii=False) + "\n")

    def assert_no_serious_violations(self) -> None:
        failures = self.failures()
        assert not failures, (
            f"axe-core found {' or '.join(AXE_FAILING_IMPACTS)} violations:\n{failures}"
        )


@pytest.fixture
def axe(page, request):
    """``axe.check("page name")`` on each page, then ``axe.assert_no_serious_violations()``:
    it fails naming each page, rule and element with an impact of serious or critical. What
    each page had is kept in ``<artifacts>/axe/<database>/<test>.json``."""
    checker = Axe(page, request.node.name, artifacts_dir() / "axe" / connection.vendor)
    yield checker
    checker.save()


def _written_this_run(paths) -> list[Path]:
    """``paths`` written since this run began: what it left, not an earlier run's files (the
    tests may run in several worker processes, whose findings reach the summary as files)."""
    return sorted(path for path in paths if path.stat().st_mtime >= _RUN_STARTED)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    write = terminalreporter.write_line
    walked = artifacts_dir() / "walk" / connection.vendor
    shots = _written_this_run(walked.glob("*/*.png")) if walked.is_dir() else []
    tests = sorted({shot.parent.name for shot in shots})
    if tests:
        terminalreporter.section("browser walk")
        count = f"{len(tests)} test{'s' if len(tests) != 1 else ''}"
        write(f"a screenshot per step of {count}: {walked}/<test>/NN-step.png")
    found_dir = artifacts_dir() / "axe" / connection.vendor
    found = _written_this_run(found_dir.glob("*.json")) if found_dir.is_dir() else []
    results = [
        (path.stem, name, result)
        for path in found
        for name, result in json.loads(path.read_text(encoding="utf-8")).items()
    ]
    if not results:
        return
    version = results[0][2]["version"]
    terminalreporter.section(f"axe-core {version}: violations by impact, per page")
    for test, name, result in results:
        counts = Counter(rule["impact"] for rule in result["violations"])
        found_text = ", ".join(f"{counts[impact]} {impact}" for impact in IMPACTS if counts[impact])
        rules = ", ".join(
            f"{rule['id']} ({rule['impact']}, {len(rule['nodes'])})"
            for rule in result["violations"]
        )
        write(f"{test} · {name}: {found_text or 'none'}{f' — {rules}' if rules else ''}")
    write(f"(details: {found_dir}/)")
