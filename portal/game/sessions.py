"""Players' sessions: when each began and ended (§ 812a.9(a)(4)), the time a daily time
limit counts (§ 814a.2).

A session begins at sign-in and ends at sign-out; one the browser simply left ends, for
the time limit, at the last movement of the player's money within it. At sign-in the
player is told when their previous session began and ended.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.utils import timezone

from portal.access.roles import Role, has_role
from portal.core.padates import pa_time
from portal.game.models import PlaySession

PREVIOUS = "§ 812a.9(a)(4): your previous session began {began}{ended}."
FIRST = "§ 812a.9(a)(4): welcome; this is your first session."
_SESSION_KEY = "jinzi_play_session"
# When this browser session signed in (ISO 8601, UTC): the game pages' time played (§ 814a.1),
# read from the session itself, so a page asks the database nothing more for it.
SIGNED_IN_AT = "jinzi_signed_in_at"


def shown(instant) -> str:
    return pa_time(instant).strftime("%A %d %B %Y at %H:%M %Z")


def previous_session(user, *, before=None) -> PlaySession | None:
    """The user's session before the one that began at ``before`` (or their latest)."""
    sessions = PlaySession.objects.filter(user=user).order_by("-started_at", "-pk")
    if before is not None:
        sessions = sessions.filter(started_at__lt=before)
    return sessions.first()


def session_before_this(request) -> PlaySession | None:
    """The signed-in player's session before the one this request belongs to (a page shows
    it as sign-in did); without a recorded current session, their latest but one."""
    current = request.session.get(_SESSION_KEY) if hasattr(request, "session") else None
    started = (
        PlaySession.objects.filter(pk=current, user=request.user)
        .values_list("started_at", flat=True)
        .first()
    )
    if started is not None:
        return previous_session(request.user, before=started)
    return PlaySession.objects.filter(user=request.user).order_by("-started_at", "-pk")[1:2].first()


def previous_session_text(session: PlaySession | None) -> str:
    if session is None:
        return FIRST
    ended = f" and ended {shown(session.ended_at)}" if session.ended_at else ""
    return PREVIOUS.format(began=shown(session.started_at), ended=ended)


def _signed_in(sender, request, user, **kwargs) -> None:
    if not has_role(user, Role.PLAYER):
        return
    previous = previous_session(user)
    has_session = request is not None and hasattr(request, "session")
    session = PlaySession.objects.create(
        user=user,
        started_at=timezone.now(),
        session_key=(request.session.session_key or "") if has_session else "",
    )
    if has_session:
        request.session[_SESSION_KEY] = session.pk
        request.session[SIGNED_IN_AT] = session.started_at.isoformat()
        if hasattr(request, "_messages"):
            messages.info(request, previous_session_text(previous))


def _signed_out(sender, request, user, **kwargs) -> None:
    if user is None or request is None or not hasattr(request, "session"):
        return
    session_id = request.session.get(_SESSION_KEY)
    if session_id is not None:
        PlaySession.objects.filter(pk=session_id, user=user, ended_at__isnull=True).update(
            ended_at=timezone.now()
        )


def connect() -> None:
    user_logged_in.connect(_signed_in, dispatch_uid="jinzi.game.session_began")
    user_logged_out.connect(_signed_out, dispatch_uid="jinzi.game.session_ended")
