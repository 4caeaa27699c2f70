"""The inbox (one's own notifications, newest first, each with its page), marking read,
and the choices of how each kind is delivered. Thin: services and selectors do the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from portal.core.errors import ValidationFailed
from portal.core.pages import domain_errors, paginate
from portal.notifications.kinds import kinds_for
from portal.notifications.models import Delivery
from portal.notifications.selectors import inbox as inbox_of
from portal.notifications.selectors import unread_count
from portal.notifications.services import (
    notification_mark_read,
    notifications_mark_all_read,
    preferences_of,
    preferences_set,
)


@login_required
@require_safe
def inbox(request: HttpRequest) -> HttpResponse:
    page = paginate(request, inbox_of(request.user))
    return render(
        request,
        "notifications/inbox.html",
        {"page": page, "unread": unread_count(request.user)},
    )


@login_required
@require_POST
@domain_errors
def mark_read(request: HttpRequest, pk: int) -> HttpResponse:
    notification_mark_read(actor=request.user, notification_id=pk)
    return redirect("notifications:inbox")


@login_required
@require_POST
@domain_errors
def mark_all_read(request: HttpRequest) -> HttpResponse:
    marked = notifications_mark_all_read(actor=request.user)
    messages.success(request, "Nothing was unread." if not marked else f"Marked {marked} as read.")
    return redirect("notifications:inbox")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def preferences(request: HttpRequest) -> HttpResponse:
    kinds = kinds_for(request.user)
    status, error = 200, ""
    if request.method == "POST":
        choices = {kind.name: request.POST.get(kind.name, "") for kind in kinds}
        choices = {name: value for name, value in choices.items() if value}
        try:
            preferences_set(actor=request.user, choices=choices)
        except ValidationFailed as refused:
            status, error = 400, refused.message
        else:
            messages.success(request, "Your choices are saved.")
            return redirect("notifications:preferences")
    current = preferences_of(request.user)
    rows = [
        {
            "kind": kind,
            "current": request.POST.get(kind.name, current.get(kind.name))
            if status == 400
            else current.get(kind.name),
        }
        for kind in kinds
    ]
    return render(
        request,
        "notifications/preferences.html",
        {
            "rows": rows,
            "deliveries": Delivery.choices,
            "error": error,
            "has_email": bool(request.user.email),
        },
        status=status,
    )
