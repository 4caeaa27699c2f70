"""Player sessions under /api/sessions/ (§ 812a.3(a)(5)-(6), § 812a.9(a)(4)-(5)).

- ``POST /api/sessions/`` with ``username`` and ``password`` (and ``code`` where the player
  set up a second factor) signs a player in through the API, under the pages' lock-out: it
  starts an API session and answers its id and the previous session's start and end. No
  token is needed for it; afterwards the player's token works while that session runs
  (active within 15 minutes), and the rounds it plays record its id.
- ``GET /api/sessions/``, ``GET /api/sessions/{id}/``: the player's own sessions; one of
  them with the notice it has waiting, if any.
- ``POST /api/sessions/{id}/end/``: sign out.
- ``POST /api/sessions/{id}/notice/`` with the waiting notice's ``number``: acknowledge it
  (§ 814a.1, reading:play-notice); the next round may then be played.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action, may
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.core.errors import NotFound
from portal.game.api_fields import GivenInteger, GivenText, UtcInstantField
from portal.game.models import PlaySession
from portal.game.sessions.lifecycle import api_sign_in, ended_at, is_open, session_end
from portal.game.sessions.notice import notice_acknowledge, pending_notice

SESSIONS_HIDDEN = "only players have play sessions"
NO_SUCH_SESSION = "you have no session {id}"
# A session's public id: a UUID's text. Anything else is no session of anyone's.
SESSION_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


class SignInIn(StrictInput):
    """A player's username and password, and their authenticator's code if they set one up."""

    username = GivenText()
    password = GivenText()
    code = GivenText(required=False, help_text="Only for a player who set up a second factor.")


class NoticeIn(StrictInput):
    number = GivenInteger(help_text="The waiting notice's number, as the 409 gave it.")


class NoticeOut(serializers.Serializer):
    session = serializers.CharField()
    number = serializers.IntegerField()
    signed_in_at = serializers.DateTimeField()
    elapsed_seconds = serializers.IntegerField()
    rounds = serializers.IntegerField()
    wagered = serializers.IntegerField(help_text="Minor units (cents).")
    won = serializers.IntegerField(help_text="What the rounds paid back, in minor units.")
    net = serializers.IntegerField(help_text="Won less wagered: negative is money lost.")
    words = serializers.CharField()


class SessionOut(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    channel = serializers.CharField()
    started_at = UtcInstantField()
    last_activity_at = UtcInstantField(allow_null=True)
    ended_at = UtcInstantField(
        allow_null=True,
        help_text="At sign-out, or at its last activity after 15 minutes without any "
        "(§ 812a.3(a)(6)); null while it runs.",
    )
    running = serializers.BooleanField()


class SessionDetailOut(SessionOut):
    notice = NoticeOut(
        allow_null=True,
        help_text="The notice your next round waits on (§ 814a.1), or null when none is due.",
    )


class PreviousOut(serializers.Serializer):
    id = serializers.CharField(allow_null=True)
    started_at = UtcInstantField()
    ended_at = UtcInstantField(allow_null=True)


class SignedInOut(serializers.Serializer):
    session = serializers.CharField(help_text="The new session's id: its rounds record it.")
    started_at = UtcInstantField()
    previous = PreviousOut(
        allow_null=True, help_text="Your previous session (§ 812a.9(a)(4)); null if none."
    )


def _described(session: PlaySession, at) -> dict:
    return {
        "public_id": session.public_id,
        "channel": session.channel,
        "started_at": session.started_at,
        "last_activity_at": session.last_activity_at,
        "ended_at": ended_at(session, at),
        "running": is_open(session, at),
    }


@extend_schema_view(
    create=extend_schema(request=SignInIn, responses={201: SignedInOut}),
    retrieve=extend_schema(responses={200: SessionDetailOut}),
    end=extend_schema(request=None, responses={200: SessionOut}),
    notice=extend_schema(request=NoticeIn, responses={200: NoticeOut}),
)
class SessionViewSet(ApiViewSet):
    """A player's sessions: signing in and out through the API, and the notice."""

    operation_descriptions = {
        "list": "Your sessions, newest first (players).",
        "retrieve": "One of your sessions, with the notice it has waiting (or null).",
        "create": (
            "Sign in to play through the API: your username and password (and your "
            "authenticator's code if you set one up), under the same lock-out as the sign-in "
            "page. Starts an API session and answers its id and your previous session's "
            "start and end. Your API token then works while the session runs: 15 minutes "
            "without a request end it (§ 812a.3(a)(6)), and you sign in here again."
        ),
        "end": "Sign out: the session ends now.",
        "notice": (
            "Acknowledge the notice of your time and money since sign-in (§ 814a.1) that "
            "your next round waits on, by its number."
        ),
    }
    serializer_class = SessionOut
    filterset_class = None
    lookup_field = "public_id"
    lookup_value_regex = SESSION_ID
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"end": Action.PLAY, "notice": Action.PLAY}

    def _signing_in(self) -> bool:
        # Django's View.setup has given the request and the route's arguments: the list's
        # address with POST is the sign-in, which takes no token (an expired session's
        # token must not stand in the way of signing in again).
        request = getattr(self, "request", None)  # none while the schema is made
        return request is not None and request.method == "POST" and not self.kwargs

    def get_authenticators(self):
        return [] if self._signing_in() else super().get_authenticators()

    def get_permissions(self):
        return [AllowAny()] if self._signing_in() else super().get_permissions()

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        return None if may(user, Action.PLAY) else SESSIONS_HIDDEN

    def get_queryset(self) -> QuerySet[PlaySession]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return PlaySession.objects.none()
        return PlaySession.objects.filter(user=self.request.user, public_id__isnull=False).order_by(
            "-started_at", "-pk"
        )

    def _own(self, public_id: str) -> PlaySession:
        found = self.get_queryset().filter(public_id=public_id).first()
        if found is None:
            raise NotFound(NO_SUCH_SESSION.format(id=public_id))
        return found

    def list(self, request):
        now = timezone.now()
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            SessionOut([_described(session, now) for session in page], many=True).data
        )

    def retrieve(self, request, public_id=None):
        now = timezone.now()
        session = self._own(public_id)
        waiting = pending_notice(session, at=now) if is_open(session, now) else None
        described = _described(session, now) | {"notice": waiting.as_data() if waiting else None}
        return Response(SessionDetailOut(described).data)

    def create(self, request):
        data = self.parse(SignInIn)
        session, previous = api_sign_in(
            request=request,
            username=data["username"],
            password=data["password"],
            code=data.get("code"),
        )
        now = timezone.now()
        answer = {
            "session": session.public_id,
            "started_at": session.started_at,
            "previous": None
            if previous is None
            else {
                "id": previous.public_id,
                "started_at": previous.started_at,
                "ended_at": ended_at(previous, now),
            },
        }
        return Response(SignedInOut(answer).data, status=201)

    @action(detail=True, methods=["post"])
    def end(self, request, public_id=None):
        now = timezone.now()
        session = session_end(self._own(public_id), at=now)
        return Response(SessionOut(_described(session, now)).data)

    @action(detail=True, methods=["post"])
    def notice(self, request, public_id=None):
        data = self.parse(NoticeIn)
        acknowledged = notice_acknowledge(
            player=request.user, session=self._own(public_id), number=data["number"]
        )
        return Response(NoticeOut(acknowledged.as_data()).data)
