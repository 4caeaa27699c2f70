"""The game software's approvals (§ 461a.4, reading:software-approval).

An approval records that the Bureau of Gaming Laboratory Operations tested one identity of
the game software (``portal.core.software``: its version and the digest of its files) and
the Board's Executive Director approved it: the laboratory's reference, the date of the
approval, and the approval document (a PDF, kept with its SHA-256). A compliance officer
drafts it and another decides it (four-eyes); an approval is withdrawn, never edited."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import Exact
from django.urls import reverse


class SoftwareApprovalStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn"


class SoftwareApproval(models.Model):
    kind = "software_approval"
    noun = "software approval"

    digest = models.CharField(
        max_length=64, help_text="SHA-256 of the game software's files (its identity)."
    )
    software_version = models.CharField(max_length=64)
    lab_reference = models.CharField(max_length=100)
    approved_on = models.DateField(help_text="The date of the Executive Director's approval.")
    document = models.FileField(upload_to="software/approvals/")
    document_sha256 = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16,
        choices=SoftwareApprovalStatus.choices,
        default=SoftwareApprovalStatus.DRAFT,
        db_index=True,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=SoftwareApprovalStatus.values),
                name="software_approval_status_known",
            ),
            models.CheckConstraint(
                condition=Exact(Length("digest"), 64), name="software_approval_digest_length"
            ),
            # One identity is approved once at a time, and drafted once at a time.
            models.UniqueConstraint(
                fields=["digest"],
                condition=Q(status="approved"),
                name="software_approval_one_approved_per_identity",
            ),
            models.UniqueConstraint(
                fields=["digest"],
                condition=Q(status="draft"),
                name="software_approval_one_draft_per_identity",
            ),
        ]

    def __str__(self) -> str:
        return f"software {self.software_version} ({self.digest[:12]})"

    def get_absolute_url(self) -> str:
        return reverse("compliance:software-detail", args=[self.pk])
