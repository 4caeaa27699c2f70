"""Sign-in and sign-out on the pages: a player's session starts and ends with them.

At sign-in the player is told when their previous session began and ended
(§ 812a.9(a)(4)); the browser session keeps which play session it is, when it signed in
(the game pages' time played, § 814a.1) and when it was last seen (for the idle end,
``middleware``), so a page asks the database nothing more for any of them.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.utils import timezone

from portal.access.roles import Role, has_role
from portal.game.models import PlaySession, SessionChannel
from portal.game.sessions.lifecycle import previous_session, previous_session_text, session_end
from portal.game.sessions.lifecycle import session_start as start

# The browser session's play session (its row's id): only a player's browser session has one.
PLAY_SESSION = "jinzi_play_session"
# When this browser session signed in (ISO 8601, UTC): the game pages' time played.
SIGNED_IN_AT = "jinzi_signed_in_at"
# When this browser session was last seen (seconds since the epoch): its idle end.
LAST_SEEN = "jinzi_last_seen"


def session_of_request(request) -> PlaySession | None:
    """The play session this page request belongs to, or None."""
    session_id = request.session.get(PLAY_SESSION) if hasattr(request, "session") else None
    if session_id is None:
        return None
    return PlaySession.objects.filter(pk=session_id, user_id=request.user.pk).first()


def play_session_id(request) -> int | None:
    """The id of the play session a request is in: a player's API session (found by their
    bearer token's sign-in), otherwise the browser session's; None outside any."""
    found = getattr(getattr(request, "auth", None), "play_session", None)
    if found is not None:
        return found.pk
    return request.session.get(PLAY_SESSION) if hasattr(request, "session") else None


def session_before_this(request) -> PlaySession | None:
    """The signed-in player's session before the one this request belongs to (a page shows
    it as sign-in did); without a recorded current session, their latest but one."""
    current = session_of_request(request)
    if current is not None:
        return previous_session(request.user, before=current.started_at)
    return PlaySession.objects.filter(user=request.user).order_by("-started_at", "-pk")[1:2].first()


def _signed_in(sender, request, user, **kwargs) -> None:
    has_session = request is not None and hasattr(request, "session")
    now = timezone.now()
    if has_session:
        request.session[LAST_SEEN] = now.timestamp()
    if not has_role(user, Role.PLAYER):
        return
    session, previous = start(
        user=user,
        channel=SessionChannel.PAGES,
        at=now,
        session_key=(request.session.session_key or "") if has_session else "",
    )
    if has_session:
        request.session[PLAY_SESSION] = session.pk
        request.session[SIGNED_IN_AT] = session.started_at.isoformat()
        if hasattr(request, "_messages"):
            messages.info(request, previous_session_text(previous, at=now))


def _signed_out(sender, request, user, **kwargs) -> None:
    if user is None or request is None or not hasattr(request, "session"):
        return
    session = session_of_request(request)
    if session is not None:
        session_end(session, at=timezone.now())


def connect() -> None:
    user_logged_in.connect(_signed_in, dispatch_uid="jinzi.game.session_began")
    user_logged_out.connect(_signed_out, dispatch_uid="jinzi.game.session_ended")
