"""Reading the Software Installation/Removal Log (§ 811a.7(e)), shared by its page, its CSV
and the API: each time a host started running an identity of the game software (installed)
and the identity that start replaced there (removed), when, and who deployed it.

The log is read from the audit trail, where ``services.installations`` writes it: an event
``software.install`` or ``software.remove`` on the host (kind ``software_host``, its id the
host's name), its ``after`` holding the identity (digest and version) and who deployed it.
There is no table of its own: the trail is already append-only and hash-chained.

Also how pages name an identity a record holds by its digest alone (the availability log,
§ 811a.7(f)(2)): its version, read from the approvals and this log, and the digest's first
12 characters."""

from __future__ import annotations

import django_filters
from django.db.models import (
    BooleanField,
    Case,
    CharField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce

from portal.audit.models import AuditEvent
from portal.core.lists import (
    Column,
    Columns,
    ListFilterSet,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    csv_instant_text,
)
from portal.core.padates import pa_stamp
from portal.core.software import running_identity
from portal.software.models import SoftwareApproval

INSTALLED = "software.install"
REMOVED = "software.remove"
HOST_KIND = "software_host"
NOT_RECORDED = "not recorded"
SHORT_DIGEST = 12


def identity_name(digest: str, version: str | None = None) -> str:
    """How a page names the identity ``digest``: "1.4.0 (3f2a9c01b7de)"; its digest's start
    alone when its version is not known; "not recorded" when there is none."""
    if not digest:
        return NOT_RECORDED
    if not version and digest == running_identity().digest:
        version = running_identity().version
    return f"{version} ({digest[:SHORT_DIGEST]})" if version else digest[:SHORT_DIGEST]


def with_software_version(rows: QuerySet, field: str = "software_identity") -> QuerySet:
    """``rows`` with ``software_version``: the version of the identity whose digest is in
    ``field``, as its approval or this log names it (blank if neither does)."""
    approved = SoftwareApproval.objects.filter(digest=OuterRef(field)).order_by("-pk")
    installed = (
        _log()
        .filter(action=INSTALLED, digest=OuterRef(field))
        .order_by("-sequence")
        .values("version")
    )
    version = Coalesce(
        Subquery(approved.values("software_version")[:1]),
        Subquery(installed[:1]),
        output_field=CharField(),
    )
    return rows.annotate(software_version=version)


def _log() -> QuerySet:
    """Every entry of the log, with its host, identity and deployer read out of the event."""
    return AuditEvent.objects.filter(
        action__in=(INSTALLED, REMOVED), object_type=HOST_KIND
    ).annotate(
        digest=KeyTextTransform("digest", "after"),
        version=KeyTextTransform("version", "after"),
        deployed_by=KeyTextTransform("deployed_by", "after"),
        installed=Case(
            When(action=INSTALLED, then=Value(True)),
            default=Value(False),
            output_field=BooleanField(),
        ),
    )


def installation_log() -> QuerySet:
    """The log, newest first."""
    return _log().order_by("-sequence")


def change_word(entry: AuditEvent) -> str:
    return "installed" if entry.installed else "removed"


def software_of(entry: AuditEvent) -> str:
    return identity_name(entry.digest, entry.version)


INSTALLATION_COLUMNS = Columns(
    Column("when", "When", lambda e: csv_instant_text(e.occurred_at), csv="at_utc",
           sort="sequence", desc_first=True),
    Column("when_pa", value=lambda e: pa_stamp(e.occurred_at, seconds=True), csv="at_pa"),
    Column("host", "Host", lambda e: e.object_id, sort="object_id"),
    Column("software", "Game software", software_of, sort="version"),
    Column("digest", value=lambda e: e.digest, csv="software_digest"),
    Column("change", "Change", change_word, sort="action"),
    Column("deployed_by", "Deployed by", lambda e: e.deployed_by or NOT_RECORDED,
           sort="deployed_by"),
    Column("audit", "Audit event", lambda e: e.sequence, csv="audit_sequence"),
)  # fmt: skip

ANY_CHANGE = "any"
CHANGE_CHOICES = (
    (ANY_CHANGE, "Installed or removed"),
    ("installed", "Installed only"),
    ("removed", "Removed only"),
)


class InstallationFilter(ListFilterSet):
    """The log, on its page and in the API alike: by host, a period of Pennsylvania dates
    (both ends included), installed, removed or either, a search; sortable."""

    host = django_filters.CharFilter(field_name="object_id", label="Host")
    since = PaDateFrom("occurred_at", "From (Pennsylvania date)")
    until = PaDateTo("occurred_at", "To (Pennsylvania date)")
    change = django_filters.ChoiceFilter(
        choices=CHANGE_CHOICES, empty_label=None, method="filter_change", label="Change"
    )
    q = Search("object_id", "version", "digest", "deployed_by",
               label="Search host, version, digest or who deployed it")  # fmt: skip
    sort = Sort(INSTALLATION_COLUMNS)

    page_parameters = ("host", "since", "until", "change", "q", "sort")
    api_parameters = page_parameters

    class Meta:
        model = AuditEvent
        fields: list[str] = []
        form = PeriodForm

    def filter_change(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if value == ANY_CHANGE:
            return queryset
        return queryset.filter(action=INSTALLED if value == "installed" else REMOVED)


def csv_rows(entries: QuerySet, *, words: bool = False):
    """The CSV of ``entries``, oldest first whatever the list's sort."""
    rows = entries.order_by("sequence").iterator(chunk_size=2000)
    return INSTALLATION_COLUMNS.csv_lines(rows, words=words)
