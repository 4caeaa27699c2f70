"""The game software's pages: its approvals (§ 461a.4) and the Software Installation/Removal
Log (§ 811a.7(e))."""

app_name = "software"

urlpatterns: list = []
