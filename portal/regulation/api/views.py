"""The clause matrix as JSON under /api/regulation/: what the Regulation page shows."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from portal.access.policy import Action
from portal.api.base import ApiObjectViewSet
from portal.regulation.matrix import matrix_as_dict
from portal.regulation.views import current_matrix


class RegulationViewSet(ApiObjectViewSet):
    """Read only, for every back-office role (not players); there are no records to list."""

    http_method_names = ["get", "head", "options"]
    read_action = Action.VIEW
    write_actions = {}

    @extend_schema(
        summary="Every registered clause: the rule's text, code locations, tests, results",
        responses={200: OpenApiTypes.OBJECT},
        filters=False,
    )
    def list(self, request):
        return Response(matrix_as_dict(current_matrix()))
