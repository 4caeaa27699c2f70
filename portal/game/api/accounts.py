"""The player's accounts with the holders (Chapter 812a) and their withdrawals, under
/api/accounts/ and /api/withdrawals/. Thin: parse, call a service, answer.

Who: a player acts on their own accounts (another player's is not there: 404); staff read
the accounts the policy shows them (``visible_accounts``: their holder's, or every holder's
for compliance and auditors; another holder's is not there: 404), payments staff pay,
refuse and record deposits at their holder (§ 812a.7, § 812a.10), and with managers and
compliance restrict accounts (§ 812a.6, § 812a.12). Every other role: 403.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action, may, visible_accounts
from portal.api.base import ApiViewSet
from portal.api.fields import NoInput
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
    StatusIn,
    WithdrawalOut,
    WithdrawIn,
)
from portal.game.api.views import NO_SUCH_HOLDER, reads
from portal.game.filtersets import WithdrawalFilter
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
    GamingAccount,
    Withdrawal,
)

ACCOUNTS_HIDDEN = "your role may not see players' accounts"

# The player's accounts with the holders (Chapter 812a) ------------------------------------


def _account_reader_denial(view, user) -> str | None:
    """Players read their own accounts; staff those the policy shows them. A write needs
    only its own action (checked next), and a method with no route is a 405 to anyone."""
    if not user.is_authenticated:
        return NOT_SIGNED_IN
    if not reads(view) or may(user, Action.PLAY) or may(user, Action.VIEW_PLAYER_ACCOUNTS):
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

    operation_descriptions = {
        "list": (
            "Players' accounts with the certificate holders (one per holder, § 812a.4), "
            "with balances in cents, limits and status: a player's own; every holder's "
            "players for compliance officers and auditors; their own holder's for its "
            "managers, payments staff and supervisors."
        ),
        "retrieve": "One player's account with a holder, if it is one you may see.",
        "entries": (
            "The account's ledger, newest first: every deposit, withdrawal paid, stake and "
            "return (§ 812a.11)."
        ),
        "withdraw": (
            "Ask to be paid an amount, in cents, from your account (players): it is held "
            "from play at once and waits for the holder's payments staff to pay or refuse "
            "it (§ 812a.10)."
        ),
    }

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

    operation_descriptions = {
        "list": (
            "Withdrawal requests (§ 812a.10), newest first: a player's own; every holder's "
            "for compliance officers and auditors; their own holder's for its managers, "
            "payments staff and supervisors. Filter by status."
        ),
        "retrieve": "One withdrawal request, if it is one you may see.",
    }

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
