"""The reports API's routes under /api/ (registered on the one router by ``portal.urls``)."""

from portal.api.routers import Route
from portal.reports.api.views import ReportRunViewSet

routes = [
    Route("reports", ReportRunViewSet, "report-run"),
]
