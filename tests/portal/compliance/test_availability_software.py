"""The game availability log names the game software in force at each change
(§ 811a.7(f)(2)): its row, its audit event, its page, its CSV and the API."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import transaction
from django.utils import timezone

from portal.audit.services import audit_record
from portal.compliance.models import AvailabilityCause, AvailabilityChange
from portal.compliance.services.layouts import layout_withdraw
from portal.core.software import SoftwareIdentity, running_identity
from portal.software.services.installations import software_installed

pytestmark = pytest.mark.django_db


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def _closing(offering, software: str = "") -> AvailabilityChange:
    """A closing written as it stands in the log: by default one written before the software
    was recorded (its identity blank)."""
    with transaction.atomic():
        event = audit_record(
            actor=None, action="offering.closed", object_type="offering", object_id=offering.pk
        )
        return AvailabilityChange.objects.create(
            offering=offering,
            holder_id=offering.holder_id,
            opened=False,
            at=timezone.now(),
            cause=AvailabilityCause.APPROVAL_WITHDRAWN,
            reason="Recalled",
            audit_event=event,
            software_identity=software,
        )


@pytest.mark.clause("811a.7(f)(2)", kind="proves")
def test_811a7_f_2_every_change_names_the_software_running_when_it_was_recorded(
    live_offering, officer
):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")

    changes = AvailabilityChange.objects.filter(offering=live_offering).select_related(
        "audit_event"
    )
    assert changes.count() == 2
    for change in changes:
        assert change.software_identity == running_identity().digest
        assert change.audit_event.after["software_identity"] == running_identity().digest


@pytest.mark.clause("811a.7(f)(2)", kind="proves")
def test_811a7_f_2_the_page_csv_and_api_show_the_game_software_or_that_it_was_not_recorded(
    client, live_offering, auditor
):
    _closing(live_offering)
    client.force_login(auditor)
    short = running_identity().short

    page = client.get("/compliance/availability/").content.decode()
    api = client.get("/api/availability/").json()["results"]
    api_csv = _csv(client.get("/api/availability/export/"))
    page_csv = _csv(client.get("/compliance/availability/export.csv"))

    rows = page.split("<tbody>")[1].split("<tr>")[1:]
    assert "Game software" in page
    assert "not recorded" in rows[0] and short in rows[1]
    assert [(r["software"], r["software_digest"]) for r in api] == [
        ("not recorded", ""),
        (short, running_identity().digest),
    ]
    software, digest = api_csv[0].index("software"), api_csv[0].index("software_digest")
    assert [(r[software], r[digest]) for r in api_csv[1:]] == [
        (short, running_identity().digest),
        ("not recorded", ""),
    ]
    assert page_csv[0][software] == "Software" and page_csv[0][digest] == "Software digest"


@pytest.mark.clause("811a.7(f)(2)", kind="related")
def test_811a7_f_2_a_digest_is_named_by_the_version_its_installation_recorded(
    client, live_offering, auditor
):
    other = SoftwareIdentity(version="0.9.0", digest="c" * 64, files=())
    software_installed(host="web-1", deployed_by="Dana", identity=other)
    _closing(live_offering, software=other.digest)
    client.force_login(auditor)

    api = client.get("/api/availability/").json()["results"]

    assert api[0]["software"] == "0.9.0 (cccccccccccc)"
