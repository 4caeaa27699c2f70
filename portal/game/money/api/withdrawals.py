"""Withdrawal requests (§ 812a.10) under /api/withdrawals/: a player's own; the holder's for
its staff, who pay or refuse them. Thin: parse, call a service, answer."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action, may, visible_accounts
from portal.api.base import ApiViewSet
from portal.api.fields import NoInput, StrictInput
from portal.game.api_fields import GivenText, UtcInstantField
from portal.game.models import Withdrawal, WithdrawalStatus
from portal.game.money.services.withdrawals import (
    withdrawal_cancel,
    withdrawal_pay,
    withdrawal_refuse,
)

ACCOUNTS_HIDDEN = "your role may not see players' accounts"


def account_reader_denial(view, user) -> str | None:
    """Players read their own accounts; staff those the policy shows them. A write needs
    only its own action (checked next), and a method with no route is a 405 to anyone."""
    if not user.is_authenticated:
        return NOT_SIGNED_IN
    if not view.reads() or may(user, Action.PLAY) or may(user, Action.VIEW_PLAYER_ACCOUNTS):
        return None
    return ACCOUNTS_HIDDEN


class WithdrawalOut(serializers.Serializer):
    """A request to be paid from an account (§ 812a.10)."""

    id = serializers.IntegerField()
    account = serializers.IntegerField(source="account_id")
    holder = serializers.IntegerField(source="account.holder_id")
    holder_name = serializers.CharField(source="account.holder.name")
    player = serializers.CharField(source="account.player.username")
    amount = serializers.IntegerField()
    status = serializers.ChoiceField(choices=WithdrawalStatus.choices)
    requested_at = UtcInstantField()
    age_seconds = serializers.SerializerMethodField(
        help_text="How long a pending request has waited; null once decided."
    )
    decided_at = UtcInstantField(allow_null=True)
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True)
    payout_reference = serializers.CharField()
    reason = serializers.CharField(help_text="Why it was refused (blank otherwise).")
    ledger_entry = serializers.IntegerField(source="entry_id", allow_null=True)

    def get_age_seconds(self, withdrawal) -> int | None:
        if withdrawal.status != WithdrawalStatus.PENDING:
            return None
        return int((self.context["now"] - withdrawal.requested_at).total_seconds())


class PayIn(StrictInput):
    payout_reference = GivenText(help_text="The payout's reference (up to 100 characters).")


class ReasonIn(StrictInput):
    reason = GivenText(help_text="Kept with the record and shown to the player.")


class WithdrawalFilter(django_filters.FilterSet):
    """Withdrawal requests (§ 812a.10) by status: the payments queue is the pending ones."""

    status = django_filters.ChoiceFilter(field_name="status", choices=WithdrawalStatus.choices)

    class Meta:
        model = Withdrawal
        fields: list[str] = []


def _withdrawals() -> QuerySet[Withdrawal]:
    return Withdrawal.objects.select_related("account__holder", "account__player", "decided_by")


def withdrawal_answer(withdrawal: Withdrawal, status_code: int = 200) -> Response:
    fresh = _withdrawals().get(pk=withdrawal.pk)
    answer = WithdrawalOut(fresh, context={"now": timezone.now()})
    return Response(answer.data, status=status_code)


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
        return account_reader_denial(self, user)

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
        return withdrawal_answer(
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
        return withdrawal_answer(paid)

    @extend_schema(request=ReasonIn, responses={200: WithdrawalOut})
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        """Payments staff refuse the request, saying why; the hold is released."""
        withdrawal = self.get_object()
        data = self.parse(ReasonIn)
        refused = withdrawal_refuse(
            actor=request.user, withdrawal_id=withdrawal.pk, reason=data["reason"]
        )
        return withdrawal_answer(refused)
