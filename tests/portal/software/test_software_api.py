"""``/api/software-approvals/`` (§ 461a.4, reading:software-approval): recorded as a
multipart form with the letter, decided by another officer, read by auditors."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from portal.core.software import running_identity
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus

pytestmark = pytest.mark.django_db

URL = "/api/software-approvals/"
PDF = b"%PDF-1.4\n% letter\n%%EOF\n"


def body(**fields) -> dict:
    identity = running_identity()
    return {
        "digest": identity.digest,
        "software_version": identity.version,
        "lab_reference": "BGLO-2026-200",
        "approved_on": "2026-11-30",
        "document": SimpleUploadedFile("letter.pdf", PDF, "application/pdf"),
    } | fields


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_api_an_officer_records_another_approves_an_auditor_reads(
    api_as, officer, officer2, auditor
):
    created = api_as(officer).post(URL, body(), format="multipart")

    assert created.status_code == 201, created.json()
    record = created.json()
    assert (record["status"], record["running"], record["created_by"]) == ("draft", True, "officer")
    own = api_as(officer).post(f"{URL}{record['id']}/approve/", {}, format="json")
    assert own.status_code == 403
    approved = api_as(officer2).post(
        f"{URL}{record['id']}/approve/", {"reason": "Letter checked"}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    assert (approved.json()["status"], approved.json()["decided_by"]) == ("approved", "officer2")
    listed = api_as(auditor).get(URL).json()["results"]
    assert [r["id"] for r in listed] == [record["id"]]


@pytest.mark.clause("461a.4", kind="cites-in-message")
def test_461a4_api_bad_input_is_400_and_a_second_draft_409_with_nothing_stored(
    api_as, officer, officer2
):
    not_pdf = api_as(officer).post(
        URL, body(document=SimpleUploadedFile("x.pdf", b"PNG", "application/pdf")), "multipart"
    )
    malformed = api_as(officer).post(URL, body(digest="xyz"), format="multipart")
    assert not_pdf.status_code == malformed.status_code == 400
    assert "must be a PDF" in str(not_pdf.json())
    assert "64 characters" in str(malformed.json())
    assert not SoftwareApproval.objects.exists()

    assert api_as(officer).post(URL, body(), format="multipart").status_code == 201
    again = api_as(officer2).post(URL, body(), format="multipart")
    assert again.status_code == 409 and "already has an approval" in str(again.json())
    assert SoftwareApproval.objects.filter(status=SoftwareApprovalStatus.DRAFT).count() == 1
