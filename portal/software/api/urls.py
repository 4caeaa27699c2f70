"""The game software's API routes under /api/ (registered on the one router by
``portal.urls``): its approvals and the Software Installation/Removal Log."""

routes: list = []
