"""Paytable pages (§ 617b.8(f)): odds per wager kind, the exact house edge, a live preview."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import jinzi
from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.compliance.forms import PaytableApproveForm, PaytableForm
from portal.compliance.models import Paytable, RecordStatus
from portal.compliance.presenters.edge import edge_report
from portal.compliance.presenters.par import par_sheet
from portal.compliance.services import paytables as paytable_services
from portal.compliance.views import records
from portal.compliance.views.common import acting_holder, form_page, holder_choices
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.compliance.zero_edges import paytable_zero_edges
from portal.core.errors import ValidationFailed
from portal.core.pages import domain_errors


def edge_context(odds) -> dict:
    """The edge table of ``odds`` (stored or typed form), or why it cannot be computed: the
    edges as paid, each return rounded up, over every even stake from 2 cents
    (reading:round-up), so the page, the live preview and approval flag the same spots."""
    try:
        report = edge_report(jinzi.Paytable.from_dict(odds))
    except jinzi.JinziError as error:
        return {"report": None, "edge_error": str(error)}
    minimums = {kind.value: jinzi.format_odds(jinzi.MINIMUM_ODDS[kind]) for kind in jinzi.WagerKind}
    return {
        "report": report,
        "edge_rows": [(row, minimums[row.kind]) for row in report.rows],
        "edge_error": "",
    }


def describe(paytable: Paytable) -> dict:
    context = edge_context(paytable.odds)
    if context["report"] is not None:  # odds the engine refuses give no PAR sheet either
        context["par"] = par_sheet(paytable)
        # The decision panel shows its key figures too, from this same sheet.
        context["decision_brief"] = "compliance/paytables/_par_brief.html"
    flagged = context["report"] is not None and context["report"].flagged
    # The override reason is asked for only where § 617b.8(f) flags the paytable.
    context["hide_fields"] = () if flagged else ("override_reason",)
    if flagged and paytable.status == RecordStatus.SUBMITTED:
        # The wagers an approval would leave at an edge of zero or less, to acknowledge
        # (reading:edge-acknowledgement).
        context["zero_edges"] = paytable_zero_edges(jinzi.Paytable.from_dict(paytable.odds))
    return context


KIND = records.RecordKind(
    model=Paytable,
    noun="paytable",
    url="paytable",
    plural="Paytables",
    approve_form=PaytableApproveForm,
    detail_template="compliance/paytables/detail.html",
    describe=describe,
)


@login_required
@require_safe
@domain_errors
def paytable_list(request: HttpRequest) -> HttpResponse:
    return records.list_page(request, KIND)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def paytable_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return records.detail_page(request, KIND, pk)


def _form_page(request: HttpRequest, form: PaytableForm, paytable: Paytable | None):
    if form.is_bound and form.odds_have_errors():
        # Each odds error is shown on its field; the preview does not repeat it.
        context = {"form": form, "paytable": paytable, "report": None, "edge_error": ""}
        return form_page(request, "compliance/paytables/form.html", context)
    odds = form.typed_odds(form.data) if form.is_bound else form.initial_odds()
    context = {"form": form, "paytable": paytable, **edge_context(odds)}
    return form_page(request, "compliance/paytables/form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def paytable_create(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    data = (request.POST,) if request.method == "POST" else ()
    form = PaytableForm(*data, holders=holder_choices(request.user))
    if form.is_bound and form.is_valid():
        try:
            paytable = paytable_services.paytable_create(
                actor=request.user,
                holder=acting_holder(request.user, form),
                name=form.cleaned_data["name"],
                odds=form.odds(),
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Paytable {paytable.name!r} drafted.")
            return redirect("compliance:paytable-detail", paytable.pk)
    return _form_page(request, form, None)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def paytable_edit(request: HttpRequest, pk: int) -> HttpResponse:
    paytable = visible_or_404(request.user, Paytable.objects.all(), pk, Action.DRAFT)
    RECORD_WORKFLOW.expect_status(paytable, RECORD_WORKFLOW["edit"])
    data = (request.POST,) if request.method == "POST" else ()
    form = PaytableForm(*data, initial={"name": paytable.name, **paytable.odds})
    if form.is_bound and form.is_valid():
        try:
            paytable_services.paytable_update(
                actor=request.user,
                paytable=paytable,
                name=form.cleaned_data["name"],
                odds=form.odds(),
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Paytable {paytable.name!r} saved.")
            return redirect("compliance:paytable-detail", paytable.pk)
    return _form_page(request, form, paytable)


@login_required
@require_POST
@domain_errors
def paytable_preview(request: HttpRequest) -> HttpResponse:
    """The edge table for the odds typed so far (htmx swaps it into the form), or every
    error in them, each as submitting the form would show it on its field."""
    policy.require(request.user, Action.DRAFT)
    form = PaytableForm(request.POST)
    form.is_valid()  # the odds are checked whatever else is missing yet
    if form.odds_have_errors():
        context = {"report": None, "edge_error": "", "odds_errors": form.odds_errors()}
    else:
        context = edge_context(form.odds())
    return render(request, "compliance/paytables/_edge_table.html", context)
