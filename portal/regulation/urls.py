"""The Regulation page (its JSON is the API's /api/regulation/)."""

from django.urls import path

from portal.regulation import views

app_name = "regulation"

urlpatterns = [
    path("", views.regulation, name="matrix"),
]
