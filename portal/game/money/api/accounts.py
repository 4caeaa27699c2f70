"""The player's accounts with the holders (Chapter 812a), under /api/accounts/
(their withdrawals are ``withdrawals``'). Thin: parse, call a service, answer.

Who: a player acts on their own accounts (another player's is not there: 404); staff read
the accounts the policy shows them (``visible_accounts``: their holder's, or every holder's
for compliance and auditors; another holder's is not there: 404), payments staff pay,
refuse and record deposits at their holder (§ 812a.7, § 812a.10), and with managers and
compliance restrict accounts (§ 812a.6, § 812a.12). Every other role: 403.
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import Action, may, visible_accounts
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.game.api_fields import GivenChoice, GivenInteger, GivenText, UtcInstantField
from portal.game.models import LEDGER_NEWEST_FIRST, AccountStatus, DepositMethod, GamingAccount
from portal.game.money.api.limits import LimitConfirmIn, LimitIn, PauseIn
from portal.game.money.api.wallet import NO_SUCH_HOLDER, LedgerEntryOut
from portal.game.money.api.withdrawals import (
    WithdrawalOut,
    account_reader_denial,
    withdrawal_answer,
)
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.deposits import deposit_make, deposit_record
from portal.game.money.services.limit_changes import (
    LimitChange,
    limit_confirm,
    limit_set,
    pause_play,
)
from portal.game.money.services.withdrawals import withdrawal_request


class PendingLimitOut(serializers.Serializer):
    value = serializers.IntegerField(
        allow_null=True, help_text="The raised limit; null: no limit at all."
    )
    effective_from = serializers.CharField(
        source="from",
        help_text="The instant (ISO 8601) the current period ends, from which the player may "
        "confirm it.",
    )


@extend_schema_serializer(component_name="PlayerAccount")
class AccountOut(serializers.Serializer):
    """A player's interactive gaming account with one certificate holder (§ 812a.4)."""

    id = serializers.IntegerField()
    holder = serializers.IntegerField(source="holder_id")
    holder_name = serializers.CharField(source="holder.name")
    player = serializers.CharField(source="player.username", help_text="The player's username.")
    balance = serializers.IntegerField(help_text="Minor units (cents).")
    held = serializers.IntegerField(help_text="Held for pending withdrawals (§ 812a.10).")
    available = serializers.IntegerField(help_text="What play may use: balance less held.")
    # Its values are documented once, on the body that sets them (StatusIn).
    status = serializers.CharField(help_text="open, suspended or self_excluded.")
    status_reason = serializers.CharField(
        help_text="Why the holder suspended it or recorded a self-exclusion (§ 812a.12, "
        "§ 812a.6); blank while it was never restricted."
    )
    status_changed_at = UtcInstantField(allow_null=True)
    paused_until = UtcInstantField(
        allow_null=True, help_text="The player's own suspension of play, until (§ 814a.2)."
    )
    limits = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="The limits in force (§ 814a.2), by kind: cents, or minutes for time_day.",
    )
    pending_limits = serializers.DictField(
        child=PendingLimitOut(),
        help_text="Raises waiting for their period to end and the player to confirm them.",
    )
    opened_at = UtcInstantField()


class DepositIn(StrictInput):
    """The player's own deposit into their account with ``holder``, opening it if need be
    (§ 812a.7(a)); never credit (§ 812a.7(b))."""

    holder = GivenInteger(help_text="The certificate holder's id.")
    amount = GivenInteger(help_text="Minor units (cents).")
    method = GivenText(
        help_text="card, bank or prepaid (and demo on the demo portal); cash, cheque and "
        "promotional credit are recorded by the holder's payments staff."
    )
    reference = GivenText(
        required=False, help_text="The payment's reference (up to 100 characters)."
    )


class DepositRecordIn(StrictInput):
    """A deposit made at the holder, recorded by its payments staff (§ 812a.7(a))."""

    amount = GivenInteger(help_text="Minor units (cents).")
    method = GivenText(help_text="cash, cheque or promotional.")
    reference = GivenText(help_text="The receipt's or payment's reference.")


class DepositOut(serializers.Serializer):
    id = serializers.IntegerField()
    account = serializers.IntegerField(source="account_id")
    amount = serializers.IntegerField()
    method = serializers.ChoiceField(choices=DepositMethod.choices)
    reference = serializers.CharField()
    made_by = serializers.CharField(source="made_by.username")
    made_at = UtcInstantField()
    ledger_entry = serializers.IntegerField(source="entry_id")
    balance_after = serializers.IntegerField(source="entry.balance_after")


class WithdrawIn(StrictInput):
    amount = GivenInteger(help_text="Minor units (cents), at most the available balance.")


class StatusIn(StrictInput):
    """Suspend (§ 812a.12), record a self-exclusion from the Board's list (§ 812a.6), or
    reopen; always with the reason."""

    status = GivenChoice(choices=AccountStatus.choices)
    reason = GivenText()


class LimitChangeOut(serializers.Serializer):
    kind = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)
    applied = serializers.BooleanField(
        help_text="False: waiting for the period's end and the player's confirmation."
    )
    effective_from = UtcInstantField()
    account = AccountOut()


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
        return account_reader_denial(self, user)

    def get_queryset(self) -> QuerySet[GamingAccount]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return GamingAccount.objects.none()
        user = self.request.user
        accounts = GamingAccount.objects.with_limits().select_related("holder", "player")
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
        return withdrawal_answer(asked, status.HTTP_201_CREATED)

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
        page = self.paginate_queryset(account.entries.order_by(*LEDGER_NEWEST_FIRST))
        return self.get_paginated_response(LedgerEntryOut(page, many=True).data)
