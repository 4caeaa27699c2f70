"""Rules submission pages (§ 601a.2, § 617b.8(a)): the games a holder lists, with limits."""

from __future__ import annotations

import contextlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_safe

import jinzi
from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.compliance.forms import RulesApproveForm, RulesSubmissionForm
from portal.compliance.models import Layout, Paytable, RecordStatus, RulesSubmission
from portal.compliance.presenters.diffs import LISTING_AMOUNTS
from portal.compliance.services import rules as rules_services
from portal.compliance.views import records
from portal.compliance.views.common import (
    acting_holder,
    choosable,
    form_page,
    holder_choices,
)
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.compliance.zero_edges import listings_zero_edges
from portal.core.errors import ValidationFailed
from portal.core.money import dollars
from portal.core.pages import domain_errors


def listed_games(submission: RulesSubmission) -> dict:
    games = submission.games.select_related("paytable", "layout").order_by("game")
    rows = [
        {
            "listing": listing,
            "amounts": [
                (label, getattr(listing, field), dollars(getattr(listing, field)))
                for field, label in LISTING_AMOUNTS
            ],
        }
        for listing in games
    ]
    found = {"games": rows}
    if submission.status == RecordStatus.SUBMITTED:
        # What an approval would leave at an edge of zero or less, to acknowledge
        # (reading:edge-acknowledgement); a listing that does not read is refused on approval.
        with contextlib.suppress(jinzi.JinziError):
            found["zero_edges"] = listings_zero_edges([row["listing"] for row in rows])
    return found


KIND = records.RecordKind(
    model=RulesSubmission,
    noun="rules submission",
    url="rules",
    plural="Rules submissions",
    approve_form=RulesApproveForm,
    detail_template="compliance/rules/detail.html",
    describe=listed_games,
)


@login_required
@require_safe
@domain_errors
def rules_list(request: HttpRequest) -> HttpResponse:
    return records.list_page(request, KIND)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def rules_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return records.detail_page(request, KIND, pk)


def _form(request: HttpRequest, **kwargs) -> RulesSubmissionForm:
    data = (request.POST,) if request.method == "POST" else ()
    return RulesSubmissionForm(
        *data,
        paytables=choosable(request.user, Paytable),
        layouts=choosable(request.user, Layout),
        **kwargs,
    )


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def rules_create(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    form = _form(request, holders=holder_choices(request.user), creating=True)
    if form.is_bound and form.is_valid():
        try:
            submission = rules_services.rules_submission_create(
                actor=request.user,
                holder=acting_holder(request.user, form),
                **form.service_fields(),
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Rules submission {submission.title!r} drafted.")
            return redirect("compliance:rules-detail", submission.pk)
    return form_page(request, "compliance/rules/form.html", {"form": form, "submission": None})


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def rules_edit(request: HttpRequest, pk: int) -> HttpResponse:
    submission = visible_or_404(request.user, RulesSubmission.objects.all(), pk, Action.DRAFT)
    RECORD_WORKFLOW.expect_status(submission, RECORD_WORKFLOW["edit"])
    listing = submission.games.first()
    initial = {
        "title": submission.title,
        "notes": submission.notes,
        "effective_date": submission.effective_date,
        "expiry_date": submission.expiry_date,
    }
    if listing is not None:
        initial.update({name: getattr(listing, name) for name, _ in LISTING_AMOUNTS})
        initial.update(paytable=listing.paytable_id, layout=listing.layout_id)
    form = _form(request, initial=initial)
    if form.is_bound and form.is_valid():
        try:
            rules_services.rules_submission_update(
                actor=request.user, submission=submission, **form.service_fields()
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Rules submission {submission.title!r} saved.")
            return redirect("compliance:rules-detail", submission.pk)
    context = {"form": form, "submission": submission}
    return form_page(request, "compliance/rules/form.html", context)
