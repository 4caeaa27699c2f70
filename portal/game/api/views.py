"""The game's REST endpoints: rounds and the wallet (the player's accounts and their
withdrawals are ``portal.game.api.accounts``'). Thin: parse, call a service, answer."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action, may
from portal.api.base import ApiObjectViewSet, ApiViewSet
from portal.api.schema import ErrorSerializer
from portal.compliance.models import CertificateHolder
from portal.core.errors import Conflict, ValidationFailed
from portal.game import presenters, selectors
from portal.game.api.serializers import (
    RoundIn,
    RoundOut,
    TopUpInput,
    WalletOut,
    round_answer,
)
from portal.game.corrections import corrections_of
from portal.game.filtersets import RoundFilter
from portal.game.funds import (
    deposit_make,
)
from portal.game.models import (
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    Round,
)
from portal.game.services import TableClosed, round_play

ROUNDS_HIDDEN = "your role may not see game rounds"
# A body that names a holder (no id in the path) may name none: a 404 all the same.
NO_SUCH_HOLDER = OpenApiResponse(ErrorSerializer, description="No certificate holder with that id.")
NO_WALLET = "only players have a wallet"
NAME_THE_HOLDER = "name the certificate holder whose account the top-up goes to"
CURRENCY = "USD"
LATEST_ENTRIES = 20


def table_closed(error: TableClosed) -> Conflict:
    """A closed table's refusal as its player reads it: the one plain sentence of the table
    page (``presenters.closed_sentence``) as ``detail``, the reasons the service gave (the
    records' statuses and versions, for staff and scripts) under ``errors.offering``."""
    sentence = presenters.closed_sentence(error.offering, error.liveness, at=error.at)
    refusal = Conflict(sentence or error.message)
    refusal.field_errors = {"offering": list(error.liveness.reasons)}  # listed in the body
    return refusal


def reads(view) -> bool:
    """Whether the game's read gate applies: it is for reading. A write needs only its own
    action (to play), and a method the address has no route for is a 405 to anyone
    signed in, whatever their role."""
    return view.request.method in SAFE_METHODS and view.has_route()


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
    write_actions = {"create": Action.PLAY}

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        # A player reads their own rounds, compliance and auditors every round.
        if not reads(self) or may(user, Action.PLAY) or may(user, Action.VIEW_ROUNDS):
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


class WalletViewSet(ApiObjectViewSet):
    """The player's wallet: balance in minor units and the latest ledger entries."""

    operation_descriptions = {
        "list": (
            "Your balance (players), in cents: the total over your accounts with the "
            "holders, each account's own, and your latest ledger entries."
        ),
        "top_up": (
            "Add demo credit, in cents, to your account with a holder (players). Name the "
            "holder unless there is only one."
        ),
    }

    serializer_class = WalletOut
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"top_up": Action.PLAY}

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        if not reads(self) or may(user, Action.PLAY):
            return None
        return NO_WALLET

    def _answer(self, player) -> Response:
        entries = LedgerEntry.objects.filter(wallet__player=player).order_by("-pk")
        accounts = list(GamingAccount.objects.filter(player=player).select_related("holder"))
        shown = {
            "balance": sum(account.balance for account in accounts),
            "currency": CURRENCY,
            "accounts": accounts,
            "entries": entries[:LATEST_ENTRIES],
        }
        return Response(self.get_serializer(shown).data)

    @extend_schema(responses=WalletOut)
    def list(self, request):
        return self._answer(request.user)

    @extend_schema(request=TopUpInput, responses={200: WalletOut, 404: NO_SUCH_HOLDER})
    @action(detail=False, methods=["post"], url_path="top-up")
    def top_up(self, request):
        data = self.parse(TopUpInput)
        holder = data.get("holder")
        if holder is None:
            only = list(CertificateHolder.objects.values_list("pk", flat=True)[:2])
            if len(only) != 1:
                raise ValidationFailed.on("holder", NAME_THE_HOLDER)
            holder = only[0]
        deposit_make(
            player=request.user,
            holder_id=holder,
            amount=data["amount"],
            method=DepositMethod.DEMO,
        )
        return self._answer(request.user)
