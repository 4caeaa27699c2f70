"""The game software's API routes under /api/ (registered on the one router by
``portal.urls``): its approvals, the Software Installation/Removal Log and the identity
of the software running."""

from portal.api.routers import Route
from portal.software.api.identity import SoftwareIdentityViewSet

routes: list = []
# The identity of the software running (§ 461a.4).
routes.append(Route("software/identity", SoftwareIdentityViewSet, "software-identity"))
