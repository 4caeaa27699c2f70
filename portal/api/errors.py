"""How the API answers errors: one body shape, ``{"detail": message, "errors": {field: [...]}}``.

- a ``DomainError`` raised by a service → its ``http_status`` (400, 403, 404, 409), with its
  message and field errors;
- a DRF ``ValidationError`` (the request could not be read) → 400, its nested errors
  flattened to dotted names (``games.0.chip_unit``), the same names the services use;
- every other DRF or Django HTTP error (401/403, 404, 405, 415, …) → its own status,
  with an empty ``errors``;
- ``CredentialsRefused`` (credentials sent and refused, e.g. a bearer token) → 401 with
  the sign-in method's own challenge.

The messages the shared API parts raise are below (an app's own are in its ``api``);
tests import them.
"""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from portal.api.exceptions import CredentialsRefused
from portal.core.errors import DomainError

UNKNOWN_FIELD = "unknown field {field}; this request takes {allowed}"
NO_FIELDS = "unknown field {field}; this request takes no fields"
READ_ONLY_FIELD = (
    "{field} is read-only: the portal sets it (statuses and versions change only through "
    "the workflow actions, and a record never changes holder)"
)
NOTHING_TO_CHANGE = "nothing to change: give at least one of {allowed}"
NOT_WHOLE = (
    "{field} must be a whole number written as a JSON integer (no quotes, no decimal point); "
    "got {got}"
)
TOO_SMALL = "{field} must be at least {minimum}; got {got}"
TOO_BIG = "{field} must be at most {maximum}; got {got}"
RECORD_NOT_VISIBLE = "no {kind} with id {id} among the records you can see"
INVALID_INPUT = "the request is invalid: {summary}"


def flatten_errors(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as ``{"games.0.chip_unit": ["…"]}``."""
    own = prefix or api_settings.NON_FIELD_ERRORS_KEY
    flat: dict[str, list[str]] = {}

    def merge(nested, name: str) -> None:
        for field, messages in flatten_errors(nested, name).items():
            flat.setdefault(field, []).extend(messages)

    if isinstance(detail, dict):
        for key, value in detail.items():
            if not prefix:
                merge(value, str(key))
            elif key == api_settings.NON_FIELD_ERRORS_KEY:
                merge(value, prefix)  # a nested body's own error ("games" is not a list)
            else:
                merge(value, f"{prefix}.{key}")
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            if isinstance(item, dict | list):
                merge(item, f"{prefix}.{index}" if prefix else str(index))
            else:
                flat.setdefault(own, []).append(str(item))
    else:
        flat.setdefault(own, []).append(str(detail))
    return flat


def _summary(errors: dict[str, list[str]]) -> str:
    return "; ".join(f"{field}: {message}" for field, items in errors.items() for message in items)


def api_exception_handler(exc, context):
    if isinstance(exc, DomainError):
        set_rollback()
        errors = getattr(exc, "field_errors", {})
        # What a refusal carries for the client to act on (a notice to acknowledge, say).
        body = {"detail": exc.message, "errors": errors, **getattr(exc, "body", {})}
        response = Response(body, status=exc.http_status)
        if exc.http_status == 401:  # RFC 9110: a 401 names how to authenticate
            response["WWW-Authenticate"] = 'Bearer realm="api"'
        return response
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a programming error: a 500, never dressed up
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten_errors(exc.detail)
        response.data = {"detail": INVALID_INPUT.format(summary=_summary(errors)), "errors": errors}
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = {"detail": str(detail), "errors": {}}
    if isinstance(exc, CredentialsRefused):
        # DRF answers 403 when the first sign-in method (the session) has no challenge;
        # refused credentials are a 401 with their own method's challenge (RFC 6750).
        response.status_code = 401
        response["WWW-Authenticate"] = exc.challenge
    return response
