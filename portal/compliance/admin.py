"""Admin views of compliance records: read-only; workflow actions call the services.

Drafts are written in the portal pages or the API, where the services' errors are
shown inline; the admin is for looking, and for moving records through the workflow.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse

from portal.compliance import messages as msg
from portal.compliance import services
from portal.compliance.models import Layout, ListedGame, Offering, Paytable, RulesSubmission
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


def _call(kind: str, verb: str, record, actor, data: dict):
    """Call ``<kind>_<verb>`` with the actor, the record and the form's fields.

    Each model admin's form for a verb holds exactly the arguments that service takes.
    """
    service = getattr(services, f"{kind}_{verb}")
    argument = {"layout": "layout", "paytable": "paytable"}.get(kind, "submission")
    return service(actor=actor, **{argument: record}, **data)


def _workflow_action(verb: str, description: str):
    def action(modeladmin, request, queryset):
        data: dict = {}
        form_class = modeladmin.workflow_forms.get(verb)
        if form_class is not None:
            form = form_class(request.POST if "apply" in request.POST else None)
            if not form.is_valid():
                return TemplateResponse(
                    request,
                    "admin/compliance/workflow_action.html",
                    {
                        **modeladmin.admin_site.each_context(request),
                        "title": description,
                        "form": form,
                        "records": queryset,
                        "action": request.POST.get("action"),
                        "opts": modeladmin.model._meta,
                    },
                )
            data = form.cleaned_data
        for record in queryset:
            try:
                _call(record.kind, verb, record, request.user, data)
            except DomainError as exc:
                modeladmin.message_user(request, f"{record}: {exc.message}", messages.ERROR)
            else:
                modeladmin.message_user(request, f"{record}: {verb.replace('_', ' ')} done")
        return None

    action.__name__ = f"workflow_{verb}"
    return admin.action(description=description)(action)


WORKFLOW_ACTIONS = [
    _workflow_action("submit", "Submit for review"),
    _workflow_action("approve", "Approve (four-eyes)"),
    _workflow_action("reject", "Reject, with reason"),
    _workflow_action("request_changes", "Request changes, with reason"),
    _workflow_action("withdraw", "Withdraw approval, with reason"),
    _workflow_action("amend", "Start an amendment (new draft version)"),
]

# The steps that take only a reason, whatever the kind of record.
REASON_FORMS = {"reject": ReasonForm, "request_changes": ReasonForm, "withdraw": ReasonForm}


class RecordAdmin(LookOnlyAdmin):
    actions = WORKFLOW_ACTIONS
    # The form each workflow step asks for, by verb; a step without one (submit, amend)
    # runs at once.
    workflow_forms: dict[str, type[forms.Form]] = {**REASON_FORMS, "approve": ReasonForm}
    list_display = ("__str__", "holder", "version", "status", "submitted_at", "expiry_date")
    list_filter = ("status", "holder")
    list_select_related = ("holder",)
    search_fields = ("series",)


@admin.register(Layout)
class LayoutAdmin(RecordAdmin):
    workflow_forms = {**REASON_FORMS, "approve": LayoutApproveForm}
    search_fields = ("title", "reference_number")


@admin.register(Paytable)
class PaytableAdmin(RecordAdmin):
    workflow_forms = {**REASON_FORMS, "approve": PaytableApproveForm}
    search_fields = ("name",)


class ListedGameInline(LookOnlyInline):
    model = ListedGame


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(RecordAdmin):
    # ``rules_submission_approve`` takes a reason only: the dates are the submission's own.
    workflow_forms = {**REASON_FORMS, "approve": ReasonForm}
    inlines = [ListedGameInline]
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
                services.offering_retire(
                    actor=request.user, offering=offering, reason=form.cleaned_data["reason"]
                )
            except DomainError as exc:
                self.message_user(request, f"{offering}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{offering}: retired")
        return None
