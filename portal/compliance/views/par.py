"""A paytable's PAR sheet as a download: JSON (exact figures as "n/d" text), CSV and PDF
(for people: percentages and dollars). The stakes are the sheet's own (a table's, or every even
stake up to its stated maximum) unless the query names them (``unit``, ``lowest``,
``highest``, in cents)."""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.compliance.models import Paytable
from portal.compliance.presenters.par import checked_sheet, par_csv_lines, stakes_asked
from portal.compliance.presenters.par_pdf import write_par_pdf
from portal.core.csv_export import csv_response
from portal.core.pages import domain_errors
from portal.core.replica import reads_from_replica


def sheet_of(request: HttpRequest, pk: int) -> dict:
    paytable = visible_or_404(request.user, Paytable.objects.all(), pk, Action.VIEW)
    return checked_sheet(paytable, stakes_asked(request.GET))


def _name(sheet: dict) -> str:
    name = f"par-sheet-{sheet['paytable']['name']}-v{sheet['paytable']['version']}"
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name).lower()


@login_required
@require_safe
@domain_errors
@reads_from_replica
def paytable_par_json(request: HttpRequest, pk: int) -> HttpResponse:
    return JsonResponse(sheet_of(request, pk))


@login_required
@require_safe
@domain_errors
@reads_from_replica
def paytable_par_csv(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = sheet_of(request, pk)
    return csv_response(par_csv_lines(sheet), f"{_name(sheet)}.csv")


@login_required
@require_safe
@domain_errors
@reads_from_replica
def paytable_par_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = sheet_of(request, pk)
    out = io.BytesIO()
    write_par_pdf(sheet, out)
    response = HttpResponse(out.getvalue(), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{_name(sheet)}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
