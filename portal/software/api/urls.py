"""The game software's API routes under /api/ (registered on the one router by
``portal.urls``): the identity of the software running (§ 461a.4) and the Software
Installation/Removal Log (§ 811a.7(e)). Its approvals are the compliance app's
(``/api/software-approvals/``), since deciding them opens and closes tables."""

from portal.api.routers import Route
from portal.software.api.identity import SoftwareIdentityViewSet
from portal.software.api.installations import InstallationViewSet

routes = [
    Route("software/installations", InstallationViewSet, "software-installation"),
    Route("software/identity", SoftwareIdentityViewSet, "software-identity"),
]
