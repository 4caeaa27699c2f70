"""Signed-in pages and API answers are never stored by a browser or a proxy; HSTS is on
behind TLS only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def test_a_signed_in_page_is_no_store(client, auditor):
    client.force_login(auditor)

    page = client.get("/reports/")

    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]


def test_every_api_answer_is_no_store_even_a_refusal(auditor):
    client = APIClient()
    anonymous = client.get("/api/reports/")
    client.force_login(auditor)
    listed = client.get("/api/reports/")

    assert anonymous.status_code in (401, 403) and "no-store" in anonymous["Cache-Control"]
    assert listed.status_code == 200 and "no-store" in listed["Cache-Control"]


def test_the_public_start_page_is_left_alone(client):
    home = client.get("/")  # signed out: nothing private in it

    assert home.status_code == 200 and not home.has_header("Cache-Control")


def _setting(name: str, **env: str) -> str:
    code = (
        f"import django; django.setup(); from django.conf import settings; print(settings.{name})"
    )
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "portal.settings", **env}
    for key in ("DJANGO_HSTS_SECONDS", "DJANGO_BEHIND_TLS_PROXY", "DJANGO_SECURE_SSL_REDIRECT"):
        if key not in env:
            environment.pop(key, None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_hsts_is_off_on_plain_http_on_behind_tls_and_configurable():
    assert _setting("SECURE_HSTS_SECONDS") == "0"
    assert _setting("SECURE_HSTS_SECONDS", DJANGO_BEHIND_TLS_PROXY="1") == str(365 * 24 * 3600)
    assert _setting("SECURE_HSTS_SECONDS", DJANGO_HSTS_SECONDS="600") == "600"


def test_a_post_only_page_opened_by_get_shows_a_page_with_a_link_back(client, officer):
    client.force_login(officer)

    response = client.get("/reports/1/retry/")

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = response.content.decode()
    assert "Not a page to open" in page and "not for opening on its own" in page
    assert 'href="/compliance/"' in page  # back to the dashboard
    api = client.get("/api/reports/1/retry/")  # the API answers in its own JSON
    assert api.status_code == 405 and api["Content-Type"] == "application/json"
