"""The accounts API's views: certificate holders and a user's own API tokens.

``/api/holders/``: anyone who may view lists them (a manager sees their own); only a
superuser registers one.

``/api/tokens/``: list your tokens, issue one (the secret is in that answer only), revoke
one with DELETE. Issuing needs the portal's session (a password sign-in, with its second
factor where required): a token cannot mint further tokens.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.response import Response

from portal.access.policy import Action, visible
from portal.accounts.api.serializers import (
    ApiTokenSerializer,
    CertificateHolderSerializer,
    HolderCreateInput,
    HolderUpdateInput,
    IssuedTokenSerializer,
    TokenIssueInput,
)
from portal.accounts.filtersets import HolderFilter
from portal.accounts.models import ApiToken, CertificateHolder
from portal.accounts.services import holder_create, holder_set_gaming_day
from portal.accounts.tokens import DEFAULT_DAYS, api_token_issue, api_token_revoke
from portal.api.base import ApiViewSet
from portal.core.errors import NotFound


@extend_schema_view(
    create=extend_schema(request=HolderCreateInput),
    partial_update=extend_schema(request=HolderUpdateInput),
)
class HolderViewSet(ApiViewSet):
    """Certificate holders: the casinos whose records and tables these are."""

    operation_descriptions = {
        "list": (
            "The certificate holders you may see: every holder for compliance officers, "
            "auditors and superusers; your own holder for a manager."
        ),
        "retrieve": "One certificate holder, if you may see it.",
        "create": "Register a certificate holder by name and licence number (superusers).",
        "partial_update": (
            "Set the hour the holder's gaming day starts, in Pennsylvania time (superusers)."
        ),
    }
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


@extend_schema_view(
    create=extend_schema(request=TokenIssueInput, responses={201: IssuedTokenSerializer}),
    destroy=extend_schema(responses={204: None}),
)
class ApiTokenViewSet(ApiViewSet):
    """Your own API tokens: bearer tokens for scripts, acting with your roles."""

    operation_descriptions = {
        "list": "Your own API tokens (never their secrets), with when each expires.",
        "retrieve": "One of your own API tokens (never its secret).",
        "create": (
            "Issue a token for a script, named, valid for a number of days: its secret is "
            "in this answer only, and is never shown again. It acts with your roles, and "
            "stops working when it expires, when you revoke it or change your password."
        ),
        "destroy": "Revoke one of your tokens: it stops working at once.",
    }
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
