"""Portal pages for compliance records, offerings and the dashboard."""

urlpatterns: list = []
