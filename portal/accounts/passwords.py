"""Passwords: one chosen by its user, one set by an administrator, and who set it.

An administrator never learns a working password of someone else: a password set for
another user (the admin's "change password" form, or a new account made with one) marks
the account, and its user must choose their own before anything else. Where the second
factor is required, the administrator cannot sign in as them with it either: a device
enrolled after the password was set proves nothing (``owner_confirmed``).
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from portal.access.roles import forget
from portal.accounts.account_events import account_event
from portal.accounts.models import Profile

MUST_CHANGE_PASSWORD = (
    "an administrator set your password: choose your own before doing anything else"
)


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
    account_event(
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
    one: that administrator could be the one choosing it (see ``owner_confirmed``)."""
    _mark(user, must_change_password=False)
    account_event("auth.password_change", actor=user, subject=user.pk, request=request)


def owner_confirmed(user, device) -> bool:
    """Whether ``device``, just used to sign in, was enrolled before an administrator last
    set the password: then it is the owner's, the one signing in is the owner, and who set
    the password is forgotten (the owner may again decide that administrator's work)."""
    profile = Profile.objects.filter(user=user, password_set_at__isnull=False).first()
    if profile is None or not device.created_at or device.created_at >= profile.password_set_at:
        return False
    _mark(user, password_setters=[], password_set_at=None)
    return True
