"""Admin views of compliance records: read-only; workflow actions call the services.

Drafts are written in the portal pages or the API, where the services' errors are
shown inline; the admin is for looking, and for moving records through the workflow.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse

from portal.access.workflow import Reason, Step
from portal.compliance import messages as msg
from portal.compliance.models import (
    Layout,
    ListedGame,
    Offering,
    Paytable,
    RulesSubmission,
    TermsAndConditions,
)
from portal.compliance.services import step_service
from portal.compliance.services.offerings import offering_retire
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.compliance.zero_edges import FIELD, ZeroEdges, zero_edges_of
from portal.core.admin import LookOnlyAdmin, LookOnlyInline
from portal.core.errors import DomainError


class ReasonForm(forms.Form):
    """A reason, which every step with a form takes (the services say when it is required)."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class LayoutApproveForm(ReasonForm):
    """What ``layout_approve`` takes: the Bureau's approval (§ 601a.10(a))."""

    reference_number = forms.CharField(required=False, help_text="§ 601a.10(a)")
    effective_date = forms.DateField(required=False, help_text="YYYY-MM-DD")
    expiry_date = forms.DateField(
        required=False, help_text=f"YYYY-MM-DD, not after {msg.SUNSET_TEXT}"
    )
    conditions = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class PaytableApproveForm(ReasonForm):
    """What ``paytable_approve`` takes: an override for a house edge ≤ 0 (§ 617b.8(f))."""

    override_reason = forms.CharField(
        required=False, help_text="Required when a wager's house edge is ≤ 0 (§ 617b.8(f))"
    )


def _form_for(modeladmin, step: Step) -> type[forms.Form] | None:
    """What a step asks in the admin: the kind's approval form, a reason, or nothing."""
    if step.verb == "approve":
        return modeladmin.approve_form
    return None if step.reason is Reason.NONE else ReasonForm


def _description(step: Step) -> str:
    with_reason = ", with reason" if step.reason is Reason.REQUIRED else ""
    four_eyes = " (four-eyes)" if step.four_eyes else ""
    return f"{step.label}{with_reason}{four_eyes}"


def _workflow_action(step: Step):
    """The admin action of one step of the records' workflow, on every selected record."""

    def action(modeladmin, request, queryset):
        data: dict = {}
        form_class = _form_for(modeladmin, step)
        # Approving a record that leaves wagers at a house edge of zero or less asks for
        # the acknowledgement of exactly that list, per record (reading:edge-acknowledgement).
        zero_edges = modeladmin.zero_edges(queryset) if step.verb == "approve" else {}
        if form_class is not None:
            form = form_class(request.POST if "apply" in request.POST else None)
            if not form.is_valid():
                return TemplateResponse(
                    request,
                    "admin/compliance/workflow_action.html",
                    {
                        **modeladmin.admin_site.each_context(request),
                        "title": _description(step),
                        "form": form,
                        "records": queryset,
                        "zero_edges": [
                            (r, zero_edges[r.pk]) for r in queryset if r.pk in zero_edges
                        ],
                        "action": request.POST.get("action"),
                        "opts": modeladmin.model._meta,
                    },
                )
            data = form.cleaned_data
        for record in queryset:
            given = dict(data)
            if record.pk in zero_edges:
                given[FIELD] = request.POST.get(f"{FIELD}_{record.pk}", "")
            try:
                result = step_service(record, step.verb)(actor=request.user, **given)
            except DomainError as exc:
                modeladmin.message_user(request, f"{record}: {exc.message}", messages.ERROR)
            else:
                modeladmin.message_user(request, f"{result}: {step.done}")
        return None

    action.__name__ = f"workflow_{step.verb}"
    return admin.action(description=_description(step))(action)


WORKFLOW_ACTIONS = [_workflow_action(step) for step in RECORD_WORKFLOW.posted_steps]


class RecordAdmin(LookOnlyAdmin):
    actions = WORKFLOW_ACTIONS
    # What approving asks; the other steps ask a reason or nothing, as the table says.
    approve_form: type[forms.Form] = ReasonForm

    def zero_edges(self, records) -> dict[int, ZeroEdges]:
        """The wagers approving each of ``records`` would leave at an edge of zero or less
        (reading:edge-acknowledgement), for those that leave any."""
        return {record.pk: edges for record in records if (edges := zero_edges_of(record))}


@admin.register(Layout)
class LayoutAdmin(RecordAdmin):
    approve_form = LayoutApproveForm
    search_fields = ("title", "reference_number")


@admin.register(Paytable)
class PaytableAdmin(RecordAdmin):
    approve_form = PaytableApproveForm
    search_fields = ("name",)


class ListedGameInline(LookOnlyInline):
    model = ListedGame


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(RecordAdmin):
    # ``rules_submission_approve`` takes a reason only: the dates are the submission's own.
    approve_form = ReasonForm
    inlines = [ListedGameInline]
    search_fields = ("title",)


@admin.register(TermsAndConditions)
class TermsAndConditionsAdmin(RecordAdmin):
    # ``terms_approve`` takes a reason only: the approved version is in force (§ 811a.3).
    approve_form = ReasonForm
    search_fields = ("title",)


@admin.register(Offering)
class OfferingAdmin(LookOnlyAdmin):
    list_display = ("name", "holder", "status", "rules_submission", "layout", "paytable")
    list_filter = ("status", "holder")
    list_select_related = ("holder", "rules_submission", "layout", "paytable")
    actions = ["retire"]

    @admin.action(description="Retire, with reason")
    def retire(self, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid() or not form.cleaned_data.get("reason"):
            return TemplateResponse(
                request,
                "admin/compliance/workflow_action.html",
                {
                    **self.admin_site.each_context(request),
                    "title": "Retire offerings",
                    "form": form,
                    "records": queryset,
                    "action": "retire",
                    "opts": self.model._meta,
                },
            )
        for offering in queryset:
            try:
                offering_retire(
                    actor=request.user, offering=offering, reason=form.cleaned_data["reason"]
                )
            except DomainError as exc:
                self.message_user(request, f"{offering}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{offering}: retired")
        return None
