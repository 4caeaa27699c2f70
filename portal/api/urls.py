"""The REST API under /api/: one router for every app's viewsets, the schema and its docs.

Each app keeps its viewsets in its own ``api`` module; they are registered here, once, so
the API root lists them all and the schema is generated from a single set of routes.
The docs page (Swagger UI) loads its assets from drf-spectacular-sidecar's static files, so
it works offline; both it and the schema need a signed-in user.
"""

from django.contrib.auth.views import redirect_to_login
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.permissions import IsAuthenticated
from rest_framework.routers import DefaultRouter

from portal.accounts.api import ApiTokenViewSet, HolderViewSet
from portal.audit.api import AuditEventViewSet
from portal.compliance.api.availability import AvailabilityViewSet
from portal.compliance.api.layouts import LayoutViewSet
from portal.compliance.api.offerings import OfferingViewSet
from portal.compliance.api.paytables import PaytableViewSet
from portal.compliance.api.rules import RulesSubmissionViewSet
from portal.game.api import RoundViewSet, WalletViewSet
from portal.regulation.api import RegulationViewSet
from portal.reports.api import ReportRunViewSet

router = DefaultRouter()
# No ".json" suffix routes: one URL per resource, and nothing for a suffix to break.
router.include_format_suffixes = False
router.register("holders", HolderViewSet, basename="holder")
router.register("layouts", LayoutViewSet, basename="layout")
router.register("paytables", PaytableViewSet, basename="paytable")
router.register("rules-submissions", RulesSubmissionViewSet, basename="rules-submission")
router.register("offerings", OfferingViewSet, basename="offering")
router.register("audit-events", AuditEventViewSet, basename="audit-event")
router.register("availability", AvailabilityViewSet, basename="availability")
router.register("tokens", ApiTokenViewSet, basename="api-token")
router.register("reports", ReportRunViewSet, basename="report-run")
router.register("rounds", RoundViewSet, basename="round")
router.register("wallet", WalletViewSet, basename="wallet")
router.register("regulation", RegulationViewSet, basename="regulation")

signed_in = [IsAuthenticated]
_swagger = SpectacularSwaggerSplitView.as_view(url_name="api-schema", permission_classes=signed_in)


def docs(request, *args, **kwargs):
    """The docs are a page people open: signed out, they are sent to sign in and back."""
    if request.method in ("GET", "HEAD") and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _swagger(request, *args, **kwargs)


urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(permission_classes=signed_in), name="api-schema"),
    path(
        "docs/",
        # The split view serves its start-up script as a file (?script): no inline script,
        # as the Content-Security-Policy asks.
        docs,
        name="api-docs",
    ),
    *router.urls,
]
