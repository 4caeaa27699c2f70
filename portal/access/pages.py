"""What every app's pages ask the policy before showing one row: is it there for this user?

A row the user may not see reads exactly like a missing one (404), so a page never tells
another holder's record, account or round from one that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Model, QuerySet
from django.http import Http404

from portal.access import policy
from portal.access.policy import Action
from portal.core.errors import NotFound

Scope = Callable[[object, QuerySet], QuerySet]


def visible_or_404(
    user,
    queryset: QuerySet,
    pk: int,
    action: Action | None = Action.VIEW,
    *,
    within: Scope = policy.visible,
    missing: str = "",
) -> Model:
    """The row ``pk`` of ``queryset`` if ``user`` may see it, else a 404; then, if ``action``
    is given, a 403 unless ``user`` may do it to the row.

    ``within`` narrows ``queryset`` to what ``user`` sees (``policy.visible`` for records,
    ``policy.visible_accounts`` for players' accounts, an app's own rule for its rows).
    ``missing`` is what the page says of a row it does not show (``{id}`` its id): raised as
    ``NotFound`` for ``domain_errors`` to show; without it, Django's own 404 page."""
    found = within(user, queryset).filter(pk=pk).first()
    if found is None:
        if missing:
            raise NotFound(missing.format(id=pk))
        raise Http404(f"no such {queryset.model._meta.verbose_name}")
    if action is not None:
        policy.require(user, action, found)
    return found
