from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from portal.accounts import views as accounts_views
from portal.core import views as core_views

urlpatterns = [
    path("", accounts_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("portal.accounts.urls")),
    path("compliance/", include("portal.compliance.urls")),
    path("audit/", include("portal.audit.urls")),
    path("reports/", include("portal.reports.urls")),
    path("regulation/", include("portal.regulation.urls")),
    path("play/", include("portal.game.urls")),
    path("api/", include("portal.api.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "portal.core.views.page_not_found"
handler500 = "portal.core.views.server_error"
