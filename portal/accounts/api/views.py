"""The accounts API: certificate holders and a user's own API tokens.

``/api/holders/``: anyone who may view lists them (a manager sees their own); only a
superuser registers one.

``/api/tokens/``: list your tokens, issue one (the secret is in that answer only), revoke
one with DELETE. Issuing needs the portal's session (a password sign-in, with its second
factor where required): a token cannot mint further tokens.
"""

from __future__ import annotations

import django_filters
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.response import Response

from portal.access.policy import Action, visible
from portal.accounts.models import ApiToken, CertificateHolder
from portal.accounts.services import holder_create, holder_set_gaming_day
from portal.accounts.tokens import DEFAULT_DAYS, MAX_DAYS, api_token_issue, api_token_revoke
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput, WholeNumberField
from portal.core.errors import NotFound


class HolderFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    licence_number = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = CertificateHolder
        fields = ["name", "licence_number"]


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


@extend_schema_view(
    create=extend_schema(request=HolderCreateInput),
    partial_update=extend_schema(request=HolderUpdateInput),
)
class HolderViewSet(ApiViewSet):
    queryset = CertificateHolder.objects.all()
    serializer_class = CertificateHolderSerializer
    filterset_class = HolderFilter
    write_actions = {"create": Action.MANAGE_HOLDERS, "partial_update": Action.MANAGE_HOLDERS}

    def get_queryset(self):
        return visible(self.request.user, CertificateHolder.objects.all())

    def create(self, request):
        data = self.parse(HolderCreateInput)
        return self.respond(holder_create(actor=request.user, **data), status=201)

    def partial_update(self, request, pk=None):
        data = self.parse(HolderUpdateInput)
        holder = holder_set_gaming_day(
            actor=request.user, holder=self.get_object(), start_hour=data["gaming_day_start_hour"]
        )
        return self.respond(holder)


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


@extend_schema_view(
    create=extend_schema(request=TokenIssueInput, responses={201: IssuedTokenSerializer}),
    destroy=extend_schema(responses={204: None}),
)
class ApiTokenViewSet(ApiViewSet):
    serializer_class = ApiTokenSerializer
    http_method_names = ["get", "post", "delete", "head", "options"]
    read_action = Action.OWN_API_TOKENS
    write_actions = {"create": Action.OWN_API_TOKENS, "destroy": Action.OWN_API_TOKENS}
    filterset_class = None

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.request.user)

    def create(self, request):
        data = self.parse(TokenIssueInput)
        token, secret = api_token_issue(
            user=request.user,
            name=data["name"],
            days=data.get("days", DEFAULT_DAYS),
            signed_in_with_token=isinstance(request.auth, ApiToken),
        )
        return Response({"token": secret, **self.get_serializer(token).data}, status=201)

    def destroy(self, request, pk=None):
        if not (pk.isascii() and pk.isdigit() and len(pk) <= 18):
            raise NotFound(f"you have no API token {pk}")
        api_token_revoke(actor=request.user, token_id=int(pk))
        return Response(status=204)
