"""The accounts API's routes under /api/ (registered on the one router by ``portal.urls``)."""

from portal.accounts.api.views import ApiTokenViewSet, HolderViewSet
from portal.api.routers import Route

routes = [
    Route("holders", HolderViewSet, "holder"),
    Route("tokens", ApiTokenViewSet, "api-token"),
]
