"""The second factor: an authenticator app and recovery codes, who must have one, and every
change to it as an event in the audit trail (§ 811a.7 logs).

Compliance officers and superusers sign in with it when JINZI_REQUIRE_2FA is on. Only a
superuser resets someone else's; a user whose role requires it cannot remove their own.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django_otp import devices_for_user
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from portal.access.roles import Role, has_role
from portal.accounts.account_events import account_event
from portal.accounts.models import ApiToken
from portal.accounts.passwords import owner_confirmed
from portal.accounts.tokens import api_token_revoke
from portal.core.errors import Conflict, NotPermitted

RECOVERY_DEVICE_NAME = "recovery codes"
TOTP_DEVICE_NAME = "authenticator app"

SECOND_FACTOR_REQUIRED = (
    "compliance officers and superusers sign in with a second factor: finish it first"
)
ALREADY_ENROLLED = "you already have an authenticator app; ask a superuser to reset it"
ONLY_SUPERUSER_RESETS = "only a superuser resets someone else's second factor"
REQUIRED_CANNOT_REMOVE = (
    "your role signs in with a second factor, so it cannot be removed; "
    "a superuser can reset it so you enrol a new one"
)


def needs_second_factor(user) -> bool:
    """Compliance officers and superusers, when JINZI_REQUIRE_2FA is on."""
    if not settings.JINZI_REQUIRE_2FA or not user.is_authenticated:
        return False
    return user.is_superuser or has_role(user, Role.COMPLIANCE)


# The session remembers, from sign-in, that its user enrolled a second factor by choice: the
# code is then asked at every sign-in, as of those who must (§ 812a.3(a)(3)).
ENROLLED_BY_CHOICE = "jinzi_second_factor_by_choice"


def may_enrol(user) -> bool:
    """Who sets up an authenticator: those who must, and players by choice (§ 812a.3(a)(3):
    strong authentication is offered to every player from registration on)."""
    return needs_second_factor(user) or has_role(user, Role.PLAYER)


def asks_second_factor(user, session) -> bool:
    """Whether this session must show a second factor before anything else."""
    return needs_second_factor(user) or bool(session.get(ENROLLED_BY_CHOICE))


def remember_choice(user, session) -> None:
    """At a player's sign-in: whether they enrolled a second factor (one read, players only)."""
    if not needs_second_factor(user) and has_role(user, Role.PLAYER):
        session[ENROLLED_BY_CHOICE] = confirmed_totp(user) is not None


def confirmed_totp(user) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=True).first()


def recovery_device(user) -> StaticDevice | None:
    return StaticDevice.objects.filter(user=user).first()


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
    account_event(
        "auth.second_factor_enrol",
        actor=user,
        subject=user.pk,
        request=request,
        device=TOTP_DEVICE_NAME,
        recovery_codes=len(codes),
    )
    return device, codes


@transaction.atomic
def device_for_code(user, code: str):
    """The device that accepts ``code`` (each device throttles its own failures), or None
    and the seconds to wait when every device is throttled."""
    waits, tried = [], False
    # Each device row is locked while its code is checked and spent: the same code sent
    # twice at once is accepted once.
    for device in devices_for_user(user, confirmed=True, for_verify=True):
        allowed, details = device.verify_is_allowed()
        if not allowed:
            locked_until = (details or {}).get("locked_until") or timezone.now()
            waits.append(int((locked_until - timezone.now()).total_seconds()) + 1)
            continue
        if device.verify_token(code):
            return device, 0
        tried = True
    return None, (max(waits) if waits and not tried else 0)


@transaction.atomic
def second_factor_verified(*, user, device, request: HttpRequest | None) -> None:
    recovery = isinstance(device, StaticDevice)
    details = {"with": "recovery code" if recovery else "authenticator"}
    if recovery:
        details["recovery_codes_left"] = device.token_set.count()
    if owner_confirmed(user, device):
        details["owner_confirmed"] = True
    account_event(
        "auth.second_factor_verify", actor=user, subject=user.pk, request=request, **details
    )


@transaction.atomic
def second_factor_failed(*, user, request: HttpRequest | None) -> None:
    account_event("auth.second_factor_failed", actor=user, subject=user.pk, request=request)


@transaction.atomic
def recovery_codes_renew(*, user, request: HttpRequest | None) -> list[str]:
    codes = _new_recovery_codes(user)
    account_event(
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
    account_event(
        "auth.second_factor_reset" if actor.pk != user.pk else "auth.second_factor_remove",
        actor=actor,
        subject=user.pk,
        request=request,
        username=user.get_username(),
    )
    return True
