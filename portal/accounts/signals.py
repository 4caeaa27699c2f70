"""Django's and django-axes's sign-in signals, each recorded in the audit trail.

Thin receivers: the events are written by ``portal.accounts.account_events``. Connected in
``AccountsConfig.ready`` so every way in (the login page, the admin's) is covered.
"""

from __future__ import annotations

from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed

from portal.accounts import account_events
from portal.accounts.second_factor import remember_choice


def _signed_in(sender, request, user, **kwargs) -> None:
    account_events.sign_in_recorded(user=user, request=request)
    if request is not None and hasattr(request, "session"):
        remember_choice(user, request.session)


def _failed(sender, credentials, request=None, **kwargs) -> None:
    account_events.sign_in_failed(credentials=credentials, request=request)


def _signed_out(sender, request, user, **kwargs) -> None:
    account_events.sign_out_recorded(user=user, request=request)


def _locked_out(sender, request, username, **kwargs) -> None:
    account_events.locked_out_recorded(username=username, request=request)


def connect() -> None:
    user_logged_in.connect(_signed_in, dispatch_uid="jinzi.audit.sign_in")
    user_login_failed.connect(_failed, dispatch_uid="jinzi.audit.sign_in_failed")
    user_logged_out.connect(_signed_out, dispatch_uid="jinzi.audit.sign_out")
    user_locked_out.connect(_locked_out, dispatch_uid="jinzi.audit.locked_out")
