"""Rounds under /api/rounds/: what the API reads (a round's wagers at a table, with its
idempotency key) and answers (a settled round with its voids and adjustments), and the
viewset. Thin: parse, call a service, answer.

The bodies are read strictly (no unknown field, none missing), but each value is handed to
the services as given: whether a wager, a stake or a table is legal is theirs and
``jinzi``'s to say, citing § 617b.8, so their messages are the ones a client sees.
Amounts are minor units (cents); instants are UTC, as the rounds are kept."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

import jinzi
from portal.access.policy import NOT_SIGNED_IN, Action, may
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.core.errors import Conflict
from portal.game import rounds
from portal.game.api_fields import GivenChoice, GivenInteger, GivenList, GivenText, enum_schema
from portal.game.corrections.api import CorrectionOut
from portal.game.corrections.presenters import STATE_WORDS, correction_data, state_of
from portal.game.corrections.selectors import corrections_of
from portal.game.corrections.services import payout_finding_record
from portal.game.models import Round, RoundStatus
from portal.game.play import presenters, selectors
from portal.game.play.filtersets import RoundFilter
from portal.game.play.services import TableClosed, round_play
from portal.game.sessions.signals import play_session_id

ROUNDS_HIDDEN = "your role may not see game rounds"


class WagerIn(StrictInput):
    """One wager: its kind, the numbers it covers where the kind names them, its stake."""

    kind = GivenChoice(choices=[(k, k) for k in jinzi.WAGER_KINDS])
    numbers = GivenList(child=serializers.IntegerField(), required=False)
    stake = GivenInteger(help_text="Minor units (cents); even, a chip multiple.")


class RoundIn(StrictInput):
    """One round's wagers at one table; the key makes a retried request safe."""

    offering = GivenInteger()
    idempotency_key = GivenText(help_text="8–64 of A-Z a-z 0-9 - _; one per bet.")
    wagers = WagerIn(many=True)


class WagerOut(serializers.Serializer):
    kind = serializers.CharField()
    numbers = serializers.ListField(child=serializers.IntegerField())
    spot = serializers.CharField()
    label = serializers.CharField()
    stake = serializers.IntegerField()
    returned = serializers.IntegerField()


ROUND_STATES = tuple(STATE_WORDS.items())  # complete, void, adjusted


@extend_schema_field(enum_schema(ROUND_STATES), component_name="RoundStateEnum")
class RoundStateField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=ROUND_STATES, **kwargs)


class FindingIn(StrictInput):
    text = GivenText(help_text="What was paid, what should have been, how it was found.")


class FindingOut(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_id")
    found_by = serializers.CharField(source="found_by.username")
    found_at = serializers.DateTimeField()
    text = serializers.CharField()


class RoundOut(serializers.Serializer):
    """A settled round as § 810a.11 asks it kept (amounts in minor units, times UTC)."""

    id = serializers.IntegerField()
    offering = serializers.IntegerField()
    holder = serializers.IntegerField(
        help_text="The certificate holder whose table it was: the round was played from the "
        "player's account with it (§ 812a.4), whose balances are balance_before and "
        "balance_after."
    )
    player = serializers.CharField()
    game_name = serializers.CharField()
    software_version = serializers.CharField(help_text="The game engine's version.")
    portal_version = serializers.CharField(help_text="The portal's version (blank on old rounds).")
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    rules_submission = serializers.DictField(help_text="id and version")
    layout = serializers.DictField(help_text="id and version")
    paytable = serializers.DictField(help_text="id, version and odds")
    started_at = serializers.DateTimeField()
    bets_closed_at = serializers.DateTimeField(
        allow_null=True, help_text='"No more bets", before the draw (§ 617b.8(e)).'
    )
    ended_at = serializers.DateTimeField()
    session = serializers.CharField(
        allow_null=True,
        help_text="The player session it was played in (§ 812a.9(a)(5)); null on rounds "
        "recorded before sessions had ids.",
    )
    software_identity = serializers.CharField(
        allow_null=True,
        help_text="The identity of the game software it was played under (§ 461a.4): the "
        "SHA-256 digest of its files, as GET /api/software/identity/ gives it; null on rounds "
        "recorded before it was kept.",
    )
    rng = serializers.DictField(help_text="raw value and method")
    wheel = serializers.DictField(
        help_text="the order played, clockwise from 0, and the colour after 0 (§ 617b.8(c))"
    )
    outcome = serializers.IntegerField()
    outcome_colour = serializers.CharField()
    winning_spots = serializers.ListField(child=serializers.CharField())
    wagers = WagerOut(many=True)
    total_staked = serializers.IntegerField()
    total_returned = serializers.IntegerField()
    balance_before = serializers.IntegerField(help_text="The account's, before the stake.")
    balance_after = serializers.IntegerField(help_text="The account's, after the return.")
    sequence = serializers.IntegerField()
    hash = serializers.CharField()
    state = RoundStateField(
        help_text="What the round's record says it is now: complete (as settled), void or "
        "adjusted. Only an approved correction changes it; the round's own record is never "
        "changed."
    )
    corrections = CorrectionOut(
        many=True, help_text="Its voids and adjustments, oldest first, whatever their status."
    )

    def to_representation(self, instance) -> dict:
        """A round as ``rounds.round_data`` shows it (the game page and the replay show
        the same data), with the holder of its table and its corrections, read through the
        fields above: a key they do not declare is not sent, and one they declare must be
        there. Given a ``Round`` (its offering loaded), its bets are its own and its
        corrections are the context's ``corrections`` (``corrections_of`` the page's rounds,
        read once for them all); a caller holding them passes ``round_answer(...)`` instead."""
        if isinstance(instance, Round):
            found = self.context["corrections"]
            instance = round_answer(instance, corrections=found.get(instance.pk, ()))
        return super().to_representation(instance)


def round_answer(round_obj: Round, bets=None, *, corrections) -> dict:
    """``rounds.round_data``, the holder whose account the round was played from, and
    what its corrections (``corrections_of``'s, oldest first) make of it."""
    corrections = list(corrections)
    return rounds.round_data(round_obj, bets) | {
        "holder": round_obj.offering.holder_id,
        "state": state_of(corrections),
        "corrections": [correction_data(correction) for correction in corrections],
    }


def table_closed(error: TableClosed) -> Conflict:
    """A closed table's refusal as its player reads it: the one plain sentence of the table
    page (``presenters.closed_sentence``) as ``detail``, the reasons the service gave (the
    records' statuses and versions, for staff and scripts) under ``errors.offering``."""
    sentence = presenters.closed_sentence(error.offering, error.liveness, at=error.at)
    refusal = Conflict(sentence or error.message)
    refusal.field_errors = {"offering": list(error.liveness.reasons)}  # listed in the body
    return refusal


# ``?offering=`` is read by the filter set, as every list's filters are, but is left out of
# the published schema, which has never listed it: listing it changes the published API.
@extend_schema_view(list=extend_schema(filters=False))
class RoundViewSet(ApiViewSet):
    """Settled rounds: a player's own; every round for compliance and auditors."""

    operation_descriptions = {
        "list": (
            "Settled rounds, newest first, each with its wagers, outcome, balance and any "
            "void or adjustment: a player's own; their holder's for its supervisors; every "
            "round for compliance officers, auditors and superusers."
        ),
        "retrieve": (
            "One settled round, the full record of § 810a.11 (wagers, outcome, the random "
            "number drawn, balances, hashes), with any void or adjustment, if it is one "
            "you may see."
        ),
        "findings": (
            "Record a compliance officer's written finding that the round was paid wrongly: "
            "a recorded payout error, on which an adjustment (a debit too) may rest "
            "(§ 812a.7(a)(9))."
        ),
        "create": (
            "Play a round at a live table (players): the wagers, in cents, are staked from "
            "your account with the table's holder, the wheel is spun and the round settled "
            "at once. Send a new idempotency key for each round: sending the same key again "
            "(a retry after a lost answer) answers with that round, 200, and plays nothing "
            "twice."
        ),
    }

    serializer_class = RoundOut
    filterset_class = RoundFilter
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"create": Action.PLAY, "findings": Action.DECIDE}

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        # A player reads their own rounds, compliance and auditors every round.
        if not self.reads() or may(user, Action.PLAY) or may(user, Action.VIEW_ROUNDS):
            return None
        return ROUNDS_HIDDEN

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Round.objects.none()
        return selectors.rounds_visible_to(self.request.user).order_by("-pk")

    def _answer(self, rounds: list[Round], *, many: bool):
        """The rounds with their voids and adjustments, read in one query for them all."""
        found = corrections_of([r.pk for r in rounds]) if rounds else {}
        context = self.get_serializer_context() | {"corrections": found}
        return RoundOut(rounds if many else rounds[0], many=many, context=context).data

    def list(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(self._answer(list(page), many=True))

    def retrieve(self, request, pk=None):
        return Response(self._answer([self.get_object()], many=False))

    @extend_schema(request=RoundIn, responses={201: RoundOut, 200: RoundOut})
    def create(self, request):
        data = self.parse(RoundIn)
        try:
            played = round_play(
                player=request.user,
                session=play_session_id(request),
                offering_id=data["offering"],
                wagers=data["wagers"],
                idempotency_key=data["idempotency_key"],
            )
        except TableClosed as error:
            raise table_closed(error) from None
        code = status.HTTP_200_OK if played.replayed else status.HTTP_201_CREATED
        # The bets as played, in order: no query for them. A round just played has no
        # correction yet; a retry answers the round as it is now, voided or adjusted since.
        corrections = corrections_of([played.round.pk]) if played.replayed else {}
        answer = round_answer(
            played.round, played.bets, corrections=corrections.get(played.round.pk, ())
        )
        return Response(self.get_serializer(answer).data, status=code)

    @extend_schema(request=FindingIn, responses={201: FindingOut})
    @action(detail=True, methods=["post"])
    def findings(self, request, pk=None):
        """Record a compliance officer's written finding that the round was paid wrongly
        (reading:adjustment-grounds): an adjustment, a debit too, may then rest on it."""
        data = self.parse(FindingIn)
        round_id = int(pk) if pk.isascii() and pk.isdigit() else pk
        finding = payout_finding_record(actor=request.user, round_id=round_id, text=data["text"])
        return Response(FindingOut(finding).data, status=status.HTTP_201_CREATED)
