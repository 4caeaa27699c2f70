"""The REST API's own pages under /api/: the schema and its docs.

The apps' resources are mounted beside them, on one router (``routers.ApiRouter``), by the
site's URLconf. The docs page (Swagger UI) loads its assets from drf-spectacular-sidecar's
static files, so it works offline; both it and the schema need a signed-in user.
"""

from django.contrib.auth.views import redirect_to_login
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.permissions import IsAuthenticated

signed_in = [IsAuthenticated]
_swagger = SpectacularSwaggerSplitView.as_view(url_name="api-schema", permission_classes=signed_in)


def docs(request, *args, **kwargs):
    """The docs are a page people open: signed out, they are sent to sign in and back."""
    if request.method in ("GET", "HEAD") and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _swagger(request, *args, **kwargs)


urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(permission_classes=signed_in), name="api-schema"),
    path(
        "docs/",
        # The split view serves its start-up script as a file (?script): no inline script,
        # as the Content-Security-Policy asks.
        docs,
        name="api-docs",
    ),
]
