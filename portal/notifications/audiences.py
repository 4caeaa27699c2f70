"""Who is concerned: the active people in a role, at a holder when the role is a holder's."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from portal.access.roles import Role


def people(role: Role, *, holder_id: int | None = None) -> frozenset[int]:
    """The ids of the active users in ``role`` (at ``holder_id`` if given)."""
    users = get_user_model().objects.filter(is_active=True, groups__name=role.value)
    if holder_id is not None:
        users = users.filter(profile__holder_id=holder_id)
    return frozenset(users.values_list("pk", flat=True))


def active(ids) -> frozenset[int]:
    """Those of ``ids`` who are still active users."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return frozenset()
    users = get_user_model().objects.filter(pk__in=wanted, is_active=True)
    return frozenset(users.values_list("pk", flat=True))
