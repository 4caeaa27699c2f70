"""What the audit trail's API answers: its events and the chain's verification."""

from __future__ import annotations

from rest_framework import serializers

from portal.audit.models import AuditEvent


class AuditEventSerializer(serializers.ModelSerializer):
    before = serializers.JSONField(read_only=True, allow_null=True)
    after = serializers.JSONField(read_only=True, allow_null=True)

    class Meta:
        model = AuditEvent
        fields = (
            "id",
            "sequence",
            "occurred_at",
            "actor",
            "actor_username",
            "action",
            "object_type",
            "object_id",
            "object_version",
            "before",
            "after",
            "reason",
            "request_id",
            "prev_hash",
            "hash",
        )
        read_only_fields = fields


class ChainReportSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    checked = serializers.IntegerField(help_text="Events verified before the first break.")
    broken_sequence = serializers.IntegerField(allow_null=True)
    broken_id = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField(allow_blank=True)
