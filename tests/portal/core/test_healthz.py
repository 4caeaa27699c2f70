from unittest import mock

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper

pytestmark = pytest.mark.django_db


def test_it_reports_the_database_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_it_returns_503_when_the_database_is_down(client):
    with mock.patch.object(CursorWrapper, "execute", side_effect=OperationalError("down")):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unavailable"}


def test_it_refuses_writes(client):
    assert client.post("/healthz").status_code == 405


def test_it_echoes_a_plain_request_id_and_replaces_a_forged_one(client):
    kept = client.get("/healthz", headers={"X-Request-ID": "abc12345-req"})
    replaced = client.get("/healthz", headers={"X-Request-ID": "<script>alert(1)</script>"})

    assert kept["X-Request-ID"] == "abc12345-req"
    assert len(replaced["X-Request-ID"]) == 32
    assert "<" not in replaced["X-Request-ID"]


def test_home_page_and_admin_login_render(client):
    assert client.get("/").status_code == 200
    assert client.get("/admin/login/").status_code == 200


def test_an_oversized_request_is_refused_with_413_before_it_is_read(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024

    page = client.generic("POST", "/accounts/login/", b"x" * 2048, "text/plain")
    api = client.generic("POST", "/api/layouts/", b"x" * 2048, "application/json")

    assert page.status_code == 413
    assert b"the limit is 1024 bytes" in page.content
    assert (api.status_code, api.json()["errors"]) == (413, {})
