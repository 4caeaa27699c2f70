from __future__ import annotations

from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe

import jinzi
from portal.accounts import policy
from portal.accounts.policy import Action


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The intro for visitors; staff go straight to their dashboard, players to the tables."""
    user = request.user
    if policy.may(user, Action.VIEW) or policy.may(user, Action.VIEW_AUDIT):
        return redirect("compliance:dashboard")
    if policy.may(user, Action.PLAY):
        return redirect("game:tables")
    return render(request, "core/home.html", {"game_version": jinzi.__version__})


def database_status(alias: str = "default") -> str:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unavailable"
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = database_status()
    healthy = database == "ok"
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "database": database},
        status=200 if healthy else 503,
    )
