"""The game software's pages: its approvals (§ 461a.4) and the Software Installation/Removal
Log (§ 811a.7(e))."""

from django.urls import path

from portal.software.views import installations

app_name = "software"

urlpatterns: list = []

# The Software Installation/Removal Log (§ 811a.7(e)).
urlpatterns += [
    path("installations/", installations.installation_list, name="installation-list"),
    path(
        "installations/export.csv",
        installations.installation_export,
        name="installation-export",
    ),
]
