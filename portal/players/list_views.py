"""The pages of the holders' copy of the Board's list (§ 815a.4): its imports, the removals
waiting for a second officer, and the possible matches to review. Compliance officers act;
auditors read. Listed people are shown by their entry number only."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from portal.access.roles import Role, has_role
from portal.core.errors import DomainError
from portal.core.pages import domain_errors
from portal.game.pages import Posted, posted_action, run
from portal.players.forms import ListImportForm, ReviewForm
from portal.players.models import ListEntry, ListImport, ListReview
from portal.players.services import exclusion_list as service

IMPORTS_SHOWN = 50


def _reader(user) -> bool:
    """Officers act on the list; auditors read it; nobody else sees it (§ 815a.8)."""
    officer = has_role(user, Role.COMPLIANCE) or user.is_superuser
    if not officer and not has_role(user, Role.AUDITOR):
        raise PermissionDenied(service.OFFICERS_ONLY)
    return officer


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def exclusion_list(request: HttpRequest) -> HttpResponse:
    officer = _reader(request.user)
    form = ListImportForm(auto_id="import-%s")
    status = 200
    if request.method == "POST":
        if not officer:
            raise PermissionDenied(service.OFFICERS_ONLY)
        action = posted_action(request, {"import": None, "confirm": None})
        if action == "import":
            posted = run(
                Posted("import", ListImportForm(request.POST, request.FILES)), _import(request)
            )
            if posted.done:
                messages.success(request, posted.done)
                return redirect("players:list")
            form, status = posted.form, posted.status
        else:
            try:
                entry_id = int(request.POST.get("entry", ""))
            except ValueError:
                entry_id = 0
            try:
                service.list_removal_confirm(actor=request.user, entry_id=entry_id)
            except DomainError as error:
                messages.error(request, error.message)
                status = error.http_status
            else:
                messages.success(request, f"The removal of entry #{entry_id} is confirmed.")
                return redirect("players:list")
    context = {
        "officer": officer,
        "form": form,
        "imports": ListImport.objects.select_related("imported_by")[:IMPORTS_SHOWN],
        "listed": ListEntry.objects.filter(removed_at__isnull=True).count(),
        "removals": ListEntry.objects.filter(
            removal_asked_by__isnull=False, removed_at__isnull=True
        ).select_related("removal_asked_by__imported_by"),
        "reviews_open": ListReview.objects.filter(decided_at__isnull=True).count(),
    }
    return render(request, "players/list.html", context, status=status)


def _import(request: HttpRequest):
    def call(data: dict) -> str:
        upload = data["file"]  # its size is refused by the reader, with the others
        record = service.list_import(
            actor=request.user, data=upload.read(), file_name=upload.name, kind=data["kind"]
        )
        return (
            f"Import #{record.pk}: {record.people} people read, {record.added} added, "
            f"{record.removals_asked} removals to confirm, {record.players_excluded} players "
            f"excluded, {record.reviews_opened} possible matches to review."
        )

    return call


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def reviews(request: HttpRequest) -> HttpResponse:
    officer = _reader(request.user)
    status = 200
    forms_by_review: dict[int, ReviewForm] = {}
    if request.method == "POST":
        if not officer:
            raise PermissionDenied(service.OFFICERS_ONLY)
        try:
            review_id = int(request.POST.get("review", ""))
        except ValueError:
            review_id = 0
        posted = run(
            Posted("decide", ReviewForm(request.POST)),
            lambda data: (
                service.list_review_decide(
                    actor=request.user,
                    review_id=review_id,
                    outcome=data["outcome"],
                    note=data["note"],
                )
                and "decided"
            ),
        )
        if posted.done:
            messages.success(request, f"Review #{review_id} is decided.")
            return redirect("players:reviews")
        forms_by_review[review_id] = posted.form
        status = posted.status
    open_reviews = ListReview.objects.filter(decided_at__isnull=True).select_related("player")
    rows = [
        (r, forms_by_review.get(r.pk) or ReviewForm(auto_id=f"r{r.pk}-%s")) for r in open_reviews
    ]
    decided = (
        ListReview.objects.filter(decided_at__isnull=False)
        .select_related("player", "decided_by")
        .order_by("-decided_at")[:IMPORTS_SHOWN]
    )
    return render(
        request,
        "players/reviews.html",
        {"officer": officer, "rows": rows, "decided": decided},
        status=status,
    )
