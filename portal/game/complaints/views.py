"""The complaints' pages (reading:complaint-number).

- A player files a complaint or a dispute from their account (``/play/complaints/new/``),
  also while suspended or excluded, and reads their own with their numbers and answers.
- The holder's supervisors (compliance officers for every holder) see the open ones with
  their age, take one, add dated notes and close it with the written answer; auditors read
  every one, as a list and as CSV (the complaints log).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from portal.access.policy import Action, may
from portal.core.csv_export import csv_lines, csv_response
from portal.core.errors import ValidationFailed
from portal.core.forms import ServiceForm
from portal.core.pages import domain_errors
from portal.game.complaints import messages as msg
from portal.game.complaints import services
from portal.game.complaints.selectors import (
    complaints_visible_to,
    may_handle,
    may_see_complaints,
)
from portal.game.models import (
    OPEN_STATUSES,
    ComplaintKind,
    ComplaintStatus,
    GamingAccount,
    Round,
    RoundCorrection,
)
from portal.game.pages import Posted, player_of, run

HIDDEN = "your role may not see complaints"


def _text(label: str, rows: int = 4, **kwargs) -> forms.CharField:
    return forms.CharField(
        label=label, widget=forms.Textarea(attrs={"rows": rows}), max_length=4000, **kwargs
    )


class FileForm(ServiceForm):
    holder = forms.TypedChoiceField(label="The casino", coerce=int)
    kind = forms.ChoiceField(label="It is", choices=ComplaintKind.choices, widget=forms.RadioSelect)
    subject = forms.CharField(label="Subject", max_length=200)
    description = _text("What happened")
    request = _text("What you ask for", rows=3)
    rounds = forms.TypedMultipleChoiceField(
        label="The games it concerns", coerce=int, required=False,
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    def __init__(self, *args, accounts=(), rounds=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["holder"].choices = [(a.holder_id, a.holder.name) for a in accounts]
        self.fields["rounds"].choices = [
            (r.pk, f"#{r.pk}, {timezone.localtime(r.ended_at):%Y-%m-%d %H:%M %Z}, "
             f"{r.offering.name}") for r in rounds
        ]  # fmt: skip


class NoteForm(ServiceForm):
    text = _text("Note", rows=3)


class CloseForm(ServiceForm):
    outcome = forms.ChoiceField(
        label="Outcome",
        choices=[("upheld", "Upheld"), ("not_upheld", "Not upheld")],
        widget=forms.RadioSelect,
    )
    answer = _text("Your written answer to the player", rows=5)
    round = forms.TypedChoiceField(
        label="Adjust the game (an upheld dispute about money)", coerce=int, required=False,
        empty_value=None,
    )  # fmt: skip
    amount = forms.DecimalField(
        label="Credit to the player, in dollars", required=False, min_value=0, decimal_places=2
    )
    notice = _text("The adjustment's notification to the player", rows=3, required=False)

    def __init__(self, *args, rounds=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"].choices = [("", "No adjustment")] + [(r, f"#{r}") for r in rounds]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def file_complaint(request: HttpRequest) -> HttpResponse:
    """A player files a complaint or dispute with a casino they hold an account with."""
    player = player_of(request)
    accounts = list(GamingAccount.objects.filter(player=player).select_related("holder"))
    rounds = list(
        Round.objects.filter(player=player).select_related("offering").order_by("-pk")[:50]
    )
    form = FileForm(request.POST or None, accounts=accounts, rounds=rounds, auto_id="complaint_%s")
    made = []

    def call(data) -> str:
        complaint = services.complaint_file(
            player=player,
            holder_id=data["holder"],
            kind=data["kind"],
            subject=data["subject"],
            description=data["description"],
            request=data["request"],
            rounds=data.get("rounds") or [],
        )
        made.append(complaint)
        return f"Your complaint is filed: its number is {complaint.number}."

    status = 200
    if request.method == "POST":
        posted = run(Posted("file", form), call)
        if made:
            messages.success(request, posted.done)
            return redirect("game:complaint", made[0].pk)
        form, status = posted.form, posted.status
    context = {"form": form, "accounts": accounts}
    return render(request, "game/complaint_file.html", context, status=status)


def _visible(request, pk: int):
    if not may_see_complaints(request.user):
        raise PermissionDenied(HIDDEN)
    complaint = (
        complaints_visible_to(request.user)
        .prefetch_related("rounds", "notes__author")
        .filter(pk=pk)
    ).first()
    if complaint is None:
        raise Http404(msg.NO_SUCH_COMPLAINT.format(id=pk))
    return complaint


@login_required
@require_http_methods(["GET", "HEAD"])
@domain_errors
def complaints(request: HttpRequest) -> HttpResponse:
    """A player's own complaints; for staff the queue (open ones first, with their age), for
    auditors and officers every one: the complaints log, also as CSV."""
    if not may_see_complaints(request.user):
        raise PermissionDenied(HIDDEN)
    rows = list(
        complaints_visible_to(request.user)
        .prefetch_related("adjustments")
        .order_by("-opened_at", "-pk")
    )
    now = timezone.now()
    if request.GET.get("format") == "csv":
        header = ["Number", "Holder", "Kind", "Opened", "Closed", "Outcome", "Days open"]
        stamp = now.strftime("%Y%m%dT%H%M%SZ")
        return csv_response(
            csv_lines(
                [*header, "Corrections"],
                [
                [
                    c.number, c.holder.name, c.get_kind_display(), c.opened_at.isoformat(),
                    c.closed_at.isoformat() if c.closed_at else "", c.get_status_display(),
                    ((c.closed_at or now) - c.opened_at).days,
                    " ".join(f"#{a.pk}" for a in c.adjustments.all()),
                ]
                for c in rows
            ]),
            f"complaints-log-{stamp}.csv",
        )  # fmt: skip
    staff = may(request.user, Action.CORRECT_ROUNDS) or may(request.user, Action.VIEW_ROUNDS)
    opened = [c for c in rows if c.status in OPEN_STATUSES]
    context = {
        "rows": sorted(opened, key=lambda c: c.opened_at) + [c for c in rows if c not in opened],
        "staff": staff,
        "now": now,
        "may_file": may(request.user, Action.PLAY),
    }
    return render(request, "game/complaints.html", context)


STEPS = {"take", "note", "close"}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def complaint(request: HttpRequest, pk: int) -> HttpResponse:
    found = _visible(request, pk)
    handles = may_handle(request.user, found) and found.player_id != request.user.pk
    named = sorted(r.pk for r in found.rounds.all())
    forms_ = {
        "note": NoteForm(auto_id="note_%s"),
        "close": CloseForm(auto_id="close_%s", rounds=named),
    }
    status = 200
    if request.method == "POST":
        step = request.POST.get("step", "")
        if not handles:
            raise PermissionDenied(HIDDEN)
        if step not in STEPS:
            raise ValidationFailed(msg.STEP_UNKNOWN)
        posted = _step(request, found, step, named)
        if posted.status == 200:
            messages.success(request, posted.done)
            return redirect("game:complaint", found.pk)
        forms_[step], status = posted.form, posted.status
    context = {
        "complaint": found,
        "handles": handles and found.status in OPEN_STATUSES,
        "closable": handles
        and found.status in (ComplaintStatus.RECEIVED, ComplaintStatus.INVESTIGATING),
        "board": msg.BOARD.format(number=found.number),
        "adjustments": RoundCorrection.objects.filter(complaint=found).order_by("pk"),
        "note_form": forms_["note"],
        "close_form": forms_["close"],
        "answered": found.closed_at is not None,
        "staff": may(request.user, Action.CORRECT_ROUNDS) or may(request.user, Action.VIEW_ROUNDS),
    }
    return render(request, "game/complaint.html", context, status=status)


def _step(request, found, step: str, named) -> Posted:
    actor = request.user
    if step == "take":
        services.complaint_take(actor=actor, complaint_id=found.pk)
        return Posted("take", NoteForm(), done=f"You took complaint {found.number}.")
    if step == "note":

        def add(data) -> str:
            services.complaint_note(actor=actor, complaint_id=found.pk, text=data["text"])
            return "Note added."

        return run(Posted("note", NoteForm(request.POST, auto_id="note_%s")), add)

    def close(data) -> str:
        amount = data.get("amount")
        closed = services.complaint_close(
            actor=actor,
            complaint_id=found.pk,
            outcome=data["outcome"],
            answer=data["answer"],
            adjust_round=data.get("round"),
            amount=int(amount * 100) if amount is not None else None,
            notice=data.get("notice") or "",
        )
        if closed.status == ComplaintStatus.AWAITING_ADJUSTMENT:
            return "Upheld: the adjustment waits for someone else's decision; the answer goes then."
        return f"Complaint {closed.number} closed: the player is sent your answer."

    form = CloseForm(request.POST, auto_id="close_%s", rounds=named)
    return run(Posted("close", form), close)
