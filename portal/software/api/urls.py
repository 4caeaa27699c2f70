"""The game software's API routes under /api/ (registered on the one router by
``portal.urls``): its approvals and the Software Installation/Removal Log."""

from portal.api.routers import Route
from portal.software.api.installations import InstallationViewSet

routes: list = []

# The Software Installation/Removal Log (§ 811a.7(e)).
routes += [Route("software/installations", InstallationViewSet, "software-installation")]
