"""The REST API under /api/: the compliance records, the audit trail, the schema and its docs.

The docs page (Swagger UI) loads its assets from drf-spectacular-sidecar's static files, so it
works offline; both it and the schema need a signed-in user.
"""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.permissions import IsAuthenticated
from rest_framework.routers import DefaultRouter

from portal.api.audit import AuditEventViewSet
from portal.api.holders import HolderViewSet
from portal.api.layouts import LayoutViewSet
from portal.api.offerings import OfferingViewSet
from portal.api.paytables import PaytableViewSet
from portal.api.rules import RulesSubmissionViewSet
from portal.api.tokens import ApiTokenViewSet

router = DefaultRouter()
# No ".json" suffix routes: one URL per resource, and nothing for a suffix to break.
router.include_format_suffixes = False
router.register("holders", HolderViewSet, basename="holder")
router.register("layouts", LayoutViewSet, basename="layout")
router.register("paytables", PaytableViewSet, basename="paytable")
router.register("rules-submissions", RulesSubmissionViewSet, basename="rules-submission")
router.register("offerings", OfferingViewSet, basename="offering")
router.register("audit-events", AuditEventViewSet, basename="audit-event")
router.register("tokens", ApiTokenViewSet, basename="api-token")

signed_in = [IsAuthenticated]

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(permission_classes=signed_in), name="api-schema"),
    path(
        "docs/",
        SpectacularSwaggerView.as_view(url_name="api-schema", permission_classes=signed_in),
        name="api-docs",
    ),
    *router.urls,
]
