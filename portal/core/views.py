from __future__ import annotations

import sys

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe


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


# --- Server errors ------------------------------------------------------------------------

RETRY_AFTER = 30  # seconds: a database restart or fail-over usually takes about that
DATABASE_DOWN = (
    "the database cannot be reached just now; nothing was changed, try again in a moment"
)
SERVER_ERROR = "the server failed to answer this request; nothing was changed"


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's ``handler500``: an outage of the database (an ``OperationalError`` or
    ``InterfaceError``: refused, dropped or restarting) answers 503 with ``Retry-After``,
    anything else 500; JSON in the API's error shape under ``/api/``, a plain page
    elsewhere. Every write is in a transaction, which the error rolled back. The page is
    rendered without the request's context, which would need the database."""
    error = sys.exc_info()[1]
    outage = isinstance(error, OperationalError | InterfaceError)
    status, message = (503, DATABASE_DOWN) if outage else (500, SERVER_ERROR)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message, "errors": {}}, status=status)
    else:
        page = render_to_string("core/server_error.html", {"status": status, "message": message})
        response = HttpResponse(page, status=status)
    if outage:
        response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


API_NOT_FOUND = "no API address {path}; the routes are listed at /api/schema/"


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's ``handler404``: under ``/api/`` the API's error body (a client reads JSON
    whatever the address), elsewhere Django's own page."""
    if request.path.startswith("/api/"):
        body = {"detail": API_NOT_FOUND.format(path=request.path), "errors": {}}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on their own: the site's icon."""
    return redirect(static("core/favicon.svg"))
