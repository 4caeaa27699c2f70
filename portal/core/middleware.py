"""Request middleware: a request id for joining audit events and logs, the request size cap,
and the no-store rule for private answers."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from portal.core.request_context import bind_request_id, reset_request_id

REQUEST_ID_HEADER = "X-Request-ID"
# A caller's id is kept only if it is short and plain; anything else is replaced.
_ACCEPTABLE = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        supplied = request.headers.get(REQUEST_ID_HEADER, "")
        request.request_id = supplied if _ACCEPTABLE.match(supplied) else uuid.uuid4().hex
        token = bind_request_id(request.request_id)
        try:
            response = self.get_response(request)
        finally:
            reset_request_id(token)
        response[REQUEST_ID_HEADER] = request.request_id
        return response


REQUEST_TOO_LARGE = "the request body is {size} bytes; the limit is {limit} bytes"


class RequestSizeLimitMiddleware:
    """Refuse an oversized body (a huge upload) with 413 before any of it is read.

    Django caps form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but streams uploaded files to
    disk whatever their size; the declared length is checked here first.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse("malformed Content-Length", status=400, content_type="text/plain")
        if size > limit:
            message = REQUEST_TOO_LARGE.format(size=size, limit=limit)
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message, "errors": {}}, status=413)
            return HttpResponse(message, status=413, content_type="text/plain")
        return self.get_response(request)


class PrivateAnswersMiddleware:
    """Every answer to a signed-in user, and every API answer, is ``Cache-Control: no-store``
    (with Django's never-cache headers): records, rounds and balances must not be kept by a
    browser's back button, a shared computer or a proxy. An answer that already says how it
    may be cached (a report file, ``/healthz``) keeps its own header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response
        user = getattr(request, "user", None)
        if request.path.startswith("/api/") or (user is not None and user.is_authenticated):
            add_never_cache_headers(response)
        return response


METHOD_NOT_ALLOWED = (
    "This address is for sending a form on its page, not for opening on its own. Go back to "
    "the page and use its button."
)


class MethodNotAllowedPageMiddleware:
    """A page address opened with a method it does not take (a POST-only action opened by
    GET, a bookmark of a button's address) answers with a page saying so and a link back,
    with its status (405) and its ``Allow`` header, rather than a blank answer. The API and
    answers that already carry a body keep theirs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code != 405
            or request.path.startswith("/api/")
            or getattr(response, "streaming", False)
            or response.content
        ):
            return response
        page = render(
            request,
            "core/refused.html",
            {"message": METHOD_NOT_ALLOWED, "status": 405},
            status=405,
        )
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
