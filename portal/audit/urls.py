"""Portal pages for the audit trail."""

urlpatterns: list = []
