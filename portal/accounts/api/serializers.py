"""What the accounts API answers (holders, API tokens) and the bodies it reads."""

from __future__ import annotations

from django.utils import timezone
from rest_framework import serializers

from portal.accounts.models import ApiToken, CertificateHolder
from portal.accounts.tokens import MAX_DAYS
from portal.api.fields import StrictInput, WholeNumberField


class CertificateHolderSerializer(serializers.ModelSerializer):
    class Meta:
        model = CertificateHolder
        fields = ("id", "name", "licence_number", "gaming_day_start_hour", "created_at")
        read_only_fields = fields


_START_HOUR_HELP = "The hour (0–23, Pennsylvania time) the gaming day starts; 0 by default."


class HolderCreateInput(StrictInput):
    read_only_from = CertificateHolderSerializer

    # Column widths: the service checks presence and uniqueness, not length.
    name = serializers.CharField(max_length=200)
    licence_number = serializers.CharField(max_length=64)
    gaming_day_start_hour = WholeNumberField(required=False, help_text=_START_HOUR_HELP)


class HolderUpdateInput(StrictInput):
    read_only_from = CertificateHolderSerializer

    gaming_day_start_hour = WholeNumberField(help_text=_START_HOUR_HELP)


class ApiTokenSerializer(serializers.ModelSerializer):
    active = serializers.SerializerMethodField()

    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created_at", "expires_at", "revoked_at", "active")
        read_only_fields = fields

    def get_active(self, token: ApiToken) -> bool:
        return token.is_active(timezone.now())


class TokenIssueInput(StrictInput):
    read_only_from = ApiTokenSerializer

    name = serializers.CharField(max_length=100, help_text="What the token is for.")
    days = WholeNumberField(
        min_value=1, max_value=MAX_DAYS, required=False, help_text="Lifetime, 90 by default."
    )


class IssuedTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(help_text="The secret: shown in this answer only.")

    class Meta(ApiTokenSerializer.Meta):
        fields = ("token", *ApiTokenSerializer.Meta.fields)
