"""The player's wallet under /api/wallet/: the balance over their accounts with the holders,
each account's own, and the latest ledger entries; and a demo top-up. Thin: parse, call a
service, answer. Amounts are minor units (cents); instants are UTC."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action, may
from portal.api.base import ApiObjectViewSet
from portal.api.fields import StrictInput
from portal.api.schema import ErrorSerializer
from portal.compliance.models import CertificateHolder
from portal.core.errors import ValidationFailed
from portal.game.api_fields import GivenInteger, UtcInstantField
from portal.game.models import DepositMethod, GamingAccount, LedgerEntry
from portal.game.money.services.deposits import deposit_make

# A body that names a holder (no id in the path) may name none: a 404 all the same.
NO_SUCH_HOLDER = OpenApiResponse(ErrorSerializer, description="No certificate holder with that id.")
NO_WALLET = "only players have a wallet"
NAME_THE_HOLDER = "name the certificate holder whose account the top-up goes to"
CURRENCY = "USD"
LATEST_ENTRIES = 20


@extend_schema_serializer(component_name="TopUp")
class TopUpInput(StrictInput):
    """Demo credit (a deposit by the demo method) into the player's account with a holder,
    in minor units (cents). ``holder`` may be left out where only one holder exists."""

    amount = GivenInteger()
    holder = GivenInteger(required=False)


class LedgerEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(
        help_text='"deposit", "withdrawal", "stake", "return"; on older entries "top_up", '
        '"carried_out" or "carried_in".'
    )
    account = serializers.IntegerField(
        source="account_id", allow_null=True, help_text="The holder account it moved."
    )
    amount = serializers.IntegerField(help_text="Minor units: negative for a stake.")
    balance_after = serializers.IntegerField()
    round = serializers.IntegerField(
        source="round_id", allow_null=True, help_text="The round, for stakes and returns."
    )
    at = UtcInstantField(source="created_at")


@extend_schema_serializer(component_name="WalletAccount")
class WalletAccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    holder = serializers.IntegerField(source="holder_id")
    holder_name = serializers.CharField(source="holder.name")
    balance = serializers.IntegerField(help_text="Minor units (cents).")
    held = serializers.IntegerField(help_text="Held for pending withdrawals.")
    available = serializers.IntegerField(help_text="What play may use: balance less held.")
    status = serializers.CharField()


# One wallet, not a list of them, though GET /api/wallet/ is the viewset's "list" route.
@extend_schema_serializer(many=False, component_name="Wallet")
class WalletOut(serializers.Serializer):
    balance = serializers.IntegerField(help_text="Minor units (cents), over every account.")
    currency = serializers.CharField()
    accounts = WalletAccountOut(many=True, help_text="One per certificate holder (§ 812a.4).")
    entries = LedgerEntryOut(many=True, help_text="The latest 20, newest first.")


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
        if not self.reads() or may(user, Action.PLAY):
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
