"""API tokens: issuing and revoking them (services), and checking one on a request.

A token is ``jzt_`` and 43 URL-safe characters (256 random bits). The database keeps
its SHA-256 only, so a token is found by the hash of what the client sends; the secret
is returned once, by ``api_token_issue``, and never again.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from portal.access.policy import Action, require
from portal.accounts.models import ApiToken
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.core.validation import clean_text

PREFIX = "jzt_"
SHOWN_PREFIX = 12  # "jzt_" and the first 8 random characters, to tell tokens apart
DEFAULT_DAYS = 90
MAX_DAYS = 365
MAX_ACTIVE = 20

DAYS_RANGE = f"a token lives from 1 to {MAX_DAYS} days"
TOO_MANY = f"you already have {MAX_ACTIVE} active tokens; revoke one first"
NO_SUCH_TOKEN = "you have no API token {id}"
ALREADY_REVOKED = "this token was already revoked at {at}"
TOKEN_CANNOT_ISSUE = "an API token cannot issue tokens; sign in to the portal with your password"


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _picture(token: ApiToken) -> dict:
    return {
        "user_id": token.user_id,
        "name": token.name,
        "prefix": token.prefix,
        "expires_at": token.expires_at.isoformat(),
        "revoked_at": token.revoked_at.isoformat() if token.revoked_at else None,
    }


@transaction.atomic
def api_token_issue(
    *, user, name: str, days: int = DEFAULT_DAYS, signed_in_with_token: bool = False
) -> tuple[ApiToken, str]:
    """A new token acting as ``user``; returns it and its secret (shown this once).

    Only a password sign-in issues tokens: a leaked token must not be able to outlive
    its own expiry or revocation by minting others.
    """
    require(user, Action.OWN_API_TOKENS)
    if signed_in_with_token:
        raise NotPermitted(TOKEN_CANNOT_ISSUE)
    name = clean_text("name", name, what="the token's name", max_length=100)
    if type(days) is not int or not 1 <= days <= MAX_DAYS:
        raise ValidationFailed.on("days", DAYS_RANGE)
    # The user's row lock makes the count and the insert one step: no 21st token by a race.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    active = ApiToken.objects.filter(user=user, revoked_at=None, expires_at__gt=now).count()
    if active >= MAX_ACTIVE:
        raise ValidationFailed.on("name", TOO_MANY)
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=secret[:SHOWN_PREFIX],
        digest=digest_of(secret),
        auth_hash=user.get_session_auth_hash(),
        expires_at=now + datetime.timedelta(days=days),
    )
    audit_record(
        actor=user,
        action="api_token.issue",
        object_type="api_token",
        object_id=token.pk,
        after=_picture(token),
    )
    return token, secret


@transaction.atomic
def api_token_revoke(*, actor, token_id: int) -> ApiToken:
    """Revoke one of ``actor``'s own tokens (a superuser: anyone's); it stops working at once."""
    require(actor, Action.OWN_API_TOKENS)
    tokens = ApiToken.objects.select_for_update()
    if not actor.is_superuser:
        tokens = tokens.filter(user=actor)
    token = tokens.filter(pk=token_id).first()
    if token is None:
        raise NotFound(NO_SUCH_TOKEN.format(id=token_id))
    if token.revoked_at is not None:
        raise Conflict(ALREADY_REVOKED.format(at=token.revoked_at.isoformat()))
    before = _picture(token)
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit_record(
        actor=actor,
        action="api_token.revoke",
        object_type="api_token",
        object_id=token.pk,
        before=before,
        after=_picture(token),
    )
    return token
