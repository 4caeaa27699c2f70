"""Report runs (§ 811a.9): who asked for which report, how far it got, and its files."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from portal.accounts.models import CertificateHolder


class ReportKind(models.TextChoices):
    EXPIRY = "expiry", "Expiry report"
    AUDIT = "audit", "Audit report"
    ACCOUNT_SUMMARY = "account_summary", "Player Account Summary"
    FILING_PACKAGE = "filing_package", "Filing package"


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


ACTIVE_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class ReportRun(models.Model):
    kind = models.CharField(max_length=32, choices=ReportKind.choices)
    definition_version = models.CharField(max_length=16)
    parameters = models.JSONField(help_text="The period or 'as of' date (PA dates) and filters.")
    # The parameters as canonical JSON: the same report asked twice is one run.
    parameters_key = models.CharField(max_length=500)
    holder = models.ForeignKey(
        CertificateHolder, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    requested_via = models.CharField(max_length=16, help_text="page, api or schedule")
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.QUEUED)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    queued_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    # The instant the report reads the records as of, fixed when a worker starts it (every
    # part of a split run and its join read the same rounds). Empty while it waits, and on
    # runs made before it was kept for every run (their start is the nearest instant known).
    cutoff = models.DateTimeField(null=True, blank=True)
    # With it, the highest round id an audit run reads (fixed at the same moment).
    last_round = models.BigIntegerField(null=True, blank=True)
    # Where the run read its records (portal.core.replica): "replica" once the replica had
    # replayed the primary's write-ahead log past ``wal_position`` (taken on the primary at
    # the cutoff), else "primary", with ``read_note`` saying why when a replica was there.
    read_from = models.CharField(max_length=16, blank=True)
    wal_position = models.CharField(max_length=32, blank=True)
    read_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "parameters_key", "definition_version"],
                condition=Q(status__in=["queued", "running"]),
                name="report_run_once_while_active",
            ),
            models.CheckConstraint(
                condition=Q(status__in=RunStatus.values), name="report_run_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} run {self.pk} ({self.status})"

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def as_of(self):
        """The instant the run read the records as of (its start, for runs that did not
        keep it)."""
        return self.cutoff or self.started_at


class ReportFile(models.Model):
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="files")
    format = models.CharField(max_length=8)
    name = models.CharField(max_length=200, help_text="The file's name in the reports folder.")
    content_type = models.CharField(max_length=100)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "format"]
        constraints = [
            models.UniqueConstraint(fields=["run", "format"], name="report_file_once_per_format")
        ]

    def __str__(self) -> str:
        return self.name
