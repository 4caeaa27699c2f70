"""The game's REST endpoints: rounds, the wallet, the player's accounts with the holders
(Chapter 812a) and withdrawals. Thin: parse, call a service, answer.

Who: a player acts on their own accounts (another player's is not there: 404); staff read
the accounts the policy shows them (``visible_accounts``: their holder's, or every holder's
for compliance and auditors; another holder's is not there: 404), payments staff pay,
refuse and record deposits at their holder (§ 812a.7, § 812a.10), and with managers and
compliance restrict accounts (§ 812a.6, § 812a.12). Every other role: 403.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action, may, visible_accounts
from portal.api.base import ApiObjectViewSet, ApiViewSet
from portal.api.fields import NoInput
from portal.api.schema import ErrorSerializer
from portal.compliance.models import CertificateHolder
from portal.core.errors import ValidationFailed
from portal.game import selectors
from portal.game.api.serializers import (
    AccountOut,
    DepositIn,
    DepositOut,
    DepositRecordIn,
    LedgerEntryOut,
    LimitChangeOut,
    LimitConfirmIn,
    LimitIn,
    PauseIn,
    PayIn,
    ReasonIn,
    RoundIn,
    RoundOut,
    StatusIn,
    TopUpInput,
    WalletOut,
    WithdrawalOut,
    WithdrawIn,
    round_answer,
)
from portal.game.filtersets import RoundFilter, WithdrawalFilter
from portal.game.funds import (
    account_set_status,
    deposit_make,
    deposit_record,
    withdrawal_cancel,
    withdrawal_pay,
    withdrawal_refuse,
    withdrawal_request,
)
from portal.game.limits import LimitChange, limit_confirm, limit_set, pause_play
from portal.game.models import (
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    Round,
    Withdrawal,
)
from portal.game.services import round_play

ROUNDS_HIDDEN = "your role may not see game rounds"
ACCOUNTS_HIDDEN = "your role may not see players' accounts"
# A body that names a holder (no id in the path) may name none: a 404 all the same.
NO_SUCH_HOLDER = OpenApiResponse(ErrorSerializer, description="No certificate holder with that id.")
NO_WALLET = "only players have a wallet"
NAME_THE_HOLDER = "name the certificate holder whose account the top-up goes to"
CURRENCY = "USD"
LATEST_ENTRIES = 20


def _reads(view) -> bool:
    """Whether the game's read gate applies: it is for reading. A write needs only its own
    action (to play), and a method the address has no route for is a 405 to anyone
    signed in, whatever their role."""
    return view.request.method in SAFE_METHODS and view.has_route()


# ``?offering=`` is read by the filter set, as every list's filters are, but is left out of
# the published schema, which has never listed it: listing it changes the published API.
@extend_schema_view(list=extend_schema(filters=False))
class RoundViewSet(ApiViewSet):
    """Settled rounds: a player's own; every round for compliance and auditors."""

    serializer_class = RoundOut
    filterset_class = RoundFilter
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"create": Action.PLAY}

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        # A player reads their own rounds, compliance and auditors every round.
        if not _reads(self) or may(user, Action.PLAY) or may(user, Action.VIEW_ROUNDS):
            return None
        return ROUNDS_HIDDEN

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Round.objects.none()
        return selectors.rounds_visible_to(self.request.user).order_by("-pk")

    @extend_schema(request=RoundIn, responses={201: RoundOut, 200: RoundOut})
    def create(self, request):
        data = self.parse(RoundIn)
        played = round_play(
            player=request.user,
            offering_id=data["offering"],
            wagers=data["wagers"],
            idempotency_key=data["idempotency_key"],
        )
        code = status.HTTP_200_OK if played.replayed else status.HTTP_201_CREATED
        # The bets as played, in order: no query for them.
        answer = self.get_serializer(round_answer(played.round, played.bets))
        return Response(answer.data, status=code)


class WalletViewSet(ApiObjectViewSet):
    """The player's wallet: balance in minor units and the latest ledger entries."""

    serializer_class = WalletOut
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"top_up": Action.PLAY}

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        if not _reads(self) or may(user, Action.PLAY):
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


# The player's accounts with the holders (Chapter 812a) ------------------------------------


def _account_reader_denial(view, user) -> str | None:
    """Players read their own accounts; staff those the policy shows them. A write needs
    only its own action (checked next), and a method with no route is a 405 to anyone."""
    if not user.is_authenticated:
        return NOT_SIGNED_IN
    if not _reads(view) or may(user, Action.PLAY) or may(user, Action.VIEW_PLAYER_ACCOUNTS):
        return None
    return ACCOUNTS_HIDDEN


def _withdrawal_answer(withdrawal: Withdrawal, status_code: int = 200) -> Response:
    fresh = _withdrawals().get(pk=withdrawal.pk)
    answer = WithdrawalOut(fresh, context={"now": timezone.now()})
    return Response(answer.data, status=status_code)


def _withdrawals() -> QuerySet[Withdrawal]:
    return Withdrawal.objects.select_related("account__holder", "account__player", "decided_by")


class AccountViewSet(ApiViewSet):
    """A player's interactive gaming accounts, one per certificate holder (§ 812a.4)."""

    serializer_class = AccountOut
    filterset_class = None
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {
        "deposit": Action.PLAY,
        "withdraw": Action.PLAY,
        "limits": Action.PLAY,
        "limits_confirm": Action.PLAY,
        "pause": Action.PLAY,
        "deposits": Action.PAY_OUT,
        "status": Action.RESTRICT_ACCOUNTS,
    }

    def read_denial(self, user) -> str | None:
        return _account_reader_denial(self, user)

    def get_queryset(self) -> QuerySet[GamingAccount]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return GamingAccount.objects.none()
        user = self.request.user
        accounts = GamingAccount.objects.select_related("holder", "player")
        if may(user, Action.PLAY):
            return accounts.filter(player=user).order_by("holder__name", "pk")
        return visible_accounts(user, accounts).order_by("holder__name", "player__username", "pk")

    @extend_schema(request=DepositIn, responses={201: DepositOut, 404: NO_SUCH_HOLDER})
    @action(detail=False, methods=["post"])
    def deposit(self, request):
        """The player's own deposit (§ 812a.7(a)), opening their account with the holder."""
        data = self.parse(DepositIn)
        made = deposit_make(
            player=request.user,
            holder_id=data["holder"],
            amount=data["amount"],
            method=data["method"],
            reference=data.get("reference", ""),
        )
        return Response(DepositOut(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DepositRecordIn, responses={201: DepositOut})
    @action(detail=True, methods=["post"])
    def deposits(self, request, pk=None):
        """A deposit made at the holder (cash, cheque, promotional credit), recorded by its
        payments staff (§ 812a.7(a))."""
        account = self.get_object()
        data = self.parse(DepositRecordIn)
        made = deposit_record(
            actor=request.user,
            account_id=account.pk,
            amount=data["amount"],
            method=data["method"],
            reference=data["reference"],
        )
        return Response(DepositOut(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=WithdrawIn, responses={201: WithdrawalOut})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Ask to be paid ``amount``: it is held from play at once (§ 812a.10)."""
        account = self.get_object()
        data = self.parse(WithdrawIn)
        asked = withdrawal_request(
            player=request.user, account_id=account.pk, amount=data["amount"]
        )
        return _withdrawal_answer(asked, status.HTTP_201_CREATED)

    def _limit_answer(self, change: LimitChange, account_id: int) -> Response:
        shown = {
            "kind": change.kind.value,
            "value": change.value,
            "applied": change.applied,
            "effective_from": change.effective_from,
            "account": self.get_queryset().get(pk=account_id),
        }
        return Response(LimitChangeOut(shown).data)

    @extend_schema(request=LimitIn, responses={200: LimitChangeOut})
    @action(detail=True, methods=["post"])
    def limits(self, request, pk=None):
        """Set one responsible-gaming limit (§ 814a.2)."""
        account = self.get_object()
        data = self.parse(LimitIn)
        change = limit_set(
            player=request.user, account_id=account.pk, kind=data["kind"], value=data["value"]
        )
        return self._limit_answer(change, account.pk)

    @extend_schema(request=LimitConfirmIn, responses={200: LimitChangeOut})
    @action(detail=True, methods=["post"], url_path="limits/confirm", url_name="limits-confirm")
    def limits_confirm(self, request, pk=None):
        """Confirm a raised limit once the period it was asked in has ended (§ 814a.2)."""
        account = self.get_object()
        data = self.parse(LimitConfirmIn)
        change = limit_confirm(player=request.user, account_id=account.pk, kind=data["kind"])
        return self._limit_answer(change, account.pk)

    @extend_schema(request=PauseIn, responses={200: AccountOut})
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        """Suspend one's own play and deposits with the holder for hours or days (§ 814a.2)."""
        account = self.get_object()
        data = self.parse(PauseIn)
        pause_play(
            player=request.user,
            account_id=account.pk,
            hours=data.get("hours"),
            days=data.get("days"),
        )
        return self.respond(account)

    @extend_schema(request=StatusIn, responses={200: AccountOut})
    @action(detail=True, methods=["post"])
    def status(self, request, pk=None):
        """Suspend the account (§ 812a.12), record a self-exclusion (§ 812a.6) or reopen it."""
        account = self.get_object()
        data = self.parse(StatusIn)
        account_set_status(
            actor=request.user,
            account_id=account.pk,
            status=data["status"],
            reason=data["reason"],
        )
        return self.respond(account)

    @extend_schema(responses=LedgerEntryOut(many=True), filters=False)
    @action(detail=True, methods=["get"], filterset_class=None)
    def entries(self, request, pk=None):
        """The account's ledger, newest first: every deposit, withdrawal paid, stake and
        return (§ 812a.11)."""
        account = self.get_object()
        page = self.paginate_queryset(account.entries.order_by("-pk"))
        return self.get_paginated_response(LedgerEntryOut(page, many=True).data)


class WithdrawalViewSet(ApiViewSet):
    """Withdrawal requests (§ 812a.10): a player's own; the holder's for its staff."""

    serializer_class = WithdrawalOut
    filterset_class = WithdrawalFilter
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"cancel": Action.PLAY, "pay": Action.PAY_OUT, "refuse": Action.PAY_OUT}

    def read_denial(self, user) -> str | None:
        return _account_reader_denial(self, user)

    def get_queryset(self) -> QuerySet[Withdrawal]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Withdrawal.objects.none()
        user = self.request.user
        if may(user, Action.PLAY):
            return _withdrawals().filter(account__player=user).order_by("-pk")
        return visible_accounts(user, _withdrawals()).order_by("-pk")

    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), "now": timezone.now()}

    def check_object_permissions(self, request, obj) -> None:
        # The policy judges a withdrawal by its account's holder.
        super().check_object_permissions(request, obj.account)

    @extend_schema(request=NoInput, responses={200: WithdrawalOut})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """The player takes back a pending request; the hold is released."""
        withdrawal = self.get_object()
        self.parse(NoInput)
        return _withdrawal_answer(
            withdrawal_cancel(player=request.user, withdrawal_id=withdrawal.pk)
        )

    @extend_schema(
        request=PayIn,
        responses={200: OpenApiResponse(WithdrawalOut, description="Paid: the money left.")},
    )
    @action(detail=True, methods=["post"])
    def pay(self, request, pk=None):
        """Payments staff record the payout, with its reference (§ 812a.10)."""
        withdrawal = self.get_object()
        data = self.parse(PayIn)
        paid = withdrawal_pay(
            actor=request.user,
            withdrawal_id=withdrawal.pk,
            payout_reference=data["payout_reference"],
        )
        return _withdrawal_answer(paid)

    @extend_schema(request=ReasonIn, responses={200: WithdrawalOut})
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        """Payments staff refuse the request, saying why; the hold is released."""
        withdrawal = self.get_object()
        data = self.parse(ReasonIn)
        refused = withdrawal_refuse(
            actor=request.user, withdrawal_id=withdrawal.pk, reason=data["reason"]
        )
        return _withdrawal_answer(refused)
