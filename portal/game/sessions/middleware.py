"""The idle end of a signed-in browser session, on every page and session-signed API call.

A player's browser session ends after 15 minutes without a request (§ 812a.3(a)(6)): its
play session ends at its last activity, the browser is signed out and sent to sign in
again (an API call by that session answers 401). Staff's sessions end after their own
idle time (``JINZI_STAFF_IDLE_MINUTES``). While a session runs, its last activity moves at
most once a minute: one write of the browser session (and of the play session) a minute.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone

from portal.game.models import PlaySession
from portal.game.sessions.lifecycle import ENDED_IDLE, IDLE, TOUCH_EVERY, session_end
from portal.game.sessions.signals import LAST_SEEN, PLAY_SESSION

STAFF_ENDED_IDLE = "your session ended after {minutes} minutes without activity; sign in again"


class SessionIdleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        session = request.session
        now = timezone.now()
        seen = session.get(LAST_SEEN)
        play_session = session.get(PLAY_SESSION)
        idle = IDLE if play_session is not None else settings.JINZI_STAFF_IDLE
        if seen is None:
            session[LAST_SEEN] = now.timestamp()
        elif now.timestamp() - seen >= idle.total_seconds():
            return self._ended(request, play_session, seen, idle)
        elif now.timestamp() - seen >= TOUCH_EVERY.total_seconds():
            session[LAST_SEEN] = now.timestamp()
            if play_session is not None:
                PlaySession.objects.filter(
                    pk=play_session, user_id=user.pk, ended_at__isnull=True
                ).update(last_activity_at=now)
        return self.get_response(request)

    @staticmethod
    def _ended(request: HttpRequest, play_session, seen: float, idle) -> HttpResponse:
        if play_session is not None:
            found = PlaySession.objects.filter(pk=play_session, user_id=request.user.pk).first()
            if found is not None:
                # Its last activity is when this browser was last seen, if later than the
                # last round's.
                seen_at = datetime.datetime.fromtimestamp(seen, tz=datetime.UTC)
                if found.last_activity_at is None or found.last_activity_at < seen_at:
                    found.last_activity_at = seen_at
                    PlaySession.objects.filter(pk=found.pk).update(last_activity_at=seen_at)
                session_end(found, at=timezone.now())
            reason = ENDED_IDLE
        else:
            reason = STAFF_ENDED_IDLE.format(minutes=int(idle.total_seconds() // 60))
        logout(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": reason, "errors": {}}, status=401)
        messages.info(request, reason[0].upper() + reason[1:] + ".")
        target = reverse("login")
        if request.method in ("GET", "HEAD"):
            target += "?" + urlencode({"next": request.get_full_path()})
        return redirect(target)
