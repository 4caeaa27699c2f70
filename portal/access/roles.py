"""Which roles a user holds and which holder they act for, read once per request.

Sign-in is Django's own (its database sessions and ``ModelBackend``). The policy then
needs the user's groups and profile: one ORM query reads both, the first time either is
asked for, and keeps them on the user object, which lives as long as its request.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import models


class Role(models.TextChoices):
    """The people of reading:roles; each is a Django Group of the same name."""

    COMPLIANCE = "Compliance", "Compliance officer"
    MANAGER = "Manager", "Manager"
    AUDITOR = "Auditor", "Auditor"
    PLAYER = "Player", "Player"
    PAYMENTS = "Payments", "Payments staff"
    SUPERVISOR = "Supervisor", "Holder supervisor"


_ROLES_ATTR = "_jinzi_roles"
_HOLDER_ATTR = "_jinzi_holder_id"
_MUST_CHANGE_ATTR = "_jinzi_must_change_password"
_SETTERS_ATTR = "_jinzi_password_setters"


def _load(user) -> None:
    # One row per group (one row with no group for a user in none), each with the holder.
    rows = list(
        get_user_model()
        .objects.filter(pk=user.pk)
        .values_list(
            "groups__name",
            "profile__holder_id",
            "profile__must_change_password",
            "profile__password_setters",
        )
    )
    names = {row[0] for row in rows if row[0] is not None}
    setattr(user, _ROLES_ATTR, frozenset(role for role in Role if role.value in names))
    setattr(user, _HOLDER_ATTR, rows[0][1] if rows else None)
    setattr(user, _MUST_CHANGE_ATTR, bool(rows and rows[0][2]))
    setattr(user, _SETTERS_ATTR, frozenset(rows[0][3] or ()) if rows else frozenset())


def roles_of(user) -> frozenset[Role]:
    if user is None or not user.is_authenticated or not user.is_active:
        return frozenset()
    if not hasattr(user, _ROLES_ATTR):
        _load(user)
    return getattr(user, _ROLES_ATTR)


def has_role(user, role: Role) -> bool:
    return role in roles_of(user)


def holder_id_of(user) -> int | None:
    """The certificate holder a manager or payments staff act for (None for everyone else)."""
    if user is None or not user.is_authenticated:
        return None
    if not hasattr(user, _HOLDER_ATTR):
        _load(user)
    return getattr(user, _HOLDER_ATTR)


def must_change_password(user) -> bool:
    """Whether someone else set this user's password and they have not yet chosen their own."""
    if user is None or not user.is_authenticated:
        return False
    if not hasattr(user, _MUST_CHANGE_ATTR):
        _load(user)
    return getattr(user, _MUST_CHANGE_ATTR)


def password_setters(user) -> frozenset[int]:
    """The administrators who set this user's password, while the user has not yet shown a
    second factor enrolled before the first of them did (empty once they have)."""
    if user is None or not user.is_authenticated:
        return frozenset()
    if not hasattr(user, _SETTERS_ATTR):
        _load(user)
    return getattr(user, _SETTERS_ATTR)


def forget(user) -> None:
    """Drop what was read (after a role, holder or password change)."""
    for attr in (_ROLES_ATTR, _HOLDER_ATTR, _MUST_CHANGE_ATTR, _SETTERS_ATTR):
        if hasattr(user, attr):
            delattr(user, attr)
