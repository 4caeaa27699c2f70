from django.urls import path

from portal.game import views

app_name = "game"

urlpatterns = [
    path("", views.tables, name="tables"),
    path("<int:pk>/", views.table, name="table"),
    path("history/", views.history, name="history"),
    path("rounds/<int:pk>/", views.round_detail, name="round"),
    path("replay/", views.replay_last, name="replay-last"),
    path("rounds/<int:pk>/replay/", views.replay, name="replay"),
    path("rounds/", views.round_list, name="round-list"),
    path("verify/", views.verify_rounds, name="verify-rounds"),
]
