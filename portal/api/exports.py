"""What every CSV export of the API shares: its renderer and its route (whose schema
documents the list's filters, which it takes too)."""

from __future__ import annotations

import csv
import io

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import renderers
from rest_framework.decorators import action

from portal.api.schema import TAKES_LIST_FILTERS


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


def csv_export(summary: str):
    """A list's ``export/`` route: GET the filtered list as CSV, documented with the
    list's filters."""

    def decorate(method):
        setattr(method, TAKES_LIST_FILTERS, True)
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
