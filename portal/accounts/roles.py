"""Which roles a user holds and which holder they act for, cached on the user object."""

from __future__ import annotations

from portal.accounts.models import Profile, Role

_ROLES_ATTR = "_jinzi_roles"
_HOLDER_ATTR = "_jinzi_holder_id"


def roles_of(user) -> frozenset[Role]:
    if user is None or not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, _ROLES_ATTR, None)
    if cached is None:
        names = set(user.groups.values_list("name", flat=True))
        cached = frozenset(role for role in Role if role.value in names)
        setattr(user, _ROLES_ATTR, cached)
    return cached


def remember(user, group_names, holder_id: int | None) -> None:
    """Prime the cache from a load that already read the user's groups and holder."""
    names = set(group_names)
    setattr(user, _ROLES_ATTR, frozenset(role for role in Role if role.value in names))
    setattr(user, _HOLDER_ATTR, holder_id)


def has_role(user, role: Role) -> bool:
    return role in roles_of(user)


def holder_id_of(user) -> int | None:
    """The certificate holder a manager acts for (None for everyone else)."""
    if user is None or not user.is_authenticated:
        return None
    if not hasattr(user, _HOLDER_ATTR):
        holder_id = Profile.objects.filter(user=user).values_list("holder_id", flat=True).first()
        setattr(user, _HOLDER_ATTR, holder_id)
    return getattr(user, _HOLDER_ATTR)


def forget(user) -> None:
    """Drop the cache (after a role or holder change)."""
    for attr in (_ROLES_ATTR, _HOLDER_ATTR):
        if hasattr(user, attr):
            delattr(user, attr)
