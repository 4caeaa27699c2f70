"""The one router of the REST API: every app declares its routes (its ``api/urls.py``),
and the site's URLconf registers them all here, so the root at /api/ lists them all and
the schema is generated from a single set of routes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rest_framework.routers import DefaultRouter
from rest_framework.viewsets import ViewSetMixin


class Route(NamedTuple):
    """One resource: its address under /api/, its viewset, and the stem of its URL names
    (``{basename}-list``, ``{basename}-detail``, ``{basename}-{action}``)."""

    prefix: str
    viewset: type[ViewSetMixin]
    basename: str


class ApiRouter(DefaultRouter):
    # No ".json" suffix routes: one URL per resource, and nothing for a suffix to break.
    include_format_suffixes = False

    def __init__(self, routes: Iterable[Route]) -> None:
        super().__init__()
        for route in routes:
            self.register(route.prefix, route.viewset, basename=route.basename)
