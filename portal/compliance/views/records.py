"""The pages the versioned records share (layouts, paytables, rules submissions, terms and
conditions): list, detail, workflow steps.

Each kind module describes itself with a ``RecordKind`` (its model, its approve form, its
own detail context) and calls ``list_page``, ``detail_page`` and ``act``. The steps, their
buttons and who may take them are the workflow's table (``portal.compliance.workflow``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.forms import BoundField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.access.workflow import Reason, Step
from portal.compliance import selectors
from portal.compliance.filtersets import RECORD_FILTERS
from portal.compliance.forms import EmptyForm, ReasonForm, ServiceForm
from portal.compliance.models import RecordStatus, VersionedRecord
from portal.compliance.presenters.decisions import decision_refusal
from portal.compliance.presenters.diffs import record_diff, shows_diff
from portal.compliance.presenters.history import history_rows as event_rows
from portal.compliance.services import step_service
from portal.compliance.services.workflow import ImpactChanged
from portal.compliance.workflow import RECORD_WORKFLOW, label
from portal.compliance.zero_edges import FIELD, ZeroEdges, ZeroEdgesChanged
from portal.core.errors import DomainError, ValidationFailed
from portal.core.lists import csv_download, filtered_page, wants_csv

S = RecordStatus


@dataclass(frozen=True)
class RecordKind:
    model: type[VersionedRecord]
    url: str  # URL names are compliance:<url>-list, -detail, -create, -edit
    noun: str
    plural: str
    approve_form: type[ServiceForm]  # what approving this kind asks (reference, dates, …)
    detail_template: str
    describe: Callable[[VersionedRecord], dict]  # the kind's own part of the detail page
    runs_tables: bool = True  # tables run on its versions (not so a holder's terms)

    def url_name(self, page: str) -> str:
        return f"compliance:{self.url}-{page}"

    @property
    def names(self) -> dict[str, str]:
        """URL names by page, for templates: ``{% url kind.names.detail record.pk %}``."""
        pages = ("list", "create", "detail", "edit")
        return {page: self.url_name(page) for page in pages}


def step_form(kind: RecordKind, step: Step) -> type[ServiceForm]:
    """The form a step posts: the kind's approval form, a reason, or nothing."""
    if step.verb == "approve":
        return kind.approve_form
    return EmptyForm if step.reason is Reason.NONE else ReasonForm


def detail_queryset(kind: RecordKind):
    return kind.model.objects.select_related("holder", "created_by", "submitted_by", "decided_by")


def list_page(request: HttpRequest, kind: RecordKind) -> HttpResponse:
    """The kind's records the user may see: searched, filtered, sorted, a page or a CSV."""
    policy.require(request.user, Action.VIEW)
    records = selectors.records_for(request.user, kind.model)
    listing = RECORD_FILTERS[kind.model].for_page(request, records)
    if wants_csv(request) and listing.is_valid():
        return csv_download(listing.qs, listing.columns, kind.url)
    page, status = filtered_page(request, listing)
    context = {
        "kind": kind,
        "filter": listing,
        "columns": listing.columns,
        "page": page,
        "may_draft": policy.may(request.user, Action.DRAFT),
    }
    return render(request, "compliance/record_list.html", context, status=status)


def history_rows(record) -> list[dict]:
    """The record's audit events, each with the values it changed, before and after."""
    return event_rows(selectors.record_history(record))


# The decision panel: one form, one reason box, a button per decision (each names its step):
# the steps a second person takes, approval first.
DECISIONS = tuple(step.name for step in RECORD_WORKFLOW.decisions)
DECISION_REASON_HELP = (
    "Required to reject or to request changes; optional to approve. Recorded in the audit trail."
)


@dataclass(frozen=True)
class ImpactShown:
    """What a step would open or close, as a decision shows it before it is taken: each
    table by its name and its holder's, and the fingerprint the decision posts back."""

    step: str  # the step's name, as posted: "approve", "withdraw", "expire"
    label: str  # how the page names it: "Approve", "Withdraw approval"
    dark: list[str]
    live: list[str]
    fingerprint: str
    changes: tuple = ()  # what changes for players at each table it moves (TableChange)

    @property
    def field(self) -> str:
        """The hidden field a decision posts the fingerprint in."""
        return f"impact_{self.step}"


def _table(offering) -> str:
    return f"{offering.name} ({offering.holder.name})"


def impacts_shown(record: VersionedRecord) -> dict[str, ImpactShown]:
    """The impact of each step ``record``'s status allows that opens or closes tables
    (``selectors.step_impact``, the forecast the service checks again when it is taken)."""
    expires = record.expiry_date.isoformat() if record.expiry_date else ""
    labels = {"expire": f"At its expiry on {expires}, applied by the midnight job"}
    return {
        name: ImpactShown(
            step=name,
            label=labels.get(name) or RECORD_WORKFLOW[name].label,
            dark=[_table(o) for o in impact.closes],
            live=[_table(o) for o in impact.opens],
            fingerprint=impact.fingerprint,
            changes=impact.changes,
        )
        for name, impact in selectors.impacts_of(record).items()
    }


@dataclass(frozen=True)
class DecisionPanel:
    reason: BoundField  # the one reason box every decision posts
    approve_fields: list[BoundField]  # what only an approval takes (reference, dates, …)
    errors: list[str]  # the refused decision's own errors (not about one field)
    buttons: list[tuple[str, Step]]
    impact: ImpactShown | None = None  # what approving would open or close
    refused: ServiceForm | None = None  # the refused decision, summed up atop the page
    # The wagers approving would leave at an edge of zero or less, to acknowledge
    # (reading:edge-acknowledgement), and the refusal that named them.
    zero_edges: ZeroEdges | None = None
    zero_edges_errors: list[str] = dataclasses.field(default_factory=list)


def _decision_panel(
    kind: RecordKind,
    forms: dict[str, ServiceForm],
    failed: tuple[str, ServiceForm] | None,
    hide_fields: tuple[str, ...],
    impact: ImpactShown | None = None,
    zero_edges: ZeroEdges | None = None,
) -> DecisionPanel:
    """The three decisions as one form. After a refused decision its own form fills the
    panel (its errors inline); what was typed for an approval is kept."""
    refused = failed[1] if failed is not None and failed[0] in DECISIONS else None
    approve = forms["approve"]
    if refused is not None and failed[0] != "approve":
        typed = {name: refused.data.get(name) for name in approve.fields if name in refused.data}
        approve = kind.approve_form(initial=typed, auto_id="id_approve_%s")
    with_reason = refused or approve
    with_reason.fields["reason"].help_text = DECISION_REASON_HELP
    skipped = {"reason", *hide_fields}
    return DecisionPanel(
        reason=with_reason["reason"],
        approve_fields=[field for field in approve.visible_fields() if field.name not in skipped],
        errors=list(refused.non_field_errors()) if refused is not None else [],
        buttons=[(name, RECORD_WORKFLOW[name]) for name in DECISIONS],
        impact=impact,
        refused=refused,
        zero_edges=zero_edges or None,
        zero_edges_errors=list(refused.errors.get(FIELD, [])) if refused is not None else [],
    )


def render_detail(
    request: HttpRequest,
    kind: RecordKind,
    record: VersionedRecord,
    *,
    failed: tuple[str, ServiceForm] | None = None,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    versions = list(selectors.series_versions(record).only("pk", "version", "status"))
    actions = RECORD_WORKFLOW.available(request.user, record, versions)
    why_no_decision = decision_refusal(request.user, record, versions)
    if why_no_decision is not None:
        actions -= set(DECISIONS)
    forms = {
        step.name: step_form(kind, step)(auto_id=f"id_{step.name}_%s")
        for step in RECORD_WORKFLOW.posted_steps
        if step.name in actions
    }
    if failed is not None and not (failed[0] in DECISIONS and failed[0] not in actions):
        forms[failed[0]] = failed[1]
    tab = "history" if request.GET.get("tab") == "history" else "details"
    described = kind.describe(record)
    impacts = impacts_shown(record) if tab == "details" else {}
    panel = None
    if all(name in actions for name in DECISIONS):
        hidden = described.get("hide_fields", ())
        panel = _decision_panel(
            kind, forms, failed, hidden, impacts.get("approve"), described.get("zero_edges")
        )
    context = {
        "kind": kind,
        "record": record,
        "tab": tab,
        "versions": versions,
        "may_edit": "edit" in actions,
        "steps": [
            (step.name, step, forms[step.name], impacts.get(step.name))
            for step in RECORD_WORKFLOW.posted_steps
            if step.name in forms and step.name not in DECISIONS
        ],
        "expiry_impact": impacts.get("expire"),
        "decision_panel": panel,
        "decision_refusal": why_no_decision,
        "diff": _diff(kind, record, versions) if tab == "details" else None,
        "history": history_rows(record) if tab == "history" else None,
        "refused": refusal,
        **described,
    }
    return render(request, kind.detail_template, context, status=status)


def _diff(kind: RecordKind, record: VersionedRecord, versions: list):
    """The version against the approved one of its series it would supersede, if any."""
    if not shows_diff(record):
        return None
    approved = next((v for v in versions if v.status == S.APPROVED and v.pk != record.pk), None)
    if approved is None:
        return None
    return record_diff(record, detail_queryset(kind).get(pk=approved.pk))


def detail_page(request: HttpRequest, kind: RecordKind, pk: int) -> HttpResponse:
    """GET: the record. POST: the workflow step its ``step`` names (the button pressed), on
    the record's own URL: done, it redirects back here (POST/redirect/GET); refused, this
    page answers with the errors in place and its 4xx, and nothing has changed."""
    if request.method == "POST":
        return act(request, kind, pk, request.POST.get("step", ""))
    record = visible_or_404(request.user, detail_queryset(kind), pk)
    return render_detail(request, kind, record)


def act(request: HttpRequest, kind: RecordKind, pk: int, action: str) -> HttpResponse:
    record = visible_or_404(request.user, detail_queryset(kind), pk)  # unseen: a 404
    try:
        step = RECORD_WORKFLOW.get(action)
        if step is None or step.name != action or step not in RECORD_WORKFLOW.posted_steps:
            raise ValidationFailed(f"There is no step “{action}” for a {kind.noun}.")
        policy.require(request.user, step.permission, record)
        form = step_form(kind, step)(request.POST, auto_id=f"id_{action}_%s")
        if form.is_valid():
            given = dict(form.cleaned_data)
            shown = request.POST.get(f"impact_{step.name}")
            if step.changes_tables and shown is not None:
                given["impact"] = shown  # the impact the page showed (reading:supersede)
            try:
                result = step_service(record, step.verb)(actor=request.user, **given)
            except ValidationFailed as error:
                form.add_service_error(error)
            except (ImpactChanged, ZeroEdgesChanged) as error:
                # The tables it opens or closes changed: the decision again, with the
                # impact as it now is, and what was typed kept.
                record = detail_queryset(kind).get(pk=pk)
                return render_detail(
                    request,
                    kind,
                    record,
                    failed=(action, form),
                    refusal=error.message,
                    status=error.http_status,
                )
            else:
                text = label(result)
                messages.success(request, f"{text[:1].upper()}{text[1:]} {step.done}.")
                return redirect(kind.url_name("detail"), result.pk)
    except DomainError as error:
        # Refused as a whole (no such step, not theirs to take, the status does not allow
        # it): the record as it stands, the refusal above its actions, and its status.
        record = detail_queryset(kind).get(pk=pk)
        return render_detail(request, kind, record, refusal=error.message, status=error.http_status)
    return render_detail(request, kind, record, failed=(action, form), status=400)
