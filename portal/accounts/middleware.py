"""What a signed-in session must finish before it may do anything else.

1. The second factor, for compliance officers and superusers when JINZI_REQUIRE_2FA is on:
   enrol an authenticator (first time) or enter its code (every sign-in); and for a player
   who enrolled one by choice, its code at every sign-in.
2. A new password of their own, when an administrator set theirs.

Until then a page sends them to the step (and back afterwards), an API call by session
answers 403 with the reason. API tokens are issued only from a finished session and end
when the password changes, so a bearer request has nothing left to finish.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse

from portal.access.roles import must_change_password
from portal.accounts.passwords import MUST_CHANGE_PASSWORD
from portal.accounts.second_factor import (
    SECOND_FACTOR_REQUIRED,
    asks_second_factor,
    confirmed_totp,
)

# Reachable mid-way: signing out, what serves no data, and the current step's own pages.
# The password can be changed only once the second factor is done: a password alone must
# not lock its owner out.
_ALWAYS_OPEN = ("logout", "healthz")
_SECOND_FACTOR_STEP = ("accounts:second-factor-setup", "accounts:second-factor-verify")
_PASSWORD_STEP = ("accounts:password-change",)


class AccountGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    @staticmethod
    def _open(path: str, step: tuple[str, ...]) -> bool:
        names = (*_ALWAYS_OPEN, *step)
        return path.startswith("/static/") or path in {reverse(name) for name in names}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        path = request.path
        if asks_second_factor(user, request.session) and not user.is_verified():
            if self._open(path, _SECOND_FACTOR_STEP):
                return self.get_response(request)
            step = (
                "accounts:second-factor-verify"
                if confirmed_totp(user) is not None
                else "accounts:second-factor-setup"
            )
            return self._stop(request, step, SECOND_FACTOR_REQUIRED)
        if must_change_password(user) and not self._open(path, _PASSWORD_STEP):
            return self._stop(request, "accounts:password-change", MUST_CHANGE_PASSWORD)
        return self.get_response(request)

    @staticmethod
    def _stop(request: HttpRequest, step: str, reason: str) -> HttpResponse:
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": reason, "errors": {}}, status=403)
        target = reverse(step)
        if request.method in ("GET", "HEAD"):
            target += "?" + urlencode({"next": request.get_full_path()})
        return redirect(target)
