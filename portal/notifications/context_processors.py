"""The header's unread count. Lazy: a page whose template never asks for it makes no
query for it."""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest

from portal.notifications.selectors import unread_count


class Bell:
    def __init__(self, user) -> None:
        self.user = user

    @cached_property
    def unread(self) -> int:
        return unread_count(self.user)

    @property
    def signed_in(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated)


def notifications(request: HttpRequest) -> dict:
    return {"notification_bell": Bell(getattr(request, "user", None))}
