"""Offering pages: the Jinzi Roulette tables a holder runs, and whether each is live."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.compliance import messages as msg
from portal.compliance import selectors
from portal.compliance.filtersets import OfferingFilter
from portal.compliance.forms import OfferingForm, ReasonForm
from portal.compliance.models import Layout, Offering, OfferingStatus, Paytable, RulesSubmission
from portal.compliance.services import offerings as offering_services
from portal.compliance.unlisted import choice_notes
from portal.compliance.views.common import (
    acting_holder,
    choosable,
    form_page,
    holder_choices,
)
from portal.compliance.views.records import history_rows
from portal.core.errors import Conflict, DomainError, ValidationFailed
from portal.core.lists import csv_download, filtered_page, wants_csv
from portal.core.pages import domain_errors


def _form(request: HttpRequest, **kwargs) -> OfferingForm:
    data = (request.POST,) if request.method == "POST" else ()
    user = request.user
    return OfferingForm(
        *data,
        rules=choosable(user, RulesSubmission),
        layouts=choosable(user, Layout),
        paytables=choosable(user, Paytable),
        **kwargs,
    )


def _notes(request: HttpRequest, form: OfferingForm):
    """Why the form offers fewer layouts or paytables than the holder may expect."""
    offered = {name: form.fields[name].queryset for name in ("layout", "paytable")}
    return choice_notes(request.user, offered=offered, submission=form.submission)


def _render_detail(
    request: HttpRequest,
    offering: Offering,
    retire_form: ReasonForm | None = None,
    refusal: str = "",
    status=200,
) -> HttpResponse:
    may_change = offering.status != OfferingStatus.RETIRED and policy.may(
        request.user, Action.DRAFT, offering
    )
    if retire_form is None and may_change:
        retire_form = ReasonForm(auto_id="id_retire_%s")
    tab = "history" if request.GET.get("tab") == "history" else "details"
    context = {
        "offering": offering,
        "liveness": selectors.offering_is_live(offering),
        "may_change": may_change,
        "retire_form": retire_form,
        "tab": tab,
        "history": history_rows(offering) if tab == "history" else None,
        "refused": refusal,
    }
    return render(request, "compliance/offerings/detail.html", context, status=status)


@login_required
@require_safe
@domain_errors
def offering_list(request: HttpRequest) -> HttpResponse:
    """The offerings the user may see, each saying whether it is live now and, if not, why."""
    policy.require(request.user, Action.VIEW)
    offerings = policy.visible(request.user, selectors.offerings_with_parts())
    listing = OfferingFilter.for_page(request, offerings)
    if wants_csv(request) and listing.is_valid():
        return csv_download(listing.qs, listing.columns, "offerings")
    page, status = filtered_page(request, listing)
    now = timezone.now()
    rows = [(offering, selectors.offering_is_live(offering, at=now)) for offering in page]
    context = {
        "filter": listing,
        "columns": listing.columns,
        "page": page,
        "rows": rows,
        "may_draft": policy.may(request.user, Action.DRAFT),
    }
    return render(request, "compliance/offerings/list.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def offering_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the offering. POST: its one step, ``step=retire``, on its own URL: done, back
    here (POST/redirect/GET); refused, this page with the error in place and its 4xx."""
    if request.method == "POST":
        return _retire(request, pk)
    offering = visible_or_404(request.user, selectors.offerings_with_parts(), pk)
    return _render_detail(request, offering)


@login_required
@require_safe
@domain_errors
def offering_listed(request: HttpRequest) -> HttpResponse:
    """The layout and paytable selects for the rules submission chosen so far: only what it
    lists (§ 601a.2). htmx swaps them into the offering form when the submission changes."""
    policy.require(request.user, Action.DRAFT)
    initial = {
        name: request.GET.get(name, "") for name in ("rules_submission", "layout", "paytable")
    }
    user = request.user
    form = OfferingForm(
        initial=initial,
        rules=choosable(user, RulesSubmission),
        layouts=choosable(user, Layout),
        paytables=choosable(user, Paytable),
        holders=holder_choices(user),
    )
    context = {"form": form, "notes": _notes(request, form)}
    return render(request, "compliance/offerings/_listed_choices.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def offering_create(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    form = _form(request, holders=holder_choices(request.user), creating=True)
    if form.is_bound and form.is_valid():
        try:
            offering = offering_services.offering_create(
                actor=request.user,
                holder=acting_holder(request.user, form),
                **form.service_fields(),
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Offering {offering.name!r} set up.")
            return redirect("compliance:offering-detail", offering.pk)
    context = {"form": form, "offering": None, "notes": _notes(request, form)}
    return form_page(request, "compliance/offerings/form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def offering_edit(request: HttpRequest, pk: int) -> HttpResponse:
    offering = visible_or_404(request.user, Offering.objects.all(), pk, Action.DRAFT)
    if offering.status == OfferingStatus.RETIRED:
        raise Conflict(msg.OFFERING_RETIRED.format(name=offering.name))
    initial = {
        "name": offering.name,
        "rules_submission": offering.rules_submission_id,
        "layout": offering.layout_id,
        "paytable": offering.paytable_id,
    }
    form = _form(request, initial=initial)
    if form.is_bound and form.is_valid():
        try:
            offering_services.offering_update(
                actor=request.user, offering=offering, **form.service_fields()
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Offering {form.cleaned_data['name']!r} saved.")
            return redirect("compliance:offering-detail", offering.pk)
    context = {"form": form, "offering": offering, "notes": _notes(request, form)}
    return form_page(request, "compliance/offerings/form.html", context)


def _retire(request: HttpRequest, pk: int) -> HttpResponse:
    offering = visible_or_404(request.user, selectors.offerings_with_parts(), pk)
    step = request.POST.get("step", "")
    try:
        if step != "retire":
            raise ValidationFailed(f"There is no step “{step}” for an offering.")
        policy.require(request.user, Action.DRAFT, offering)
        form = ReasonForm(request.POST, auto_id="id_retire_%s")
        if form.is_valid():
            try:
                offering_services.offering_retire(
                    actor=request.user, offering=offering, reason=form.cleaned_data["reason"]
                )
            except ValidationFailed as error:
                form.add_service_error(error)
            else:
                messages.success(request, f"Offering {offering.name!r} retired.")
                return redirect("compliance:offering-detail", offering.pk)
    except DomainError as error:
        # Refused as a whole: the offering as it stands, the refusal above it, its status.
        offering = selectors.offerings_with_parts().get(pk=pk)
        return _render_detail(request, offering, refusal=error.message, status=error.http_status)
    return _render_detail(request, offering, retire_form=form, status=400)
