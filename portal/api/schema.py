"""The API's OpenAPI description of its errors: every operation lists the error answers it
can give, each with the one error body (``portal.api.errors``), so a client generated from
``/api/schema/`` knows a 403 or a 409 as well as it knows the 200.

It is the project's schema class (``DEFAULT_SCHEMA_CLASS``), so every API view has it
without asking; drf-spectacular puts an action's ``@extend_schema`` on top of it.

Each operation's description is written for whoever calls it: what it does and whose
records it answers with, never how the view is built. A view gives them by action in
``operation_descriptions`` (``list``, ``retrieve``, ``create``, ``partial_update``,
``destroy`` and its named actions); an action it does not name has its own docstring, or
else the view class's own; never a docstring inherited from the shared bases in
``portal.api.base`` or from DRF (those describe the implementation).
"""

from __future__ import annotations

import inspect

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

CSV = "text/csv"
JSON = "application/json"
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

ERROR_DESCRIPTIONS = {
    400: "Bad input: the body or a filter cannot be read or breaks a rule "
    "(``errors`` names each field; a regulatory rule cites its clause).",
    401: "The bearer token is not valid: unknown, expired, revoked, issued before the "
    "password last changed, or its account is disabled.",
    403: "Not signed in, or the role may not do this (four-eyes included).",
    404: "No such record among those you can see (another holder's reads the same), "
    "no such page of the list, or no such ``format``.",
    409: "The record's status does not allow this step.",
    413: "The body is larger than the portal accepts.",
    415: "The body is in a media type this operation does not read.",
    503: "The database cannot be reached just now; nothing was changed (``Retry-After``).",
}


@extend_schema_serializer(component_name="Error")
class ErrorSerializer(serializers.Serializer):
    """Every error answer's body."""

    detail = serializers.CharField(help_text="What was wrong, in a sentence.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text='By field (dotted for nested fields, e.g. "games.0.chip_unit"); may be empty.',
    )


# Set on a route's method (``exports.csv_export``): it takes the same filters as the list,
# so they are documented on it too.
TAKES_LIST_FILTERS = "takes_list_filters"


class ApiAutoSchema(AutoSchema):
    def get_description(self) -> str:
        """The operation's description for its users (see the module's docstring)."""
        action = getattr(self.view, "action", None) or self.method.lower()
        described = getattr(self.view, "operation_descriptions", {}).get(action)
        if described:
            return described
        handler = getattr(type(self.view), action, None)
        if _ours(handler) and handler.__doc__:
            return inspect.cleandoc(handler.__doc__)
        own = type(self.view).__dict__.get("__doc__")
        return inspect.cleandoc(own) if own else ""

    def get_filter_backends(self):
        action = getattr(self.view, "action", None)
        route = getattr(self.view, action, None) if action else None
        if getattr(route, TAKES_LIST_FILTERS, False):
            return self.view.filter_backends
        return super().get_filter_backends()

    def error_statuses(self, operation: dict) -> list[int]:
        """The error answers this operation can give, by what it takes."""
        statuses = [401, 403, 503]
        parameters = operation.get("parameters", [])
        if self.method in UNSAFE_METHODS or any(p["in"] == "query" for p in parameters):
            statuses.append(400)
        listed_in_pages = getattr(self.view, "action", None) == "list" and getattr(
            self.view, "pagination_class", None
        )
        # DRF answers 404 to a ``?format=`` that names none of the view's renderers.
        names_format = any(p["in"] == "query" and p["name"] == "format" for p in parameters)
        if listed_in_pages or names_format or any(p["in"] == "path" for p in parameters):
            statuses.append(404)
        if self.method in UNSAFE_METHODS:
            statuses += [409, 413, 415]
        return sorted(statuses)

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        # An export refused while asking for CSV answers in CSV (``exports.CsvRenderer``).
        answers_csv = any(CSV in answer.get("content", {}) for answer in _successes(operation))
        for status in self.error_statuses(operation):
            content = {JSON: {"schema": error}}
            if answers_csv:
                content[CSV] = {"schema": {"type": "string"}}
            operation["responses"].setdefault(
                str(status), {"content": content, "description": ERROR_DESCRIPTIONS[status]}
            )
        return operation


def _ours(handler) -> bool:
    """Whether ``handler`` is an app's own action, not one of the shared bases' or DRF's."""
    module = getattr(handler, "__module__", "") or ""
    return module.startswith("portal.") and module != "portal.api.base"


def _successes(operation: dict) -> list[dict]:
    return [answer for code, answer in operation["responses"].items() if code.startswith("2")]
