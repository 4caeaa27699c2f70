"""The game's REST endpoints: rounds and the wallet. Thin: parse, call a service, answer."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

import jinzi
from portal.access.policy import Action, may, require
from portal.api.base import LOOKUP_SEGMENT
from portal.api.errors import api_exception_handler
from portal.api.parsers import JSONParser
from portal.api.schema import ApiAutoSchema
from portal.core.errors import ValidationFailed
from portal.game import presenters, selectors
from portal.game.models import LedgerEntry, Round, RoundStatus
from portal.game.services import round_play, wallet_for, wallet_top_up

ROUND_FIELDS = {"offering", "wagers", "idempotency_key"}
NOT_AN_OBJECT = "the request body must be a JSON object with {fields}"
UNKNOWN = "unknown field(s) {fields}; a round takes offering, wagers and idempotency_key"
MISSING = "missing field(s) {fields}"


def _body(request, allowed: set[str]) -> dict:
    data = request.data
    if not isinstance(data, dict):
        raise ValidationFailed(NOT_AN_OBJECT.format(fields=", ".join(sorted(allowed))))
    unknown = set(data) - allowed
    if unknown:
        raise ValidationFailed(UNKNOWN.format(fields=", ".join(sorted(unknown))))
    missing = allowed - set(data)
    if missing:
        raise ValidationFailed(MISSING.format(fields=", ".join(sorted(missing))))
    return data


class WagerIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[(k, k) for k in jinzi.WAGER_KINDS])
    numbers = serializers.ListField(child=serializers.IntegerField(), required=False)
    stake = serializers.IntegerField(help_text="Minor units (cents); even, a chip multiple.")


class RoundIn(serializers.Serializer):
    offering = serializers.IntegerField()
    idempotency_key = serializers.CharField(help_text="8–64 of A-Z a-z 0-9 - _; one per bet.")
    wagers = WagerIn(many=True)


class WagerOut(serializers.Serializer):
    kind = serializers.CharField()
    numbers = serializers.ListField(child=serializers.IntegerField())
    spot = serializers.CharField()
    label = serializers.CharField()
    stake = serializers.IntegerField()
    returned = serializers.IntegerField()


class RoundOut(serializers.Serializer):
    """A settled round as § 810a.11 asks it kept (amounts in minor units, times UTC)."""

    id = serializers.IntegerField()
    offering = serializers.IntegerField()
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
    balance_before = serializers.IntegerField()
    balance_after = serializers.IntegerField()
    sequence = serializers.IntegerField()
    hash = serializers.CharField()

    def to_representation(self, instance: Round) -> dict:
        return presenters.round_data(instance)


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Settled rounds: a player's own; every round for compliance and auditors."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]
    schema = ApiAutoSchema()
    lookup_value_regex = LOOKUP_SEGMENT
    serializer_class = RoundOut
    http_method_names = ["get", "post", "head", "options"]

    def get_exception_handler(self):
        return api_exception_handler

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Round.objects.none()
        user = self.request.user
        if not (may(user, Action.PLAY) or may(user, Action.VIEW_ROUNDS)):
            raise PermissionDenied("your role may not see game rounds")
        rounds = selectors.rounds_visible_to(user).order_by("-pk")
        offering = self.request.query_params.get("offering")
        if offering is not None:
            if not (offering.isascii() and offering.isdigit() and len(offering) <= 18):
                raise ValidationFailed.on("offering", "offering filter must be a table id")
            rounds = rounds.filter(offering_id=int(offering))
        return rounds

    @extend_schema(request=RoundIn, responses={201: RoundOut, 200: RoundOut})
    def create(self, request):
        require(request.user, Action.PLAY)  # the role first, then the body
        data = _body(request, ROUND_FIELDS)
        played = round_play(
            player=request.user,
            offering_id=data["offering"],
            wagers=data["wagers"],
            idempotency_key=data["idempotency_key"],
        )
        code = status.HTTP_200_OK if played.replayed else status.HTTP_201_CREATED
        return Response(presenters.round_data(played.round, played.bets), status=code)


class LedgerEntryOut(serializers.Serializer):
    kind = serializers.CharField(help_text='"top_up", "stake" or "return".')
    amount = serializers.IntegerField(help_text="Minor units: negative for a stake.")
    balance_after = serializers.IntegerField()
    round = serializers.IntegerField(
        allow_null=True, help_text="The round, for stakes and returns."
    )
    at = serializers.DateTimeField()


# One wallet, not a list of them, though GET /api/wallet/ is the viewset's "list" route.
@extend_schema_serializer(many=False, component_name="Wallet")
class WalletOut(serializers.Serializer):
    balance = serializers.IntegerField(help_text="Minor units (cents).")
    currency = serializers.CharField()
    entries = LedgerEntryOut(many=True, help_text="The latest 20, newest first.")


class WalletViewSet(viewsets.ViewSet):
    """The player's wallet: balance in minor units and the latest ledger entries."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]
    schema = ApiAutoSchema()

    def get_exception_handler(self):
        return api_exception_handler

    def _answer(self, wallet) -> dict:
        entries = LedgerEntry.objects.filter(wallet=wallet).order_by("-pk")[:20]
        return {
            "balance": wallet.balance,
            "currency": "USD",
            "entries": [
                {
                    "kind": entry.kind,
                    "amount": entry.amount,
                    "balance_after": entry.balance_after,
                    "round": entry.round_id,
                    "at": entry.created_at.isoformat(),
                }
                for entry in entries
            ],
        }

    @extend_schema(responses=WalletOut)
    def list(self, request):
        if not may(request.user, Action.PLAY):
            raise PermissionDenied("only players have a wallet")
        return Response(self._answer(wallet_for(request.user)))

    @extend_schema(
        request=inline_serializer("TopUp", {"amount": serializers.IntegerField()}),
        responses=WalletOut,
    )
    @action(detail=False, methods=["post"], url_path="top-up")
    def top_up(self, request):
        require(request.user, Action.PLAY)
        data = request.data if isinstance(request.data, dict) else {}
        if set(data) != {"amount"}:
            raise ValidationFailed.on("amount", 'the body is {"amount": <minor units>}')
        return Response(self._answer(wallet_top_up(player=request.user, amount=data["amount"])))
