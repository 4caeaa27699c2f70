"""The pages layouts, paytables and rules submissions share: list, detail, workflow steps.

Each kind module describes itself with a ``RecordKind`` (its model, its services, its
approve form, its own detail context) and calls ``list_page``, ``detail_page`` and ``act``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from portal.accounts import policy
from portal.accounts.policy import Action
from portal.compliance import selectors
from portal.compliance.forms import EmptyForm, ReasonForm, ServiceForm
from portal.compliance.models import RecordStatus, VersionedRecord
from portal.compliance.services import workflow
from portal.compliance.views.common import visible_or_404
from portal.core.errors import ValidationFailed
from portal.core.pages import paginate

S = RecordStatus


@dataclass(frozen=True)
class Step:
    """One workflow step a user may POST: the service, its form, who may ask for it."""

    label: str
    service: Callable[..., VersionedRecord]
    form: type[ServiceForm]
    permission: Action
    done: str
    danger: bool = False


@dataclass(frozen=True)
class RecordKind:
    model: type[VersionedRecord]
    url: str  # URL names are compliance:<url>-list, -detail, -create, -edit, -action
    noun: str
    plural: str
    service_arg: str  # the keyword the services take the record by
    steps: Mapping[str, Step]
    detail_template: str
    describe: Callable[[VersionedRecord], dict]  # the kind's own part of the detail page

    def url_name(self, page: str) -> str:
        return f"compliance:{self.url}-{page}"

    @property
    def names(self) -> dict[str, str]:
        """URL names by page, for templates: ``{% url kind.names.detail record.pk %}``."""
        pages = ("list", "create", "detail", "edit", "action")
        return {page: self.url_name(page) for page in pages}


def workflow_steps(
    *, submit, approve, approve_form, reject, request_changes, withdraw, amend
) -> dict[str, Step]:
    return {
        "submit": Step("Submit for review", submit, EmptyForm, Action.DRAFT, "submitted"),
        "approve": Step("Approve", approve, approve_form, Action.DECIDE, "approved"),
        "request-changes": Step(
            "Request changes", request_changes, ReasonForm, Action.DECIDE, "sent back for changes"
        ),
        "reject": Step("Reject", reject, ReasonForm, Action.DECIDE, "rejected", danger=True),
        "withdraw": Step(
            "Withdraw approval", withdraw, ReasonForm, Action.WITHDRAW, "withdrawn", danger=True
        ),
        "amend": Step("Amend (start a new version)", amend, EmptyForm, Action.DRAFT, "drafted"),
    }


def detail_queryset(kind: RecordKind):
    return kind.model.objects.select_related("holder", "created_by", "submitted_by", "decided_by")


def list_page(request: HttpRequest, kind: RecordKind) -> HttpResponse:
    policy.require(request.user, Action.VIEW)
    records = selectors.records_for(request.user, kind.model)
    status = request.GET.get("status", "")
    if status in S.values:
        records = records.filter(status=status)
    context = {
        "kind": kind,
        "page": paginate(request, records),
        "status": status,
        "statuses": S.choices,
        "may_draft": policy.may(request.user, Action.DRAFT),
    }
    return render(request, "compliance/record_list.html", context)


def history_rows(record) -> list[dict]:
    """The record's audit events, each with the fields it changed."""
    rows = []
    for event in selectors.record_history(record):
        before, after = event.before or {}, event.after or {}
        changed = (
            sorted(key for key in after if before.get(key) != after.get(key)) if before else []
        )
        rows.append({"event": event, "changed": changed})
    return rows


def render_detail(
    request: HttpRequest,
    kind: RecordKind,
    record: VersionedRecord,
    *,
    failed: tuple[str, ServiceForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    versions = list(selectors.series_versions(record).only("pk", "version", "status"))
    actions = workflow.available_steps(request.user, record, versions)
    forms = {
        name: step.form(auto_id=f"id_{name}_%s")
        for name, step in kind.steps.items()
        if name in actions
    }
    if failed is not None:
        forms[failed[0]] = failed[1]
    tab = "history" if request.GET.get("tab") == "history" else "details"
    context = {
        "kind": kind,
        "record": record,
        "tab": tab,
        "versions": versions,
        "may_edit": "edit" in actions,
        "steps": [(name, step, forms[name]) for name, step in kind.steps.items() if name in forms],
        "history": history_rows(record) if tab == "history" else None,
        **kind.describe(record),
    }
    return render(request, kind.detail_template, context, status=status)


def detail_page(request: HttpRequest, kind: RecordKind, pk: int) -> HttpResponse:
    record = visible_or_404(request.user, detail_queryset(kind), pk)
    return render_detail(request, kind, record)


def act(request: HttpRequest, kind: RecordKind, pk: int, action: str) -> HttpResponse:
    """POST one workflow step; a refusal re-renders the detail page with the error inline."""
    step = kind.steps.get(action)
    if step is None:
        raise Http404(f"no step {action!r}")
    record = visible_or_404(request.user, detail_queryset(kind), pk, step.permission)
    form = step.form(request.POST, auto_id=f"id_{action}_%s")
    if form.is_valid():
        try:
            result = step.service(
                actor=request.user, **{kind.service_arg: record}, **form.cleaned_data
            )
        except ValidationFailed as error:
            form.add_service_errors(error)
        else:
            text = workflow.label(result)
            messages.success(request, f"{text[:1].upper()}{text[1:]} {step.done}.")
            return redirect(kind.url_name("detail"), result.pk)
    return render_detail(request, kind, record, failed=(action, form), status=400)
