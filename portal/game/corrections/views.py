"""The voids and adjustments of settled rounds (§ 617a.6, § 812a.7(a)(9)): the queue of
those waiting for a decision (and every one decided), and a correction's own page, where a
second person approves or rejects it having read the round's record and replay.

Compliance officers and auditors see every holder's, a holder's supervisors their own
holder's (``selectors.corrections_visible_to``): another holder's is, to them, not there.
The decision panel is the declared workflow's (``workflow.WORKFLOW``), drawn by the same
template as a compliance record's: it is offered only to whom the workflow may offer it
(never the proposer, nor the round's player), and its service checks each step again in
full; a refusal is shown on the page with its status (400, 403, 409), and nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from portal.access.pages import visible_or_404
from portal.access.policy import Action, may
from portal.access.roles import holder_id_of
from portal.compliance.views.records import DecisionPanel
from portal.core.errors import DomainError, NotPermitted, ValidationFailed
from portal.core.lists import csv_download, filtered_page, wants_csv
from portal.core.pages import domain_errors
from portal.game.corrections import presenters, selectors
from portal.game.corrections.filtersets import QUEUE_STATUS, CorrectionFilter
from portal.game.corrections.forms import DecisionForm
from portal.game.corrections.messages import NO_SUCH_CORRECTION
from portal.game.corrections.services import SERVICES
from portal.game.corrections.workflow import WORKFLOW
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection
from portal.game.rounds import round_data, rounds_with_detail

QUEUE_HIDDEN = "your role may not see the voids and adjustments of rounds"
NO_STEP = "There is no step “{step}” for {kind}: approve or reject it."


@dataclass(frozen=True)
class PageKind:
    """What the shared decision panel (``compliance/_workflow.html``) names: the noun of
    what is decided and the page its form posts to."""

    noun: str
    names: dict[str, str]


def _page_kind(correction: RoundCorrection) -> PageKind:
    noun = CorrectionKind(correction.kind).label.lower()
    return PageKind(noun, {"detail": "game:correction"})


def _visible_correction(user, pk: int) -> RoundCorrection:
    if not selectors.may_see_corrections(user):
        raise NotPermitted(QUEUE_HIDDEN)
    return visible_or_404(
        user,
        selectors.correction_rows(),
        pk,
        action=None,
        within=selectors.visible_corrections,
        missing=NO_SUCH_CORRECTION,
    )


@login_required
@require_safe
@domain_errors
def queue(request: HttpRequest) -> HttpResponse:
    """Voids and adjustments: those waiting for a decision, oldest first, with how long
    each has waited; or, filtered, those decided. A page or a CSV."""
    user = request.user
    if not selectors.may_see_corrections(user):
        raise NotPermitted(QUEUE_HIDDEN)
    listing = CorrectionFilter.for_page(request, selectors.corrections_visible_to(user))
    if wants_csv(request) and listing.is_valid():
        return csv_download(listing.qs, listing.columns, "voids-and-adjustments")
    page, status = filtered_page(request, listing)
    every_holder = holder_id_of(user) is None  # a supervisor sees their own holder's only
    chosen = listing.form.cleaned_data.get("status") if listing.is_valid() else None
    waiting_only = chosen == QUEUE_STATUS
    # The queue shows how long each has waited; the others, their status and who decided.
    hidden = ["status", "decided_by"] if waiting_only else ["waiting"]
    if not every_holder:
        hidden.append("holder")
    context = {
        "filter": listing,
        "columns": listing.columns.hiding(*hidden),
        "page": page,
        "show_holder": every_holder,
        "waiting_only": waiting_only,
    }
    return render(request, "game/corrections.html", context, status=status)


def _page(
    request: HttpRequest,
    correction: RoundCorrection,
    *,
    form: DecisionForm | None = None,
    refused: str = "",
    status: int = 200,
) -> HttpResponse:
    user = request.user
    refusal = presenters.correction_refusal(user, correction)
    panel = None
    if refusal is None:
        form = form or DecisionForm(auto_id="decide_%s")
        panel = DecisionPanel(
            reason=form["reason"],
            approve_fields=[],
            errors=list(form.non_field_errors()),
            buttons=[(step.name, step) for step in WORKFLOW.decisions],
        )
    # The round as recorded, with its bets (two queries), and its other corrections.
    round_obj = rounds_with_detail().get(pk=correction.round_id)
    on_round = selectors.round_corrections(round_obj)
    context = {
        "correction": correction,
        "account": correction.account,
        "round": round_obj,
        "data": round_data(round_obj),
        "corrections": on_round,
        "others": [c for c in on_round.items if c.pk != correction.pk],
        "account_linked": may(user, Action.VIEW_PLAYER_ACCOUNTS, correction.account),
        "waiting_since": (
            timezone.now() - correction.proposed_at
            if correction.status == CorrectionStatus.PROPOSED
            else None
        ),
        "refused": refused,
        # The shared decision panel's names (``compliance/_workflow.html``).
        "kind": _page_kind(correction),
        "record": correction,
        "decision_panel": panel,
        "decision_refusal": refusal,
        "steps": [],
        "may_edit": False,
    }
    return render(request, "game/correction.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def correction(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the proposal, the round's record and the decision. POST: the decision its
    ``step`` names (the button pressed): done, back here (POST/redirect/GET); refused,
    this page with the refusal and its status, and nothing changed."""
    found = _visible_correction(request.user, pk)  # unseen: a 404
    if request.method != "POST":
        return _page(request, found)
    name = request.POST.get("step", "")
    try:
        step = WORKFLOW.get(name)
        if step is None or step.name != name or step not in WORKFLOW.decisions:
            raise ValidationFailed(NO_STEP.format(step=name, kind=found.a_kind))
        form = DecisionForm(request.POST, auto_id="decide_%s")
        if form.is_valid():
            try:
                decided = SERVICES[step.name](
                    actor=request.user, correction_id=found.pk, reason=form.cleaned_data["reason"]
                )
            except ValidationFailed as error:
                form.add_service_error(error)
            else:
                text = f"{CorrectionKind(decided.kind).label} of round {decided.round_id}"
                messages.success(request, f"{text} {step.done}.")
                return redirect("game:correction", decided.pk)
    except DomainError as error:
        # Refused as a whole (no such step, not theirs to take, already decided): the
        # correction as it stands, the refusal above it, and its status.
        fresh = _visible_correction(request.user, pk)
        return _page(request, fresh, refused=error.message, status=error.http_status)
    return _page(request, found, form=form, status=400)
