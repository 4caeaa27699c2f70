"""What every app's API views share: the error mapping, the policy gate, the scoped queryset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from django.core.exceptions import ImproperlyConfigured
from rest_framework import mixins, viewsets
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from portal.access.policy import Action
from portal.api.errors import api_exception_handler
from portal.api.parsers import JSONParser
from portal.api.permissions import PolicyPermission
from portal.api.schema import ApiAutoSchema

# A record's id in the URL: any one path segment. The router's default refuses dots (kept
# for format suffixes, which this API does not route), so "/api/layouts/1.5/" fell through
# to the site's HTML 404; every segment now reaches the view and gets the API's own 404.
LOOKUP_SEGMENT = "[^/]+"


class ApiViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Read: list (filtered, paginated) and retrieve, within ``policy.visible``.

    Write: each subclass's ``create`` / ``partial_update`` / actions parse the body with an
    input serializer, call one service and answer with the record as it now is. Records
    are never replaced (PUT) or deleted (DELETE): both answer 405.
    """

    permission_classes = [PolicyPermission]
    parser_classes = [JSONParser]
    schema = ApiAutoSchema()
    lookup_value_regex = LOOKUP_SEGMENT
    http_method_names = ["get", "post", "patch", "head", "options"]
    read_action: ClassVar[Action] = Action.VIEW
    write_actions: ClassVar[Mapping[str, Action]] = {
        "create": Action.DRAFT,
        "partial_update": Action.DRAFT,
    }
    # Set per route with @action(policy_action=...).
    policy_action: Action | None = None

    def get_exception_handler(self):
        return api_exception_handler

    def required_action(self) -> Action:
        # By the route's method, not self.action: OPTIONS and the browsable API ask about
        # POST and PATCH with copies of a request whose action is "metadata" or "list".
        handler = self.action_map.get(self.request.method.lower())
        if self.request.method in SAFE_METHODS or handler is None:
            return self.read_action  # no route for the method: a 405 follows the read check
        action = self.policy_action or self.write_actions.get(handler)
        if action is None:
            raise ImproperlyConfigured(f"{type(self).__name__}.{handler} names no policy action")
        return action

    def parse(self, input_class) -> dict:
        serializer = input_class(data=self.request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def respond(self, record, status: int = 200) -> Response:
        """The record as this user's list would show it (same query, same shape)."""
        fresh = self.get_queryset().get(pk=record.pk)
        return Response(self.get_serializer(fresh).data, status=status)
