from django.urls import path

from portal.notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("<int:pk>/read/", views.mark_read, name="read"),
    path("read-all/", views.mark_all_read, name="read-all"),
    path("preferences/", views.preferences, name="preferences"),
]
