"""The admin site: Django's, with one door moved.

Changing one's own password is the portal's page (``accounts:password-change``), where it is
validated like any other and recorded in the audit trail; the admin's link leads there.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.shortcuts import redirect


class PortalAdminSite(AdminSite):
    site_header = "Jinzi Roulette back office"
    site_title = "Jinzi Roulette"

    def password_change(self, request, extra_context=None):
        return redirect("accounts:password-change")


class PortalAdminConfig(AdminConfig):
    """Django's admin app, on the site above (named in INSTALLED_APPS)."""

    default_site = "portal.accounts.adminsite.PortalAdminSite"
