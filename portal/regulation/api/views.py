"""The clause matrix as JSON under /api/regulation/: what the Regulation page shows."""

from __future__ import annotations

from typing import ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.response import Response

from portal.access.policy import Action
from portal.api.errors import api_exception_handler
from portal.api.permissions import PolicyPermission
from portal.api.schema import ApiAutoSchema
from portal.regulation.matrix import matrix_as_dict
from portal.regulation.views import current_matrix


class RegulationViewSet(viewsets.ViewSet):
    """Read only, for every back-office role (not players); there are no records to list."""

    permission_classes = [PolicyPermission]
    schema = ApiAutoSchema()
    http_method_names = ["get", "head", "options"]
    read_action: ClassVar[Action] = Action.VIEW

    def get_exception_handler(self):
        return api_exception_handler

    def required_action(self) -> Action:
        return self.read_action

    @extend_schema(
        summary="Every registered clause: the rule's text, code locations, tests, results",
        responses={200: OpenApiTypes.OBJECT},
        filters=False,
    )
    def list(self, request):
        return Response(matrix_as_dict(current_matrix()))
