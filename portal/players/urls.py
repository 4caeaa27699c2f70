"""The players' pages under /players/: registration, the player file and self-exclusion."""

from django.urls import path

from portal.players import list_views, views

app_name = "players"

urlpatterns = [
    path("register/", views.register, name="register"),
    path("welcome/", views.welcome, name="welcome"),
    path("waiting/", views.waiting, name="waiting"),
    path("exclude/", views.exclude, name="exclude"),
    path("<int:pk>/", views.identity, name="identity"),
    # The holders' copy of the Board's self-exclusion list (§ 815a.4).
    path("list/", list_views.exclusion_list, name="list"),
    path("list/reviews/", list_views.reviews, name="reviews"),
]
