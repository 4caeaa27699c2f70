from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from portal.accounts import views as accounts_views
from portal.accounts.api import urls as accounts_api
from portal.api.routers import ApiRouter
from portal.audit import urls as audit_urls
from portal.audit.api import urls as audit_api
from portal.compliance.api import urls as compliance_api
from portal.core import views as core_views
from portal.game.api import urls as game_api
from portal.integrity import urls as integrity_urls
from portal.metrics import views as metrics_views
from portal.regulation.api import urls as regulation_api
from portal.reports.api import urls as reports_api
from portal.software.api import urls as software_api

# Every app's API routes on one router, so the root at /api/ lists them all.
api_router = ApiRouter(
    [
        *accounts_api.routes,
        *audit_api.routes,
        *compliance_api.routes,
        *game_api.routes,
        *reports_api.routes,
        *regulation_api.routes,
        *software_api.routes,
    ]
)

urlpatterns = [
    path("", accounts_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    # Machine text for Prometheus, behind its own bearer token (docs/operations.md, Metrics).
    path("metrics", metrics_views.metrics, name="metrics"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("portal.accounts.urls")),
    path("compliance/", include("portal.compliance.urls")),
    # The records check (portal.integrity, above the apps it reads) joins the audit pages.
    path("audit/", include((audit_urls.urlpatterns + integrity_urls.urlpatterns, "audit"))),
    path("reports/", include("portal.reports.urls")),
    path("filings/", include("portal.filings.urls")),
    path("regulation/", include("portal.regulation.urls")),
    path("software/", include("portal.software.urls")),
    path("play/", include("portal.game.urls")),
    path("players/", include("portal.players.urls")),
    path("notifications/", include("portal.notifications.urls")),
    path("api/", include("portal.api.urls")),  # the schema and its docs
    path("api/", include(api_router.urls)),
    path("admin/", admin.site.urls),
]

handler404 = "portal.core.views.page_not_found"
handler500 = "portal.core.views.server_error"
