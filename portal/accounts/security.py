"""Sign-in, passwords and the second factor: the rules, and their events in the audit trail.

Every way an account is entered or changed leaves an event in the hash-chained trail
(§ 811a.7 logs): a sign-in, a failed sign-in (and a lock-out), a sign-out, a password chosen
by its user or set by an administrator, and every change to the second factor. Each event
carries the client's address and the request id.

An administrator never learns a working password of someone else: a password set for
another user (the admin's "change password" form, or a new account made with one) marks
the account, and its user must choose their own before anything else. Where the second
factor is required, the administrator cannot sign in as them with it either.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from portal.access.roles import Role, forget, has_role
from portal.accounts.models import ApiToken, Profile
from portal.accounts.tokens import api_token_revoke
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotPermitted

# What a failed sign-in records of the name typed: enough to see a pattern, never a novel.
_TYPED_NAME_MAX = 150
RECOVERY_DEVICE_NAME = "recovery codes"
TOTP_DEVICE_NAME = "authenticator app"

SECOND_FACTOR_REQUIRED = (
    "compliance officers and superusers sign in with a second factor: finish it first"
)
MUST_CHANGE_PASSWORD = (
    "an administrator set your password: choose your own before doing anything else"
)
SAME_PASSWORD = "choose a password other than the one you were given"
WRONG_PASSWORD = "that is not your password"
WRONG_CODE = "that code is not right (or was already used); try the current one"
THROTTLED = "too many wrong codes: wait {seconds} seconds and try again"
ALREADY_ENROLLED = "you already have an authenticator app; ask a superuser to reset it"
NOT_REQUIRED = (
    "a second factor is asked of compliance officers and superusers (with JINZI_REQUIRE_2FA=1)"
)
ONLY_SUPERUSER_RESETS = "only a superuser resets someone else's second factor"
REQUIRED_CANNOT_REMOVE = (
    "your role signs in with a second factor, so it cannot be removed; "
    "a superuser can reset it so you enrol a new one"
)


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


def needs_second_factor(user) -> bool:
    """Compliance officers and superusers, when JINZI_REQUIRE_2FA is on."""
    if not settings.JINZI_REQUIRE_2FA or not user.is_authenticated:
        return False
    return user.is_superuser or has_role(user, Role.COMPLIANCE)


def _where(request: HttpRequest | None) -> dict:
    return {"ip": client_ip(request)}


def _account_event(action: str, *, actor, subject, request: HttpRequest | None, **details) -> None:
    """One event of the account ``subject`` (a user id, or a name as typed), with the client's
    address and ``details`` as its ``after``; no ``actor`` is someone not signed in."""
    audit_record(
        actor=actor,
        actor_name="anonymous",
        action=action,
        object_type="user",
        object_id=subject,
        after={**_where(request), **details},
    )


def _typed_name(credentials: dict) -> str:
    name = credentials.get(get_user_model().USERNAME_FIELD) or credentials.get("username") or ""
    return str(name)[:_TYPED_NAME_MAX]


# --- sign-in, failures, lock-out, sign-out ---------------------------------------------


@transaction.atomic
def sign_in_recorded(*, user, request: HttpRequest | None) -> None:
    _account_event("auth.sign_in", actor=user, subject=user.pk, request=request)


@transaction.atomic
def sign_in_failed(*, credentials: dict, request: HttpRequest | None) -> None:
    """A wrong password (or a refused attempt while locked out). The typed name is kept as
    typed; the object is the account when one has that name."""
    typed = _typed_name(credentials)
    user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: typed}).first()
    locked = bool(getattr(request, "axes_locked_out", False))
    subject = user.pk if user is not None else typed
    _account_event(
        "auth.sign_in_failed",
        actor=None,
        subject=subject,
        request=request,
        username=typed,
        locked_out=locked,
    )


@transaction.atomic
def locked_out_recorded(*, username: str, request: HttpRequest | None) -> None:
    _account_event(
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
    _account_event("auth.sign_out", actor=user, subject=user.pk, request=request)


# --- passwords ---------------------------------------------------------------------------


def _mark(user, **fields) -> None:
    Profile.objects.update_or_create(user=user, defaults=fields)
    forget(user)


@transaction.atomic
def password_set_by_admin(*, actor, user, request: HttpRequest | None = None) -> None:
    """Someone else chose ``user``'s password: mark the account so its user chooses their
    own at next sign-in. Setting one's own password in the admin is an ordinary change."""
    if actor is not None and actor.pk == user.pk:
        password_changed(user=user, request=request)
        return
    # Every setter is kept, and the time of the first: a device enrolled after it (by
    # whoever held the password then) proves nothing, however often it is set again.
    profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
    _mark(
        user,
        must_change_password=True,
        password_setters=sorted({*profile.password_setters, actor.pk}),
        password_set_at=profile.password_set_at or timezone.now(),
    )
    _account_event(
        "auth.password_set",
        actor=actor,
        subject=user.pk,
        request=request,
        username=user.get_username(),
        must_change=True,
    )


@transaction.atomic
def password_changed(*, user, request: HttpRequest | None) -> None:
    """The user chose their own password. It clears the demand for one, not who set the old
    one: that administrator could be the one choosing it (see ``second_factor_verified``)."""
    _mark(user, must_change_password=False)
    _account_event("auth.password_change", actor=user, subject=user.pk, request=request)


# --- the second factor ---------------------------------------------------------------------


def confirmed_totp(user) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=True).first()


def totp_step(key_hex: str, token: str) -> int | None:
    """The time step whose code ``token`` is (the current one ± one) for an authenticator
    being enrolled, or None."""
    if not (token.isdigit() and len(token) == 6):
        return None
    totp = TOTP(bytes.fromhex(key_hex), step=30, t0=0, digits=6, drift=0)
    return totp.t() if totp.verify(int(token), tolerance=1) else None


def _new_recovery_codes(user) -> list[str]:
    device, _ = StaticDevice.objects.get_or_create(user=user, name=RECOVERY_DEVICE_NAME)
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(settings.JINZI_RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


@transaction.atomic
def second_factor_enrol(
    *, user, key_hex: str, token: str, request: HttpRequest | None
) -> tuple[TOTPDevice, list[str]] | None:
    """Confirm a new authenticator with its first code; returns it and fresh recovery codes
    (shown once), or None when the code is wrong."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if confirmed_totp(user) is not None:
        raise Conflict(ALREADY_ENROLLED)
    step = totp_step(key_hex, token)
    if step is None:
        return None
    TOTPDevice.objects.filter(user=user).delete()
    # The confirming code is spent: it cannot also finish a sign-in.
    device = TOTPDevice.objects.create(
        user=user, name=TOTP_DEVICE_NAME, key=key_hex, confirmed=True, last_t=step
    )
    codes = _new_recovery_codes(user)
    _account_event(
        "auth.second_factor_enrol",
        actor=user,
        subject=user.pk,
        request=request,
        device=TOTP_DEVICE_NAME,
        recovery_codes=len(codes),
    )
    return device, codes


@transaction.atomic
def second_factor_verified(*, user, device, request: HttpRequest | None) -> None:
    recovery = isinstance(device, StaticDevice)
    details = {"with": "recovery code" if recovery else "authenticator"}
    if recovery:
        details["recovery_codes_left"] = device.token_set.count()
    # A device enrolled before an administrator last set the password is the owner's: the
    # one signing in is the owner, and may again decide that administrator's work.
    profile = Profile.objects.filter(user=user, password_set_at__isnull=False).first()
    if profile is not None and device.created_at and device.created_at < profile.password_set_at:
        details["owner_confirmed"] = True
        _mark(user, password_setters=[], password_set_at=None)
    _account_event(
        "auth.second_factor_verify", actor=user, subject=user.pk, request=request, **details
    )


@transaction.atomic
def second_factor_failed(*, user, request: HttpRequest | None) -> None:
    _account_event("auth.second_factor_failed", actor=user, subject=user.pk, request=request)


@transaction.atomic
def recovery_codes_renew(*, user, request: HttpRequest | None) -> list[str]:
    codes = _new_recovery_codes(user)
    _account_event(
        "auth.recovery_codes_renew",
        actor=user,
        subject=user.pk,
        request=request,
        recovery_codes=len(codes),
    )
    return codes


@transaction.atomic
def second_factor_remove(*, actor, user, request: HttpRequest | None = None) -> bool:
    """Remove ``user``'s authenticator and recovery codes. A superuser may reset anyone's
    (its user enrols again at next sign-in); a user may remove their own only when their
    role does not require it. Returns whether there was anything to remove."""
    if actor.pk == user.pk and needs_second_factor(user):
        raise NotPermitted(REQUIRED_CANNOT_REMOVE)
    if actor.pk != user.pk and not actor.is_superuser:
        raise NotPermitted(ONLY_SUPERUSER_RESETS)
    removed, _ = TOTPDevice.objects.filter(user=user).delete()
    removed_codes, _ = StaticDevice.objects.filter(user=user).delete()
    if not (removed or removed_codes):
        return False
    # Tokens issued under the old factor end with it (each revocation is its own event);
    # sessions need the new one before anything else (AccountGuardMiddleware).
    active = ApiToken.objects.filter(user=user, revoked_at=None, expires_at__gt=timezone.now())
    for token_id in active.values_list("pk", flat=True):
        api_token_revoke(actor=actor, token_id=token_id)
    _account_event(
        "auth.second_factor_reset" if actor.pk != user.pk else "auth.second_factor_remove",
        actor=actor,
        subject=user.pk,
        request=request,
        username=user.get_username(),
    )
    return True
