"""A real headless Chromium (Debian's package; never downloaded) for the browser tests.

``page`` signs in nobody, in a browser context of its own (one Chromium serves the whole run);
it records every Content-Security-Policy violation the browser
reports, and a test that caused one fails at its end: the pages must work under the
policy they are served with, not only carry it.
"""

from __future__ import annotations

import json
import os
import re
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


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole run, started by the first browser test: each test then
    gets a context of its own (its own cookies, storage and pages), a second rather than a
    new browser's start-up."""
    # Playwright's sync API runs an event loop in this thread for as long as the browser
    # lives, so from the first browser test on Django sees one; the tests' own ORM reads are
    # still synchronous and safe, so its check is lifted for the rest of the run.
    allow = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    try:
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
            yield browser
            browser.close()
    finally:
        if allow is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allow


@pytest.fixture
def page(chromium):
    violations: list[str] = []
    context = chromium.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    page.on(
        "console",
        lambda message: (
            violations.append(f"{page.url}: {message.text}")
            if _is_csp_violation(message.text)
            else None
        ),
    )
    yield page
    context.close()
    # Database work done while Playwright runs opens a connection in its context;
    # close it here, or PostgreSQL refuses to drop the test database at the end.
    from django.db import connections

    connections.close_all()
    assert violations == [], "the Content-Security-Policy blocked something"


# --- axe-core: accessibility rules run inside the same Chromium ------------------------------
#
# `make axe` (a step of `make test`) installs axe-core from npm at the version the Makefile
# pins (AXE_VERSION) into var/node/. Its script is evaluated in the page through the
# DevTools protocol, which the page's Content-Security-Policy does not govern: a <script>
# tag (Playwright's add_script_tag) is inline content the policy refuses, and a test must
# never loosen the policy it checks the page against.

REPO = Path(__file__).resolve().parents[2]
AXE_DIR = REPO / "var" / "node" / "node_modules" / "axe-core"
AXE_SCRIPT = AXE_DIR / "axe.min.js"
# What fails a page; the other impacts ("moderate", "minor") are reported, not failed on.
AXE_FAILING_IMPACTS = ("critical", "serious")


def axe_pinned_version() -> str:
    """The axe-core version the Makefile pins (``AXE_VERSION := x.y.z``)."""
    match = re.search(r"^AXE_VERSION\s*:?=\s*(\S+)", (REPO / "Makefile").read_text(), re.M)
    assert match, "the Makefile pins no AXE_VERSION"
    return match.group(1)


def axe_source() -> str:
    """The axe-core script, or a failed test saying how to install it (never a skip: an
    accessibility check that quietly does not run checks nothing)."""
    pinned = axe_pinned_version()
    install = f"run `make test` (or `make axe`) to install axe-core {pinned} into var/node/"
    if not AXE_SCRIPT.is_file():
        pytest.fail(f"axe-core is missing ({AXE_SCRIPT} not found): {install}", pytrace=False)
    installed = json.loads((AXE_DIR / "package.json").read_text())["version"]
    if installed != pinned:
        pytest.fail(
            f"axe-core {installed} is installed, the Makefile pins {pinned}: {install}",
            pytrace=False,
        )
    return AXE_SCRIPT.read_text(encoding="utf-8")


_AXE_RUN = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return {
    version: axe.version,
    violations: results.violations.map((rule) => ({
      id: rule.id,
      impact: rule.impact,
      help: rule.help,
      helpUrl: rule.helpUrl,
      nodes: rule.nodes.map((node) => ({
        target: node.target.join(" "),
        html: node.html,
        summary: node.failureSummary,
      })),
    })),
  };
}"""


def axe_check(page) -> dict:
    """Run every axe-core rule on the page as it stands: ``{"version", "violations": [{"id",
    "impact", "help", "helpUrl", "nodes": [{"target", "html", "summary"}]}]}``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    return page.evaluate(_AXE_RUN)


def axe_failures(violations: list[dict]) -> list[dict]:
    return [rule for rule in violations if rule["impact"] in AXE_FAILING_IMPACTS]
