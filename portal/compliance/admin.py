"""Admin views of compliance records: read-only; workflow actions call the services.

Drafts are written in the portal pages or the API, where the services' errors are
shown inline; the admin is for looking, and for moving records through the workflow.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse

from portal.compliance import services
from portal.compliance.models import Layout, ListedGame, Offering, Paytable, RulesSubmission
from portal.core.admin import LookOnlyAdmin, LookOnlyInline
from portal.core.errors import DomainError


class WorkflowForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    reference_number = forms.CharField(required=False, help_text="Layouts: § 601a.10(a)")
    effective_date = forms.DateField(required=False, help_text="Layouts: YYYY-MM-DD")
    expiry_date = forms.DateField(required=False, help_text="Layouts: not after 2028-06-14")
    conditions = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    override_reason = forms.CharField(
        required=False, help_text="Paytables with a house edge ≤ 0 (§ 617b.8(f))"
    )


def _call(kind: str, verb: str, record, actor, data: dict):
    """Call ``<kind>_<verb>`` with the arguments that service takes."""
    service = getattr(services, f"{kind}_{verb}")
    argument = {"layout": "layout", "paytable": "paytable"}.get(kind, "submission")
    kwargs = {"actor": actor, argument: record}
    if verb in ("reject", "request_changes", "withdraw"):
        kwargs["reason"] = data.get("reason", "")
    elif verb == "approve":
        kwargs["reason"] = data.get("reason", "")
        if kind == "layout":
            for field in ("reference_number", "effective_date", "expiry_date", "conditions"):
                kwargs[field] = data.get(field)
        if kind == "paytable":
            kwargs["override_reason"] = data.get("override_reason", "")
    return service(**kwargs)


def _workflow_action(verb: str, description: str, needs_form: bool):
    def action(modeladmin, request, queryset):
        data: dict = {}
        if needs_form:
            form = WorkflowForm(request.POST if "apply" in request.POST else None)
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
    _workflow_action("submit", "Submit for review", needs_form=False),
    _workflow_action("approve", "Approve (four-eyes)", needs_form=True),
    _workflow_action("reject", "Reject, with reason", needs_form=True),
    _workflow_action("request_changes", "Request changes, with reason", needs_form=True),
    _workflow_action("withdraw", "Withdraw approval, with reason", needs_form=True),
    _workflow_action("amend", "Start an amendment (new draft version)", needs_form=False),
]


class RecordAdmin(LookOnlyAdmin):
    actions = WORKFLOW_ACTIONS
    list_display = ("__str__", "holder", "version", "status", "submitted_at", "expiry_date")
    list_filter = ("status", "holder")
    list_select_related = ("holder",)
    search_fields = ("series",)


@admin.register(Layout)
class LayoutAdmin(RecordAdmin):
    search_fields = ("title", "reference_number")


@admin.register(Paytable)
class PaytableAdmin(RecordAdmin):
    search_fields = ("name",)


class ListedGameInline(LookOnlyInline):
    model = ListedGame


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(RecordAdmin):
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
        form = WorkflowForm(request.POST if "apply" in request.POST else None)
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
