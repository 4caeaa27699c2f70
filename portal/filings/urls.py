"""The filing package pages."""

from django.urls import path

from portal.filings import views

app_name = "filings"

urlpatterns = [
    path("rules/<int:pk>/", views.package, name="package"),
]
