"""The identity of the game software running, under /api/software/identity/ (§ 461a.4,
reading:software-approval): what the Regulation page shows, with each file."""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from portal.access.policy import Action
from portal.api.base import ApiObjectViewSet
from portal.core.software import running_identity
from portal.software.selectors import running_software_approved


class SoftwareFileOut(serializers.Serializer):
    path = serializers.CharField(help_text="The file's path in the repository, with /.")
    size = serializers.IntegerField(help_text="Its length in bytes.")
    sha256 = serializers.CharField(help_text="The SHA-256 of its bytes.")


# One identity, not a list of them, though GET /api/software/identity/ is the "list" route.
@extend_schema_serializer(many=False, component_name="SoftwareIdentity")
class SoftwareIdentityOut(serializers.Serializer):
    version = serializers.CharField(help_text="The portal's version.")
    digest = serializers.CharField(
        help_text="SHA-256 over the files in sorted path order, each as its path, a newline, "
        "its length in bytes, a newline and its bytes: the identity an approval names."
    )
    files = SoftwareFileOut(many=True)
    approved = serializers.BooleanField(
        help_text="Whether the Board's approval of this identity is in force; while it is "
        "not, no round is played (§ 461a.4)."
    )


class SoftwareIdentityViewSet(ApiObjectViewSet):
    """Read only, for every back-office role (not players)."""

    serializer_class = SoftwareIdentityOut
    http_method_names = ["get", "head", "options"]
    read_action = Action.VIEW
    write_actions = {}

    @extend_schema(
        summary="The game software running: its version, digest, files and approval",
        description=(
            "The identity of the game software this portal runs (§ 461a.4): its version, the "
            "SHA-256 digest of its files, each file with its size and SHA-256, and whether "
            "the Board's approval of it is in force. For every back-office role."
        ),
        responses=SoftwareIdentityOut,
        filters=False,
    )
    def list(self, request):
        identity = running_identity()
        answer = asdict(identity) | {"approved": running_software_approved()}
        return Response(self.get_serializer(answer).data)
