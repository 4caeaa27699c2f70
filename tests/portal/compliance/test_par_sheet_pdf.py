"""A paytable's PAR sheet as a PDF: the same figures as its page, in words, "Page X of Y",
the same bytes for the same sheet; bad stakes and refused odds are 400 as for the CSV."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from portal.compliance.models import Paytable
from portal.compliance.presenters import par as par_presenter
from portal.compliance.presenters.par_pdf import write_par_pdf
from tests.portal.factories import approved_offering, make_paytable
from tests.portal.plain_words import developer_words
from tests.portal.reports.pdf_text import pdf_text

pytestmark = pytest.mark.django_db


def _read(data: bytes) -> str:
    """The PDF's text with its lines run together, as a reader reads it."""
    return " ".join(pdf_text(data).split())


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_the_par_sheet_pdf_carries_the_hand_figures_of_the_standard_paytable(
    login, manager_a, officer, holder_a
):
    table = approved_offering(manager_a, officer, holder_a)

    download = login(officer).get(f"/compliance/paytables/{table.paytable_id}/par.pdf")

    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == 'attachment; filename="par-sheet-standard-v1.pdf"'
    pages = PdfReader(io.BytesIO(download.content)).pages
    shown = _read(download.content)
    assert "PAR sheet: Standard v1" in shown
    # A straight up on 1–12: a win 1/13 of the time, the house keeping 1/26 of the stake.
    assert "Straight up no 12 7.6923 % 7.6923 % 84.6154 % 11 to 1 " in shown
    assert "3.8462 %" in shown and "96.1538 %" in shown and " to 1 to " not in shown
    assert "3.1893" in shown  # its standard deviation per unit staked, √(1719/169)
    assert "Chance of half back" in shown and "Standard deviation per unit staked" in shown
    assert "4.2899 %" in shown  # one unit on every spot holds 29/676
    assert "1,000,000" in shown and "95 % band" in shown
    assert f"Page 1 of {len(pages)}" in shown


def test_the_par_sheet_pdf_speaks_in_words_not_field_names(login, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a, name="Promo")
    sheet = par_presenter.par_sheet(paytable)

    shown = _read(login(manager_a).get(f"/compliance/paytables/{paytable.pk}/par.pdf").content)

    assert "no rules submission lists this paytable yet" in shown
    assert not developer_words(shown, cites_readings=True)
    keys = {key for line in sheet["lines"] for key in [*line, *line["shown"]]} | set(sheet)
    assert not [key for key in keys if "_" in key and key in shown]
    assert not re.search(r"\b(?:True|False|None)\b", shown)
    assert "Covers 0" in shown and " no " in f" {shown} "


def test_two_builds_of_the_same_par_sheet_are_the_same_bytes(login, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    sheet = par_presenter.par_sheet(paytable)
    first, second = io.BytesIO(), io.BytesIO()

    write_par_pdf(sheet, first)
    write_par_pdf(sheet, second)
    downloads = [
        login(manager_a).get(f"/compliance/paytables/{paytable.pk}/par.pdf").content
        for _ in range(2)
    ]

    assert first.getvalue().startswith(b"%PDF")
    assert first.getvalue() == second.getvalue()
    assert downloads[0] == downloads[1] == first.getvalue()


@pytest.mark.clause("reading:even-stakes", kind="cites-in-message")
@pytest.mark.parametrize("query", ["unit=3", "unit=2&lowest=10&highest=4", "lowest=-2"])
def test_the_par_sheet_pdf_at_stakes_that_are_not_even_cents_or_out_of_order_is_400(
    login, manager_a, holder_a, query
):
    paytable = make_paytable(manager_a, holder_a)

    refused = login(manager_a).get(f"/compliance/paytables/{paytable.pk}/par.pdf?{query}")

    assert refused.status_code == 400
    assert refused["Content-Type"] != "application/pdf"


def test_the_par_sheet_pdf_at_stakes_asked_for_says_so(login, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    url = f"/compliance/paytables/{paytable.pk}/par.pdf?unit=100&lowest=100&highest=50000"

    shown = _read(login(manager_a).get(url).content)

    assert "over the stakes asked for" in shown
    assert "$1.00 a spot, $52.00 a round" in shown and "$52,000.00" in shown  # 1,000 rounds


@pytest.mark.clause("617b.8(f)", kind="cites-in-message")
def test_617b8_f_a_drafts_odds_below_the_minimum_give_no_pdf_and_another_holder_404(
    login, manager_a, manager_b, holder_a
):
    paytable = make_paytable(manager_a, holder_a)
    Paytable.objects.filter(pk=paytable.pk).update(odds={**paytable.odds, "straight": "10"})

    refused = login(manager_a).get(f"/compliance/paytables/{paytable.pk}/par.pdf")
    hidden = login(manager_b).get(f"/compliance/paytables/{paytable.pk}/par.pdf")

    assert refused.status_code == 400 and "§ 617b.8(f)" in refused.content.decode()
    assert hidden.status_code == 404
