"""What a signed-in session must finish before it may do anything else.

1. The second factor, for compliance officers and superusers when JINZI_REQUIRE_2FA is on:
   enrol an authenticator (first time) or enter its code (every sign-in).
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

from portal.accounts.roles import must_change_password
from portal.accounts.security import (
    MUST_CHANGE_PASSWORD,
    SECOND_FACTOR_REQUIRED,
    confirmed_totp,
    needs_second_factor,
)

# Always reachable mid-way: the steps themselves, signing out, and what serves no data.
_OPEN_NAMES = (
    "logout",
    "accounts:second-factor-setup",
    "accounts:second-factor-verify",
    "accounts:password-change",
    "healthz",
)


class AccountGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self._open_paths: frozenset[str] | None = None

    def _open(self, path: str) -> bool:
        if self._open_paths is None:
            self._open_paths = frozenset(reverse(name) for name in _OPEN_NAMES)
        return path in self._open_paths or path.startswith("/static/")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or self._open(request.path):
            return self.get_response(request)
        if needs_second_factor(user) and not user.is_verified():
            step = (
                "accounts:second-factor-verify"
                if confirmed_totp(user) is not None
                else "accounts:second-factor-setup"
            )
            return self._stop(request, step, SECOND_FACTOR_REQUIRED)
        if must_change_password(user):
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
