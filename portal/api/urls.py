"""The REST API under /api/."""

urlpatterns: list = []
