"""Portal pages for the audit trail. The records check (``audit:records``) is
``portal.integrity``'s, mounted beside these by the portal's URLs."""

from django.urls import path

from portal.audit import views

app_name = "audit"

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("export.csv", views.event_export, name="event-export"),
    path("verify/", views.verify, name="verify"),
]
