"""Every PDF the portal makes embeds every font it uses, so it prints the same on any
reader (§ 811a.9's reports, § 812a.11's statements, § 617b.8(f)'s PAR sheets): the report
PDFs of each kind, a player's statement and a paytable's PAR sheet. A font named on a page
without its file (ReportLab's Helvetica, even unused) is a failure."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from portal.compliance.presenters.par import par_sheet
from portal.compliance.presenters.par_pdf import write_par_pdf
from portal.core.padates import pa_today
from portal.game.models import GamingAccount
from portal.game.money.statements import statement, statement_pdf_bytes
from portal.reports import render
from portal.reports.account_summary import account_summary
from portal.reports.audit_report import audit_report
from portal.reports.expiry import expiry_report
from tests.portal.factories import make_paytable
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db


def fonts(data: bytes) -> dict[str, bool]:
    """Each font the PDF's pages name, and whether its file is embedded."""
    found: dict[str, bool] = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in (page.get("/Resources", {}).get("/Font") or {}).values():
            font = font.get_object()
            described = font
            if font.get("/Subtype") == "/Type0":
                described = font["/DescendantFonts"][0].get_object()
            descriptor = described.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font.get("/BaseFont"))] = embedded
    return found


def report_pdf(document: dict) -> bytes:
    out = io.BytesIO()
    render.FORMATS["pdf"][0](document, out)
    return out.getvalue()


@pytest.fixture
def played(funded_player, live_offering):
    play_round(funded_player, live_offering, "every-pdf-round")
    return funded_player


def test_811a9_every_report_pdf_embeds_every_font_it_uses(played):
    today = pa_today()
    for document in (
        expiry_report(as_of=today),
        audit_report(start=today, end=today),
        account_summary(day=today),
    ):
        used = fonts(report_pdf(document))
        assert used, document["title"]
        assert all(used.values()), (document["title"], used)


def test_812a11_a_statement_pdf_embeds_every_font_it_uses(played):
    account = GamingAccount.objects.get(player=played)
    used = fonts(statement_pdf_bytes(statement(account, pa_today(), pa_today())))

    assert used and all(used.values()), used


def test_617b8_f_a_par_sheet_pdf_embeds_every_font_it_uses(manager_a, holder_a):
    out = io.BytesIO()
    write_par_pdf(par_sheet(make_paytable(manager_a, holder_a)), out)
    used = fonts(out.getvalue())

    assert used and all(used.values()), used
