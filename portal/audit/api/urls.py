"""The audit trail API's routes under /api/ (registered on the one router by ``portal.urls``)."""

from portal.api.routers import Route
from portal.audit.api.views import AuditEventViewSet

routes = [
    Route("audit-events", AuditEventViewSet, "audit-event"),
]
