"""A player's API token works only inside an API session that runs (§ 812a.3(a)(6)): one
begun with ``POST /api/sessions/`` and active within 15 minutes. Otherwise the request is
refused (401), saying how to sign in again. The session found rides on the token for the
request (``signals.play_session_id``), and its last activity moves at most once a minute.
"""

from __future__ import annotations

from django.utils import timezone

from portal.access.roles import Role, has_role
from portal.accounts.api.authentication import add_check, refused
from portal.game.models import PlaySession, SessionChannel
from portal.game.sessions.lifecycle import (
    API_SIGN_IN_AGAIN,
    ENDED_IDLE,
    NO_SESSION,
    is_open,
    touch,
)


def api_session_check(user, token) -> None:
    if not has_role(user, Role.PLAYER):
        return
    now = timezone.now()
    session = (
        PlaySession.objects.filter(user=user, channel=SessionChannel.API, ended_at__isnull=True)
        .order_by("-last_activity_at", "-pk")
        .first()
    )
    if session is None:
        raise refused(NO_SESSION + API_SIGN_IN_AGAIN)
    if not is_open(session, now):
        raise refused(ENDED_IDLE + API_SIGN_IN_AGAIN)
    touch(session, at=now)
    token.play_session = session


def connect() -> None:
    add_check(api_session_check)
