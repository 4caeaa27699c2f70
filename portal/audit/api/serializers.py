"""What the audit trail's API answers: its events and the chain's verification."""

from __future__ import annotations

from rest_framework import serializers

from portal.audit.chain import HASHED_FIELDS
from portal.audit.models import AuditEvent


class AuditEventSerializer(serializers.ModelSerializer):
    before = serializers.JSONField(read_only=True, allow_null=True)
    after = serializers.JSONField(read_only=True, allow_null=True)

    class Meta:
        model = AuditEvent
        # Every field the chain hashes (the actor by its relation's name), so a client can
        # recompute each event's hash; and the event's id and hash.
        fields = (
            "id",
            *("actor" if name == "actor_id" else name for name in HASHED_FIELDS),
            "hash",
        )
        read_only_fields = fields


class ChainReportSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    checked = serializers.IntegerField(help_text="Events verified before the first break.")
    broken_sequence = serializers.IntegerField(allow_null=True)
    broken_id = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField(allow_blank=True)
