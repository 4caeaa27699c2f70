"""Staff pages and emails name a reading by its title, linked to the Regulation page; the
stored text keeps its id (the availability log and the audit trail are append-only)."""

from __future__ import annotations

import pytest

from portal.compliance.models import AvailabilityChange
from portal.core.readings import readings_linked, readings_named
from tests.portal.factories import approved_offering

pytestmark = pytest.mark.django_db

OPENED = "every approval it runs on is live (§ 617b.8(a), reading:live-offering)"


def test_a_reading_id_in_text_becomes_its_title_linked_to_the_regulation_page():
    html = readings_linked(OPENED + " <b>")

    assert 'href="/regulation/#clause-readinglive-offering"' in html
    assert "the reading “A table is live only while everything it runs on is approved" in html
    assert "reading:live-offering" not in html
    assert "&lt;b&gt;" in html  # everything else escaped
    unknown = "see reading:" + "unregistered"  # an id the register does not hold stays as it is
    assert readings_named(unknown) == unknown
    assert "reading:" not in readings_named(OPENED)


def test_the_availability_log_shows_the_readings_title_and_keeps_its_id(
    login, auditor, manager_a, officer, holder_a
):
    approved_offering(manager_a, officer, holder_a)
    stored = list(AvailabilityChange.objects.values_list("reason", flat=True))
    page = login(auditor).get("/compliance/availability/").content.decode()

    assert any("reading:live-offering" in reason for reason in stored)  # stored as it was
    assert "reading:live-offering" not in page
    assert 'class="reading">the reading “A table is live only while' in page
