"""The demo's approval of the game software it runs (§ 461a.4, reading:software-approval):
so that `make run` plays, one officer drafts the approval of the running identity with a
made-up approval letter and the other approves it, through the real services. A demo
letter, said so on its face: no laboratory tested this build."""

from __future__ import annotations

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen.canvas import Canvas

from portal.compliance.services.software import software_approval_decide, software_approval_draft
from portal.core import pdf_fonts
from portal.core.padates import pa_today
from portal.core.software import SoftwareIdentity, running_identity

DEMO_REFERENCE = "BGLO-DEMO-0001"


def demo_letter(identity: SoftwareIdentity) -> bytes:
    """A one-page letter naming the identity, marked as a demonstration."""
    regular, bold = pdf_fonts.register()
    out = io.BytesIO()
    page = Canvas(out, pagesize=LETTER, invariant=True)
    page.setTitle("Demonstration approval of the game software")
    page.setFont(bold, 14)
    page.drawString(72, 700, "Demonstration only: not an approval by the Board")
    page.setFont(regular, 11)
    lines = (
        "Jinzi Roulette game software, version " + identity.version,
        "SHA-256 " + identity.digest,
        "Laboratory reference " + DEMO_REFERENCE,
        "This letter stands in for the Executive Director's approval in the demo data.",
    )
    for number, line in enumerate(lines):
        page.drawString(72, 670 - 18 * number, line)
    page.showPage()
    page.save()
    return out.getvalue()


def approve_running_software(drafted_by, decided_by):
    """Draft and approve the running identity (two officers)."""
    identity = running_identity()
    letter = SimpleUploadedFile("approval.pdf", demo_letter(identity), "application/pdf")
    draft = software_approval_draft(
        actor=drafted_by,
        digest=identity.digest,
        software_version=identity.version,
        lab_reference=DEMO_REFERENCE,
        approved_on=pa_today(),
        document=letter,
    )
    return software_approval_decide(
        actor=decided_by, approval_id=draft.pk, step="approve", reason="Demo data"
    )
