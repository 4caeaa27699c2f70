"""The clause matrix API's route under /api/ (registered on the one router by ``portal.urls``)."""

from portal.api.routers import Route
from portal.regulation.api.views import RegulationViewSet

routes = [
    Route("regulation", RegulationViewSet, "regulation"),
]
