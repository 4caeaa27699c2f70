"""API clients sign in with a bearer token: ``Authorization: Bearer jzt_…``.

One query finds the token by the SHA-256 of the secret, with its user (``select_related``);
roles and holder are read as for any signed-in user. A revoked or expired token, one whose
user is inactive, or one issued before the user's password last changed (as Django ends
their sessions) is refused with 401, a reason and the bearer challenge
(``portal.api.exceptions.CredentialsRefused``); nothing about other tokens is revealed.

An app above this one may add a check of its own (``add_check``, from its
``AppConfig.ready``): a player's token, for one, works only inside an API session that runs.

The project's REST settings name this class by its dotted path.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone
from django.utils.crypto import constant_time_compare
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication

from portal.accounts.models import ApiToken
from portal.accounts.tokens import PREFIX, digest_of
from portal.api.exceptions import CredentialsRefused

MALFORMED = "the Authorization header must be 'Bearer <token>' with one jzt_ token"
UNKNOWN = "this API token is not valid"
EXPIRED = "this API token expired at {at}; issue a new one"
REVOKED = "this API token was revoked"
INACTIVE = "the account of this API token is disabled"
PASSWORD_CHANGED = "the account's password changed after this API token was issued"
_MAX_LENGTH = 100
_KEYWORD = b"bearer"
# RFC 6750 §3.1: a token sent and refused.
CHALLENGE = 'Bearer realm="api", error="invalid_token"'


# Checks added by the apps above: each takes (user, token) and may raise CredentialsRefused.
_checks: list[Callable] = []


def add_check(check: Callable) -> None:
    if check not in _checks:
        _checks.append(check)


def refused(reason: str) -> CredentialsRefused:
    """A bearer token's use refused: 401 with ``reason`` and the bearer challenge."""
    return _refused(reason)


def _refused(reason: str) -> CredentialsRefused:
    return CredentialsRefused(reason, challenge=CHALLENGE)


def sends_bearer(request) -> bool:
    """Whether the request's Authorization header is a bearer token's (valid or not)."""
    parts = authentication.get_authorization_header(request).split()
    return bool(parts) and parts[0].lower() == _KEYWORD


class BearerTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        if not sends_bearer(request):
            return None  # not ours: the session may apply
        parts = authentication.get_authorization_header(request).split()
        if len(parts) != 2 or len(parts[1]) > _MAX_LENGTH:
            raise _refused(MALFORMED)
        try:
            secret = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise _refused(MALFORMED) from None
        if not secret.startswith(PREFIX):
            raise _refused(MALFORMED)
        token = ApiToken.objects.select_related("user").filter(digest=digest_of(secret)).first()
        if token is None:
            raise _refused(UNKNOWN)
        user = token.user
        if token.revoked_at is not None:
            raise _refused(REVOKED)
        if timezone.now() >= token.expires_at:
            raise _refused(EXPIRED.format(at=token.expires_at.isoformat()))
        if not user.is_active:
            raise _refused(INACTIVE)
        if not constant_time_compare(token.auth_hash, user.get_session_auth_hash()):
            raise _refused(PASSWORD_CHANGED)
        for check in _checks:
            check(user, token)
        return user, token

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """How the OpenAPI schema names this sign-in (drf-spectacular finds it by subclassing)."""

    target_class = BearerTokenAuthentication
    name = "bearerToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token from /api/tokens/ or the API tokens page (jzt_…).",
        }
