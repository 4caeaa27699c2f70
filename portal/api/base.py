"""What every app's API views share: the error mapping, the policy gate, the scoped queryset.

The error format (``errors.api_exception_handler``) and the schema (``schema.ApiAutoSchema``)
are the project's REST settings, so every view has them without asking.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from django.core.exceptions import ImproperlyConfigured
from rest_framework import mixins, viewsets
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from portal.access.policy import Action, denial
from portal.api.parsers import JSONParser
from portal.api.permissions import PolicyPermission

# A record's id in the URL: any one path segment. The router's default refuses dots (kept
# for format suffixes, which this API does not route), so "/api/layouts/1.5/" fell through
# to the site's HTML 404; every segment now reaches the view and gets the API's own 404.
LOOKUP_SEGMENT = "[^/]+"


class ApiBaseViewSet(viewsets.GenericViewSet):
    """The set-up every API viewset shares: the policy gate, JSON bodies, the lookup.

    Read: every request needs ``read_action`` (``read_denial`` says why not). Write: each
    route names the action it needs (``write_actions``, or ``@action(policy_action=...)``),
    parses its body with an input serializer (``parse``), calls one service and answers.
    """

    permission_classes = [PolicyPermission]
    parser_classes = [JSONParser]
    lookup_value_regex = LOOKUP_SEGMENT
    http_method_names = ["get", "post", "patch", "head", "options"]
    read_action: ClassVar[Action] = Action.VIEW
    write_actions: ClassVar[Mapping[str, Action]] = {
        "create": Action.DRAFT,
        "partial_update": Action.DRAFT,
    }
    # Set per route with @action(policy_action=...).
    policy_action: Action | None = None

    def read_denial(self, user) -> str | None:
        """Why ``user`` may not read here at all, or None (the policy's ``read_action``)."""
        return denial(user, self.read_action)

    def has_route(self) -> bool:
        """Whether this address routes the request's method (if not, a 405 follows the gate)."""
        return self.request.method.lower() in self.action_map

    def reads(self) -> bool:
        """Whether the request reads (a safe method this address routes): only then does a
        viewset's read gate apply; a write needs only its own action, and a method with no
        route here is a 405 to anyone signed in, whatever their role."""
        return self.request.method in SAFE_METHODS and self.has_route()

    def required_action(self) -> Action | None:
        """What a write needs besides reading; None for a read, or for a method with no
        route here (a 405 follows the read check)."""
        # By the route's method, not self.action: OPTIONS and the browsable API ask about
        # POST and PATCH with copies of a request whose action is "metadata" or "list".
        if self.request.method in SAFE_METHODS or not self.has_route():
            return None
        handler = self.action_map[self.request.method.lower()]
        action = self.policy_action or self.write_actions.get(handler)
        if action is None:
            raise ImproperlyConfigured(f"{type(self).__name__}.{handler} names no policy action")
        return action

    def parse(self, input_class) -> dict:
        serializer = input_class(data=self.request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class ApiViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiBaseViewSet):
    """Read: list (filtered, paginated) and retrieve, within ``policy.visible``.

    Write: each subclass's ``create`` / ``partial_update`` / actions parse the body with an
    input serializer, call one service and answer with the record as it now is. Records
    are never replaced (PUT) or deleted (DELETE): both answer 405.
    """

    def respond(self, record, status: int = 200) -> Response:
        """The record as this user's list would show it (same query, same shape)."""
        fresh = self.get_queryset().get(pk=record.pk)
        return Response(self.get_serializer(fresh).data, status=status)


class ApiObjectViewSet(ApiBaseViewSet):
    """One answer at the resource's own address, not a list of records: no ``{id}/``
    route, no pages, no filters (a player's wallet, the clause matrix). Its ``list`` is
    the GET of that address; its actions are routed as for any viewset."""

    pagination_class = None
    filter_backends = []
