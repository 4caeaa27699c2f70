"""The records check's page. It has no namespace of its own: the portal mounts it with the
audit pages, under ``audit/`` and the ``audit`` namespace (``audit:records``), since the
audit app, below this one, cannot import it."""

from django.urls import path

from portal.integrity import views

urlpatterns = [
    path("records/", views.records, name="records"),
]
