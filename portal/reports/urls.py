"""The Reports pages."""

from django.urls import path

from portal.reports import views

app_name = "reports"

urlpatterns = [
    path("", views.report_list, name="run-list"),
    path("<int:pk>/", views.run_detail, name="run-detail"),
    path("<int:pk>/retry/", views.run_retry, name="run-retry"),
    path("<int:pk>/files/<slug:fmt>/", views.run_file, name="run-file"),
    path("<int:pk>/charts/<slug:key>.svg", views.report_chart, name="run-chart"),
]
