"""The software approvals' pages (§ 461a.4, reading:software-approval): an officer records
an approval with its letter, another approves it, the tables open; auditors read it all;
bad input and a wrong role change nothing."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from portal.compliance.selectors import offering_is_live
from portal.core.software import running_identity
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from tests.portal.factories import approved_offering
from tests.portal.page_helpers import text
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n% the Executive Director's letter\n%%EOF\n"
S = SoftwareApprovalStatus


def record(client, **fields):
    identity = running_identity()
    given = {
        "digest": identity.digest,
        "software_version": identity.version,
        "lab_reference": "BGLO-2026-117",
        "approved_on": "2026-11-30",
        "document": SimpleUploadedFile("letter.pdf", PDF, "application/pdf"),
    } | fields
    return client.post(
        "/compliance/software/new/", {k: v for k, v in given.items() if v is not None}
    )


@pytest.fixture
def dark_table(manager_a, officer, officer2, holder_a):
    """A table whose only missing approval is the running software's (withdrawn)."""
    table = approved_offering(manager_a, officer, holder_a)
    approval = SoftwareApproval.objects.get(status=S.APPROVED)
    approval.status = S.WITHDRAWN  # as if withdrawn; the decision is tested on its own
    approval.save()
    assert not offering_is_live(table).live
    return table


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_an_officer_records_the_approval_and_another_approves_it_on_the_pages(
    login, dark_table, officer, officer2, auditor
):
    listing = text(login(officer).get("/compliance/software/"))
    assert "Not approved: every table is closed" in listing
    assert running_identity().digest in listing

    recorded = record(login(officer))
    assert recorded.status_code == 302
    approval = SoftwareApproval.objects.get(status=S.DRAFT)
    own = text(login(officer).get(recorded["Location"]))
    assert "decided by an officer other than who drafted it" in own
    assert 'value="approve"' not in own

    page = text(login(officer2).get(recorded["Location"]))
    assert 'value="approve"' in page
    assert "Approve opens 1 table that waits only for it" in page and "Table 1" in page
    decided = login(officer2).post(recorded["Location"], {"step": "approve", "reason": "Checked"})

    assert decided.status_code == 302
    approval.refresh_from_db()
    assert (approval.status, approval.decided_by) == (S.APPROVED, officer2)
    assert offering_is_live(dark_table).live
    read = login(auditor)
    detail = text(read.get(recorded["Location"]))
    assert "BGLO-2026-117" in detail and 'value="withdraw"' not in detail
    assert not developer_words(shown_text(detail, apart=True))
    letter = read.get(f"/compliance/software/{approval.pk}/document/")
    assert letter.status_code == 200 and b"".join(letter.streaming_content) == PDF


@pytest.mark.clause("461a.4", kind="cites-in-message")
def test_461a4_a_letter_that_is_not_a_pdf_is_400_on_its_field_and_nothing_is_stored(login, officer):
    refused = record(
        login(officer),
        document=SimpleUploadedFile("letter.pdf", b"GIF89a", "application/pdf"),
    )
    malformed = record(login(officer), digest="0123")

    assert refused.status_code == malformed.status_code == 400
    assert "The approval document must be a PDF file" in text(refused)
    assert "64 characters, each 0–9 or a–f" in text(malformed)
    assert 'class="error-summary"' in text(refused)
    assert not SoftwareApproval.objects.exists()


def test_461a4_a_forged_step_or_a_wrong_role_changes_nothing(login, officer, officer2, auditor):
    record(login(officer))
    approval = SoftwareApproval.objects.get()
    url = f"/compliance/software/{approval.pk}/"

    forged = login(officer2).post(url, {"step": "publish"})
    by_auditor = login(auditor).post(url, {"step": "approve"})

    assert forged.status_code == 400 and "There is no step “publish”" in text(forged)
    assert by_auditor.status_code == 403
    approval.refresh_from_db()
    assert approval.status == S.DRAFT
