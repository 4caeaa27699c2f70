"""``/api/holders/``: certificate holders. Anyone who may view lists them (a manager sees
their own); only a superuser registers one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from portal.accounts.models import CertificateHolder
from portal.accounts.policy import Action, visible
from portal.accounts.services import holder_create
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.api.filters import HolderFilter


class CertificateHolderSerializer(serializers.ModelSerializer):
    class Meta:
        model = CertificateHolder
        fields = ("id", "name", "licence_number", "created_at")
        read_only_fields = fields


class HolderCreateInput(StrictInput):
    read_only_from = CertificateHolderSerializer

    # Column widths: the service checks presence and uniqueness, not length.
    name = serializers.CharField(max_length=200)
    licence_number = serializers.CharField(max_length=64)


@extend_schema_view(create=extend_schema(request=HolderCreateInput))
class HolderViewSet(ApiViewSet):
    queryset = CertificateHolder.objects.all()
    serializer_class = CertificateHolderSerializer
    filterset_class = HolderFilter
    write_actions = {"create": Action.MANAGE_HOLDERS}

    def get_queryset(self):
        return visible(self.request.user, CertificateHolder.objects.all())

    def create(self, request):
        data = self.parse(HolderCreateInput)
        return self.respond(holder_create(actor=request.user, **data), status=201)
