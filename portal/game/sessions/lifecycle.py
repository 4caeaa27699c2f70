"""A player session's life: its start, its activity, its end, and the time it counts.

A session begins at sign-in (on the pages, or ``POST /api/sessions/``) and ends at sign-out
or after 15 minutes without activity, at its last activity (§ 812a.3(a)(6)); the player
then signs in again. Its last activity moves with each round (in the round's own write)
and, for any other request, at most once a minute. The daily time limit counts the union
of the player's sessions, each from its start to its last activity (§ 814a.2(4),
reading:time-limit-sessions): an idle night counts nothing, and two browsers and a token
open at once count their time once.
"""

from __future__ import annotations

import datetime
import uuid

from django.conf import settings
from django.contrib.auth import authenticate
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from portal.access.roles import Role, has_role
from portal.accounts.account_events import account_event
from portal.accounts.second_factor import (
    confirmed_totp,
    device_for_code,
    second_factor_failed,
    second_factor_verified,
)
from portal.core.errors import DomainError, NotPermitted, ValidationFailed
from portal.core.padates import pa_time
from portal.game.models import PlaySession, SessionChannel

CLAUSE = "§ 812a.3(a)(6)"
# Without activity for this long, a player's session has ended (§ 812a.3(a)(6)).
IDLE = datetime.timedelta(minutes=15)
# Pages and API calls move a session's last activity no more often than this.
TOUCH_EVERY = datetime.timedelta(minutes=1)

ENDED_IDLE = "your session ended after 15 minutes without activity (§ 812a.3(a)(6)); sign in again"
ENDED = "your session ended at {at}; sign in again"
API_SIGN_IN_AGAIN = (
    " with POST /api/sessions/ and your username and password, then use the same token"
)
NO_SESSION = "you are not signed in to play (§ 812a.9(a)(5)); sign in again"
PREVIOUS = "Your previous session began {began}{ended}."
FIRST = "Welcome: this is your first session."
STILL_OPEN = " and is still open elsewhere"

Instant = datetime.datetime


class SessionEnded(DomainError):
    """A request in a session that has ended (signed out, or idle 15 minutes): 401."""

    http_status = 401


def new_public_id() -> uuid.UUID:
    return uuid.uuid4()


def last_activity(session: PlaySession) -> Instant:
    return session.last_activity_at or session.started_at


def is_open(session: PlaySession, at: Instant) -> bool:
    """Whether ``session`` is still running at ``at``: not signed out, active within 15
    minutes."""
    return session.ended_at is None and at - last_activity(session) < IDLE


def ended_at(session: PlaySession, at: Instant) -> Instant | None:
    """When ``session`` ended as of ``at``: its sign-out, or its last activity once it has
    been idle for 15 minutes; None while it runs."""
    if session.ended_at is not None:
        return session.ended_at
    if at - last_activity(session) >= IDLE:
        return last_activity(session)
    return None


def refuse_unless_open(session: PlaySession | None, *, at: Instant, api: bool = False) -> None:
    """Refuse (401) a request in no session, or in one that has ended (§ 812a.3(a)(6)); an
    API session's refusal says how to sign in again through the API."""
    api = api or (session is not None and session.channel == SessionChannel.API)
    again = API_SIGN_IN_AGAIN if api else ""
    if session is None:
        raise SessionEnded(NO_SESSION + again)
    if session.ended_at is None and at - last_activity(session) >= IDLE:
        raise SessionEnded(ENDED_IDLE + again)
    if session.ended_at is not None:
        raise SessionEnded(ENDED.format(at=shown(session.ended_at)) + again)


def shown(instant: Instant) -> str:
    return pa_time(instant).strftime("%A %d %B %Y at %H:%M %Z")


def lapse_idle(user_id: int, *, at: Instant) -> int:
    """Record the end of the user's sessions that have been idle for 15 minutes: at their
    last activity. Their ends are already so (``ended_at``); this only writes them down."""
    return (
        PlaySession.objects.filter(user_id=user_id, ended_at__isnull=True)
        .annotate(last=Coalesce("last_activity_at", "started_at"))
        .filter(last__lte=at - IDLE)
        .update(ended_at=Coalesce(F("last_activity_at"), F("started_at")))
    )


def previous_session(user, *, before: Instant | None = None) -> PlaySession | None:
    """The user's session before the one that began at ``before`` (or their latest)."""
    sessions = PlaySession.objects.filter(user=user).order_by("-started_at", "-pk")
    if before is not None:
        sessions = sessions.filter(started_at__lt=before)
    return sessions.first()


def previous_session_text(session: PlaySession | None, *, at: Instant) -> str:
    """What the player is told at sign-in of their previous session (§ 812a.9(a)(4))."""
    if session is None:
        return FIRST
    end = ended_at(session, at)
    ended = f" and ended {shown(end)}" if end is not None else STILL_OPEN
    return PREVIOUS.format(began=shown(session.started_at), ended=ended)


@transaction.atomic
def session_start(
    *, user, channel: SessionChannel, at: Instant, session_key: str = "", request=None
) -> tuple[PlaySession, PlaySession | None]:
    """Start a session of ``user`` (a player) at ``at``: (the session, their previous one).
    The ends of their idle sessions are written down first. A sign-in through the API is
    recorded in the audit trail here (the pages' sign-in records its own)."""
    lapse_idle(user.pk, at=at)
    previous = previous_session(user)
    session = PlaySession.objects.create(
        user=user,
        public_id=new_public_id(),
        channel=channel,
        started_at=at,
        last_activity_at=at,
        session_key=session_key,
    )
    if channel == SessionChannel.API:
        account_event(
            "session.api_start",
            actor=user,
            subject=user.pk,
            request=request,
            session=str(session.public_id),
        )
    return session, previous


def session_end(session: PlaySession, *, at: Instant) -> PlaySession:
    """End ``session`` at ``at`` (sign-out), or at its last activity if it had already been
    idle 15 minutes. Ending an ended session changes nothing."""
    if session.ended_at is None:
        end = ended_at(session, at) or at
        PlaySession.objects.filter(pk=session.pk, ended_at__isnull=True).update(ended_at=end)
        session.ended_at = end
    return session


def touch(session: PlaySession, *, at: Instant) -> None:
    """Move the last activity of a running session to ``at``, when it is a minute old."""
    if at - last_activity(session) >= TOUCH_EVERY:
        PlaySession.objects.filter(pk=session.pk, ended_at__isnull=True).update(last_activity_at=at)
        session.last_activity_at = at


def time_played(
    user_id: int, start: Instant, at: Instant, *, current: int | None = None
) -> datetime.timedelta:
    """The time ``user_id`` was in a session from ``start`` to ``at``: the union of their
    sessions, each from its start to its sign-out or last activity, the ``current`` one
    (being used now) to ``at`` (reading:time-limit-sessions)."""
    found = PlaySession.objects.filter(user_id=user_id, started_at__lt=at).annotate(
        until=Coalesce("ended_at", "last_activity_at", "started_at")
    )
    counted = Q(until__gt=start) | Q(pk=current) if current is not None else Q(until__gt=start)
    spans = found.filter(counted).values_list("pk", "started_at", "until")
    return union_length(
        (max(began, start), at if pk == current else min(until, at)) for pk, began, until in spans
    )


def union_length(spans) -> datetime.timedelta:
    """The length of the union of ``spans`` ((begin, end) pairs, in any order)."""
    total = datetime.timedelta()
    reach = None
    for began, until in sorted(spans):
        if until <= began:
            continue
        if reach is None or began >= reach:
            total += until - began
            reach = until
        elif until > reach:
            total += until - reach
            reach = until
    return total


class TooManyAttempts(DomainError):
    """Sign-in refused for a while after too many failures (the pages' lock-out): 429."""

    http_status = 429


MAX_CREDENTIAL = 256
CREDENTIAL_INVALID = "give your {field} as text"
WRONG_CREDENTIALS = "that username and password do not match an account; try again"
LOCKED_OUT = (
    "too many failed sign-ins for this username from this address: wait {minutes} minutes "
    "and try again"
)
PLAYERS_ONLY = (
    "only players sign in to play through the API; staff use their API tokens as they are"
)
CODE_NEEDED = "your account asks for the code from your authenticator app: send it as code"
CODE_WRONG = "that code is not right (or was already used); try the current one"
CODE_THROTTLED = "too many wrong codes: wait {seconds} seconds and try again"


def api_sign_in(*, request, username: str, password: str, code: str | None = None):
    """The API's own sign-in for players (§ 812a.3(a)(6)): the username and password under
    the pages' lock-out (django-axes stands in front of Django's ``authenticate``), and the
    second factor's code where the player set one up. (the new API session, the previous
    session) on success."""
    for field, value in (("username", username), ("password", password)):
        if not isinstance(value, str) or not value or len(value) > MAX_CREDENTIAL:
            raise ValidationFailed.on(field, CREDENTIAL_INVALID.format(field=field))
    if code is not None and (not isinstance(code, str) or len(code) > MAX_CREDENTIAL):
        raise ValidationFailed.on("code", CREDENTIAL_INVALID.format(field="code"))
    user = authenticate(request=request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
            raise TooManyAttempts(LOCKED_OUT.format(minutes=minutes))
        raise SessionEnded(WRONG_CREDENTIALS)
    if not has_role(user, Role.PLAYER):
        raise NotPermitted(PLAYERS_ONLY)
    if confirmed_totp(user) is not None:
        if not code:
            raise SessionEnded(CODE_NEEDED)
        device, wait = device_for_code(user, code)
        if device is None:
            second_factor_failed(user=user, request=request)
            if wait:
                raise TooManyAttempts(CODE_THROTTLED.format(seconds=wait))
            raise SessionEnded(CODE_WRONG)
        second_factor_verified(user=user, device=device, request=request)
    return session_start(user=user, channel=SessionChannel.API, at=timezone.now(), request=request)
