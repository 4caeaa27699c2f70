"""The admin site: Django's, with one door moved, in Pennsylvania time.

Changing one's own password is the portal's page (``accounts:password-change``), where it is
validated like any other and recorded in the audit trail; the admin's link leads there.

Every admin page shows its instants in Pennsylvania time with the zone's abbreviation
(EST or EDT: the format is ``portal.core.formats``), whatever the server's own time zone:
the zone is made current for the whole request, the page's rendering included.
"""

from __future__ import annotations

from functools import wraps
from zoneinfo import ZoneInfo

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.shortcuts import redirect
from django.utils import timezone

PENNSYLVANIA = ZoneInfo("America/New_York")


class PortalAdminSite(AdminSite):
    site_header = "Jinzi Roulette back office"
    site_title = "Jinzi Roulette"

    def password_change(self, request, extra_context=None):
        return redirect("accounts:password-change")

    def admin_view(self, view, cacheable=False):
        guarded = super().admin_view(view, cacheable)

        @wraps(guarded)
        def in_pennsylvania_time(request, *args, **kwargs):
            with timezone.override(PENNSYLVANIA):
                response = guarded(request, *args, **kwargs)
                # A TemplateResponse renders after the view returns: render it here, in
                # the zone (rendering twice is a no-op).
                if callable(getattr(response, "render", None)):
                    response = response.render()
            return response

        return in_pennsylvania_time


class PortalAdminConfig(AdminConfig):
    """Django's admin app, on the site above (named in INSTALLED_APPS)."""

    default_site = "portal.accounts.adminsite.PortalAdminSite"
