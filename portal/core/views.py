from __future__ import annotations

from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


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
