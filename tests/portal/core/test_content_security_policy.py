"""One strict Content-Security-Policy on every page, nothing inline to need a looser one,
and a portal that will not start on a built-in secret key."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"
STRICT = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
)


def _policy(answer) -> str:
    return answer["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/play/", "/admin/login/"])
def test_every_page_carries_the_strict_policy(client, player, path):
    client.force_login(player)

    policy = _policy(client.get(path, follow=True))

    for directive in STRICT:
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_the_api_docs_load_their_start_up_script_as_a_file(client, auditor):
    client.force_login(auditor)

    docs = client.get("/api/docs/")
    script = client.get("/api/docs/?script=")

    page = docs.content.decode()
    assert docs.status_code == 200 and "unsafe-inline" not in _policy(docs)
    assert re.search(r"<script>\s*\S", page) is None  # no inline script body
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def test_no_template_has_an_inline_script_style_or_event_handler():
    inline = (
        re.compile(r"<script(?![^>]*\bsrc=)[^>]*>"),  # a script with no src
        re.compile(r"<style"),
        re.compile(r"\sstyle=\""),
        re.compile(r"\son[a-z]+=\""),  # onclick="…"
        re.compile(r"javascript:"),
    )
    # An email's HTML is read by mail programs, which need its styles inline; no page is it.
    emails = {TEMPLATES / "notifications" / "email.html"}
    offending = [
        str(template.relative_to(ROOT))
        for template in TEMPLATES.rglob("*.html")
        if template not in emails
        and any(pattern.search(template.read_text()) for pattern in inline)
    ]
    assert offending == []
    pages = [t for t in TEMPLATES.rglob("*.html") if t not in emails]
    assert not [t for t in pages if "notifications/email.html" in t.read_text()]


def _start(**env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "portal.settings", **env}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )


def test_with_debug_off_and_no_secret_key_the_portal_refuses_to_start():
    refused = _start(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="")
    started = _start(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="k" * 50)
    development = _start(DJANGO_DEBUG="1", DJANGO_SECRET_KEY="")

    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0" in refused.stderr
    assert started.returncode == 0, started.stderr
    assert development.returncode == 0, development.stderr
