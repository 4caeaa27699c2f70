"""The holders' terms and conditions pages (§ 811a.3): the plain text players read and accept
(§ 812a.5), drafted by the holder's manager and decided by a compliance officer."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.access.roles import holder_id_of
from portal.compliance.forms import TermsApproveForm, TermsForm
from portal.compliance.models import TermsAndConditions
from portal.compliance.services import terms as terms_services
from portal.compliance.views import records
from portal.compliance.views.common import acting_holder, form_page, holder_choices
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.core.errors import Conflict, ValidationFailed
from portal.core.pages import domain_errors

TEMPLATE = "compliance/terms/form.html"


def describe(terms: TermsAndConditions) -> dict:
    """How long the text is, of the most it may be."""
    return {
        "characters": len(terms.body),
        "characters_shown": f"{len(terms.body):,}",
        "most_characters": f"{TermsAndConditions.MAX_BODY:,}",
    }


KIND = records.RecordKind(
    model=TermsAndConditions,
    noun="terms and conditions",
    url="terms",
    plural="Terms and conditions",
    approve_form=TermsApproveForm,
    detail_template="compliance/terms/detail.html",
    describe=describe,
    runs_tables=False,
)


@login_required
@require_safe
@domain_errors
def terms_list(request: HttpRequest) -> HttpResponse:
    return records.list_page(request, KIND)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def terms_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return records.detail_page(request, KIND, pk)


def _own_existing(user) -> TermsAndConditions | None:
    """The terms a manager's holder already keeps: the page says to amend them instead."""
    own = holder_id_of(user)
    return terms_services.existing_terms(own) if own is not None else None


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def terms_create(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    data = (request.POST,) if request.method == "POST" else ()
    form = TermsForm(*data, holders=holder_choices(request.user))
    context = {"form": form, "terms": None, "existing": _own_existing(request.user)}
    if form.is_bound and form.is_valid():
        try:
            terms = terms_services.terms_create(
                actor=request.user,
                holder=acting_holder(request.user, form),
                **form.service_fields(),
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        except Conflict as error:
            # The holder keeps its terms already (§ 811a.3): nothing stored, the way to amend.
            form.add_error(None, error.message)
            return render(request, TEMPLATE, context, status=error.http_status)
        else:
            messages.success(request, f"Terms and conditions {terms.title!r} drafted.")
            return redirect("compliance:terms-detail", terms.pk)
    return form_page(request, TEMPLATE, context)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def terms_edit(request: HttpRequest, pk: int) -> HttpResponse:
    terms = visible_or_404(request.user, TermsAndConditions.objects.all(), pk, Action.DRAFT)
    RECORD_WORKFLOW.expect_status(terms, RECORD_WORKFLOW["edit"])
    data = (request.POST,) if request.method == "POST" else ()
    form = TermsForm(*data, initial={"title": terms.title, "body": terms.body})
    if form.is_bound and form.is_valid():
        try:
            terms_services.terms_update(actor=request.user, terms=terms, **form.service_fields())
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Terms and conditions {terms.title!r} saved.")
            return redirect("compliance:terms-detail", terms.pk)
    return form_page(request, TEMPLATE, {"form": form, "terms": terms, "existing": None})
