"""The append-only, hash-chained audit trail (§ 811a.7).

Each event stores the SHA-256 of its predecessor, so deleting, reordering or
altering any event breaks the chain from that point on; database triggers refuse
UPDATE, DELETE and TRUNCATE (see ``triggers.py``); ``verify_audit_chain`` walks it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from portal.core.hashing import GENESIS_HASH

__all__ = ["GENESIS_HASH", "AuditEvent", "AuditHead"]


class AuditEvent(models.Model):
    sequence = models.PositiveBigIntegerField(unique=True, editable=False)
    occurred_at = models.DateTimeField(db_index=True, editable=False)
    # PROTECT: a user with audit history is deactivated, never deleted.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty for system jobs (expiry, schedules).",
    )
    actor_username = models.CharField(max_length=150, editable=False)
    action = models.CharField(max_length=64, db_index=True, editable=False)
    object_type = models.CharField(max_length=64, db_index=True, editable=False)
    object_id = models.CharField(max_length=64, db_index=True, editable=False)
    object_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    before = models.JSONField(null=True, blank=True, editable=False)
    after = models.JSONField(null=True, blank=True, editable=False)
    reason = models.TextField(blank=True, editable=False)
    request_id = models.CharField(max_length=64, blank=True, editable=False)
    prev_hash = models.CharField(max_length=64, unique=True, editable=False)
    hash = models.CharField(max_length=64, unique=True, editable=False)

    class Meta:
        ordering = ["-sequence"]
        indexes = [models.Index(fields=["object_type", "object_id", "sequence"])]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.action} {self.object_type}:{self.object_id}"


class AuditHead(models.Model):
    """Where the chain ends: written with every event, so deleting the newest events shows.

    ``verify_audit_chain`` prints it; an auditor who notes it down outside the system
    holds an anchor no one with database rights can move.
    """

    sequence = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64, default=GENESIS_HASH)

    def __str__(self) -> str:
        return f"audit head #{self.sequence}"
