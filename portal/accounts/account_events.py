"""An account's events in the hash-chained audit trail, and the sign-in ones.

Every way an account is entered or changed leaves an event (§ 811a.7 logs): a sign-in, a
failed sign-in (and a lock-out), a sign-out here; a password chosen or set (``passwords``)
and every change to the second factor (``second_factor``). Each event carries the client's
address and the request id.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest

from portal.audit.services import audit_record

# What a failed sign-in records of the name typed: enough to see a pattern, never a novel.
_TYPED_NAME_MAX = 150


def client_ip(request: HttpRequest | None) -> str:
    """The client's address: behind the TLS proxy (DJANGO_BEHIND_TLS_PROXY=1), when the
    connection comes from one of JINZI_TRUSTED_PROXIES, the last address that proxy
    appended to X-Forwarded-For; otherwise the connection's own."""
    if request is None:
        return ""
    meta = request.META
    proxied = meta.get("REMOTE_ADDR", "") in settings.JINZI_TRUSTED_PROXIES
    if settings.SECURE_PROXY_SSL_HEADER is not None and proxied:
        forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last[:45]
    return str(meta.get("REMOTE_ADDR", ""))[:45]


def account_event(action: str, *, actor, subject, request: HttpRequest | None, **details) -> None:
    """One event of the account ``subject`` (a user id, or a name as typed), with the client's
    address and ``details`` as its ``after``; no ``actor`` is someone not signed in."""
    audit_record(
        actor=actor,
        actor_name="anonymous",
        action=action,
        object_type="user",
        object_id=subject,
        after={"ip": client_ip(request), **details},
    )


def _typed_name(credentials: dict) -> str:
    name = credentials.get(get_user_model().USERNAME_FIELD) or credentials.get("username") or ""
    return str(name)[:_TYPED_NAME_MAX]


@transaction.atomic
def sign_in_recorded(*, user, request: HttpRequest | None) -> None:
    account_event("auth.sign_in", actor=user, subject=user.pk, request=request)


@transaction.atomic
def sign_in_failed(*, credentials: dict, request: HttpRequest | None) -> None:
    """A wrong password (or a refused attempt while locked out). The typed name is kept as
    typed; the object is the account when one has that name."""
    typed = _typed_name(credentials)
    user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: typed}).first()
    locked = bool(getattr(request, "axes_locked_out", False))
    subject = user.pk if user is not None else typed
    account_event(
        "auth.sign_in_failed",
        actor=None,
        subject=subject,
        request=request,
        username=typed,
        locked_out=locked,
    )


@transaction.atomic
def locked_out_recorded(*, username: str, request: HttpRequest | None) -> None:
    account_event(
        "auth.locked_out",
        actor=None,
        subject=str(username)[:_TYPED_NAME_MAX],
        request=request,
        failures=settings.AXES_FAILURE_LIMIT,
        minutes=int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    )


@transaction.atomic
def sign_out_recorded(*, user, request: HttpRequest | None) -> None:
    if user is None or not user.is_authenticated:
        return  # signing out with no session: nothing happened
    account_event("auth.sign_out", actor=user, subject=user.pk, request=request)
