"""The Software Installation/Removal Log (§ 811a.7(e)) as auditors and compliance officers
read it: the page (Pennsylvania time, newest first, filters), its CSV and the API."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
import time_machine

from portal.core.software import SoftwareIdentity
from portal.software.services.installations import software_installed

pytestmark = pytest.mark.django_db

OLD = SoftwareIdentity(version="1.0.0", digest="a" * 64, files=())
NEW = SoftwareIdentity(version="1.1.0", digest="b" * 64, files=())
# 2026-03-02 15:00 UTC is 10:00 EST; 2026-07-01 14:30 UTC is 10:30 EDT.
WINTER = datetime.datetime(2026, 3, 2, 15, 0, tzinfo=datetime.UTC)
SUMMER = datetime.datetime(2026, 7, 1, 14, 30, tzinfo=datetime.UTC)


@pytest.fixture
def history(db):
    with time_machine.travel(WINTER, tick=False):
        software_installed(host="web-1", deployed_by="", identity=OLD)
    with time_machine.travel(SUMMER, tick=False):
        software_installed(host="web-1", deployed_by="Release pipeline", identity=NEW)


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


@pytest.mark.clause("811a.7(e)", kind="proves")
def test_811a7_e_the_log_page_shows_each_change_newest_first_in_pennsylvania_time(
    client, auditor, history
):
    client.force_login(auditor)

    page = client.get("/software/installations/")

    text = page.content.decode()
    assert page.status_code == 200
    assert "Software installation log" in text
    rows = text.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    assert len(rows) == 3
    newest, removal, first = rows
    assert "2026-07-01 10:30:00 EDT" in newest and "Installed" in newest
    assert "1.1.0 (bbbbbbbbbbbb)" in newest and "Release pipeline" in newest
    assert "2026-07-01 10:30:00 EDT" in removal and "Removed" in removal
    assert "1.0.0 (aaaaaaaaaaaa)" in removal
    assert "2026-03-02 10:00:00 EST" in first and "web-1" in first
    assert "not recorded" in first  # no one was named as deploying it


@pytest.mark.clause("811a.7(e)", kind="related")
def test_811a7_e_the_log_filters_by_change_host_period_and_words(client, officer, history):
    client.force_login(officer)

    def count(**query) -> int:
        return client.get("/api/software/installations/", query).json()["count"]

    assert count() == 3
    assert count(change="removed") == 1
    assert count(change="installed") == 2
    assert count(host="web-2") == 0
    assert count(since="2026-07-01") == 2
    assert count(until="2026-03-02") == 1
    assert count(q="pipeline") == 2
    assert count(q="bbbbbbbbbbbb") == 1
    assert client.get("/software/installations/", {"change": "sometimes"}).status_code == 400
    assert client.get("/api/software/installations/", {"since": "2026-13-01"}).status_code == 400


@pytest.mark.clause("811a.7(e)", kind="proves")
def test_811a7_e_the_log_downloads_as_csv_for_people_and_for_programs(client, auditor, history):
    client.force_login(auditor)

    page_csv = _csv(client.get("/software/installations/export.csv", {"change": "installed"}))
    api_csv = _csv(client.get("/api/software/installations/export/"))

    assert page_csv[0][:3] == ["At (UTC)", "At (Pennsylvania time)", "Host"]
    assert page_csv[1][:4] == [
        WINTER.isoformat(),
        "2026-03-02 10:00:00 EST",
        "web-1",
        "1.0.0 (aaaaaaaaaaaa)",
    ]
    assert [row[5] for row in page_csv[1:]] == ["installed", "installed"]
    assert api_csv[0] == [
        "at_utc", "at_pa", "host", "software", "software_digest", "change", "deployed_by",
        "audit_sequence",
    ]  # fmt: skip
    assert [row[5] for row in api_csv[1:]] == ["installed", "removed", "installed"]
    assert api_csv[2][4] == OLD.digest and api_csv[2][6] == "Release pipeline"


@pytest.mark.clause("811a.7(e)", kind="related")
def test_811a7_e_the_api_lists_the_log_as_json_for_auditors_and_officers_only(
    api_as, auditor, officer, manager_a, player, history
):
    answer = api_as(auditor).get("/api/software/installations/").json()

    newest = answer["results"][0]
    assert newest["host"] == "web-1" and newest["change"] == "installed"
    assert newest["software"] == "1.1.0 (bbbbbbbbbbbb)"
    assert newest["software_version"] == "1.1.0" and newest["software_digest"] == NEW.digest
    assert newest["deployed_by"] == "Release pipeline"
    assert newest["at"].startswith("2026-07-01T10:30:00-04:00")
    assert api_as(officer).get("/api/software/installations/").status_code == 200
    assert api_as(manager_a).get("/api/software/installations/").status_code == 403
    assert api_as(player).get("/api/software/installations/").status_code == 403


def test_811a7_e_auditors_find_the_log_from_game_software_on_their_dashboard(
    client, auditor, manager_a
):
    client.force_login(auditor)
    assert 'href="/compliance/software/"' in client.get("/compliance/").content.decode()
    software = client.get("/compliance/software/").content.decode()
    assert 'href="/software/installations/"' in software
    client.force_login(manager_a)
    assert 'href="/software/installations/"' not in client.get("/compliance/").content.decode()
