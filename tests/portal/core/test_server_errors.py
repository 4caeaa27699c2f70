"""A database outage answers 503 with Retry-After (JSON on the API, a page on the site);
any other server error 500; nothing is written."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from portal.core.views import DATABASE_DOWN, RETRY_AFTER, SERVER_ERROR
from portal.reports import views as reports_views
from portal.reports.api import views as reports_api
from portal.reports.models import ReportRun
from portal.reports.services import runs as report_runs

pytestmark = pytest.mark.django_db


def failing(error):
    def fail(*args, **kwargs):
        raise error

    return fail


@pytest.fixture
def signed_in(auditor):
    client = Client(raise_request_exception=False)
    client.force_login(auditor)
    return client


@pytest.mark.parametrize(
    "error", [OperationalError("server closed the connection"), InterfaceError("closed")]
)
def test_an_api_call_during_a_database_outage_is_a_json_503(signed_in, monkeypatch, error):
    monkeypatch.setattr(reports_api, "visible", failing(error))

    answer = signed_in.get("/api/reports/")

    assert answer.status_code == 503
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"detail": DATABASE_DOWN, "errors": {}}
    assert answer["Retry-After"] == str(RETRY_AFTER)


def test_a_write_cut_off_by_an_outage_changes_nothing(signed_in, monkeypatch):
    # The run's row is written, then the connection drops before the audit event is.
    monkeypatch.setattr(
        report_runs, "audit_record", failing(OperationalError("the database is restarting"))
    )

    answer = signed_in.post("/api/reports/", {"kind": "expiry"}, content_type="application/json")

    assert answer.status_code == 503 and answer.json()["detail"] == DATABASE_DOWN
    assert not ReportRun.objects.exists()


def test_a_page_during_a_database_outage_is_a_friendly_503(signed_in, monkeypatch):
    monkeypatch.setattr(reports_views, "_runs", failing(OperationalError("connection refused")))

    page = signed_in.get("/reports/")

    assert page.status_code == 503 and page["Retry-After"] == str(RETRY_AFTER)
    assert "Back in a moment" in page.content.decode()
    assert page["Content-Type"].startswith("text/html")


def test_any_other_api_failure_is_a_json_500_without_retry_after(signed_in, monkeypatch):
    monkeypatch.setattr(reports_api, "visible", failing(RuntimeError("a bug")))

    answer = signed_in.get("/api/reports/")

    assert answer.status_code == 500 and answer.json() == {"detail": SERVER_ERROR, "errors": {}}
    assert "Retry-After" not in answer


@pytest.mark.parametrize("path", ["/api/nothing-here/", "/api/paytables/1%2F2/"])
def test_an_api_address_that_does_not_exist_is_the_apis_json_404(client, auditor, path):
    client.force_login(auditor)

    answer = client.get(path)

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["detail"].startswith("no API address /api/")
    assert answer.json()["errors"] == {}


def test_a_page_that_does_not_exist_is_djangos_404_page(client, auditor):
    client.force_login(auditor)

    answer = client.get("/no-such-page/")

    assert answer.status_code == 404 and answer["Content-Type"].startswith("text/html")
