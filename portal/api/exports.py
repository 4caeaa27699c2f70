"""What every CSV export of the API shares: its renderer, its schema and its route."""

from __future__ import annotations

import csv
import io

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import renderers
from rest_framework.decorators import action

from portal.api.schema import ApiAutoSchema


class CsvRenderer(renderers.BaseRenderer):
    """Lets ``Accept: text/csv`` through negotiation; the export streams its own body, so
    only an error (e.g. a refused filter) is rendered here, as a one-column CSV."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        detail = data.get("detail", "") if isinstance(data, dict) else data
        out = io.StringIO()
        csv.writer(out).writerows([["detail"], [str(detail)]])
        return out.getvalue().encode(self.charset)


class FilteredExportSchema(ApiAutoSchema):
    """Documents the list's filters on the export too (it takes the same ones)."""

    def get_filter_backends(self):
        if getattr(self.view, "action", None) == "export":
            return self.view.filter_backends
        return super().get_filter_backends()


def csv_export(summary: str):
    """A list's ``export/`` route: GET the filtered list as CSV (the viewset also sets
    ``schema = FilteredExportSchema()`` so the route documents the list's filters)."""

    def decorate(method):
        routed = action(
            detail=False,
            methods=["get"],
            renderer_classes=[renderers.JSONRenderer, CsvRenderer],
            pagination_class=None,
        )(method)
        return extend_schema(
            summary=summary, responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY)}
        )(routed)

    return decorate
