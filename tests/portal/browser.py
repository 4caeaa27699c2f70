"""A real headless Chromium (Debian's package; never downloaded) for the browser tests.

``page`` signs in nobody; it records every Content-Security-Policy violation the browser
reports, and a test that caused one fails at its end: the pages must work under the
policy they are served with, not only carry it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium package (.ci/run installs it)"
)


def _is_csp_violation(text: str) -> bool:
    return "Content Security Policy" in text or "Content-Security-Policy" in text


@pytest.fixture
def page(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the test's own ORM reads
    # are still synchronous and safe.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    violations: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        page.on(
            "console",
            lambda message: (
                violations.append(f"{page.url}: {message.text}")
                if _is_csp_violation(message.text)
                else None
            ),
        )
        yield page
        browser.close()
        # Database work done while Playwright runs opens a connection in its context;
        # close it here, or PostgreSQL refuses to drop the test database at the end.
        from django.db import connections

        connections.close_all()
    assert violations == [], "the Content-Security-Policy blocked something"
