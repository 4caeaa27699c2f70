"""The game software's approvals (§ 461a.4, reading:software-approval): the list with the
software this server runs, a form to record an approval, and each approval's page where a
second officer decides it, or withdraws it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.audit.models import AuditEvent
from portal.compliance.services.software import software_approval_decide, software_approval_draft
from portal.compliance.software_impact import software_impact
from portal.compliance.views.common import form_page
from portal.core.errors import Conflict, ValidationFailed
from portal.core.forms import ServiceForm
from portal.core.pages import domain_errors
from portal.core.software import running_identity
from portal.software.models import SoftwareApproval
from portal.software.selectors import approval_of
from portal.software.workflow import WORKFLOW

DRAFTED = "The software approval is drafted: another officer decides it."


class DraftForm(ServiceForm):
    digest = forms.CharField(
        label="Identity (SHA-256 digest)",
        max_length=200,
        help_text="64 characters, 0–9 and a–f; this server's own is filled in.",
    )
    software_version = forms.CharField(label="Software version", max_length=200)
    lab_reference = forms.CharField(label="Laboratory's reference", max_length=200)
    approved_on = forms.CharField(
        label="Date of the Executive Director's approval",
        max_length=40,
        help_text="Like 2026-11-30.",
    )
    document = forms.FileField(label="Approval document (PDF)")


class DecisionForm(ServiceForm):
    step = forms.CharField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label="Reason", required=False, widget=forms.Textarea(attrs={"rows": 3}), max_length=4000
    )


@login_required
@require_safe
@domain_errors
def approval_list(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.VIEW_AUDIT)
    identity = running_identity()
    context = {
        "approvals": SoftwareApproval.objects.select_related("created_by", "decided_by"),
        "identity": identity,
        "running_approval": approval_of(identity.digest),
        "may_record": policy.may(request.user, Action.RECORD_SOFTWARE),
    }
    return render(request, "compliance/software/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def approval_create(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.RECORD_SOFTWARE)
    identity = running_identity()
    if request.method == "POST":
        form = DraftForm(request.POST, request.FILES)
    else:
        form = DraftForm(initial={"digest": identity.digest, "software_version": identity.version})
    if form.is_bound and form.is_valid():
        try:
            approval = software_approval_draft(actor=request.user, **form.cleaned_data)
        except ValidationFailed as error:
            form.add_service_error(error)
        except Conflict as error:
            form.add_error(None, error.message)
            return render(request, "compliance/software/new.html", {"form": form}, status=409)
        else:
            messages.success(
                request, "The software approval is drafted: another officer decides it."
            )
            return redirect("compliance:software-detail", approval.pk)
    return form_page(request, "compliance/software/new.html", {"form": form})


def _page(request, approval: SoftwareApproval, form=None, status: int = 200) -> HttpResponse:
    available = WORKFLOW.available(request.user, approval)
    steps = [step for step in WORKFLOW.posted_steps if step.name in available]
    history = AuditEvent.objects.filter(
        object_type=SoftwareApproval.kind, object_id=str(approval.pk)
    ).order_by("sequence")
    context = {
        "approval": approval,
        "steps": steps,
        "impacts": [(step, software_impact(approval, step.name)) for step in steps],
        "form": form or DecisionForm(),
        "history": history,
        "running": approval.digest == running_identity().digest,
        "refusal": WORKFLOW.refusal(approval, request.user),
    }
    return render(request, "compliance/software/detail.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def approval_detail(request: HttpRequest, pk: int) -> HttpResponse:
    policy.require(request.user, Action.VIEW_AUDIT)
    approval = get_object_or_404(SoftwareApproval, pk=pk)
    if request.method != "POST":
        return _page(request, approval)
    policy.require(request.user, Action.RECORD_SOFTWARE)
    form = DecisionForm(request.POST)
    if form.is_valid():
        try:
            decided = software_approval_decide(
                actor=request.user,
                approval_id=approval.pk,
                step=form.cleaned_data["step"],
                reason=form.cleaned_data["reason"],
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        except Conflict as error:
            form.add_error(None, error.message)
            return _page(request, approval, form, status=409)
        else:
            messages.success(request, f"Software approval {decided.get_status_display().lower()}.")
            return redirect("compliance:software-detail", decided.pk)
    return _page(request, approval, form, status=400)


@login_required
@require_safe
@domain_errors
def approval_document(request: HttpRequest, pk: int) -> FileResponse:
    policy.require(request.user, Action.VIEW_AUDIT)
    approval = get_object_or_404(SoftwareApproval, pk=pk)
    name = f"software-approval-{approval.pk}.pdf"
    return FileResponse(
        approval.document.open("rb"),
        as_attachment=True,
        filename=name,
        content_type="application/pdf",
    )
