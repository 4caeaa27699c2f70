"""The list of the voids and adjustments of rounds (§ 617a.6, § 812a.7(a)(9)), declared once
for its page and its CSV: the queue of those waiting for a decision, and every one decided.
A filter value the list cannot read is a 400 with its error, never ignored."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from portal.accounts.filtersets import HolderScopedFilterSet
from portal.compliance.models import CertificateHolder
from portal.core.lists import (
    Column,
    Columns,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    instant_column,
)
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection


def _direction(cents: int) -> str:
    return "credit" if cents > 0 else "debit" if cents < 0 else ""


# Voids and adjustments of rounds: the queue of those waiting for a decision, and every one
# decided. Money in minor units: what the player is owed (a credit) or owes (a debit), as
# proposed; what approving it moved in the three amounts after.
CORRECTION_COLUMNS = Columns(
    Column(
        "correction", "Correction", lambda c: c.pk, csv="correction_id", sort="pk", desc_first=True
    ),
    Column("kind", "Kind", lambda c: c.kind, sort="kind"),
    Column("round", "Round", lambda c: c.round_id, csv="round_id", sort="round_id"),
    Column(
        "player",
        "Player",
        lambda c: c.account.player.get_username(),
        sort="account__player__username",
    ),
    Column("holder", "Holder", lambda c: c.account.holder.name, sort="account__holder__name"),
    Column("account_id", value=lambda c: c.account_id),
    # The player's side, as the page says it: "credit" (owed to them) or "debit" (owed by
    # them), then the amount unsigned (a spreadsheet-safe cell keeps no leading sign).
    Column("direction", value=lambda c: _direction(c.amount)),
    Column(
        "amount", "Amount", lambda c: abs(c.amount), csv="amount_cents", sort="amount", css="money"
    ),
    Column("status", "Status", lambda c: c.status, sort="status"),
    instant_column("proposed", "proposed_at", title="Proposed", csv="proposed_at_utc"),
    Column("waiting", "Waiting"),  # how long one has waited, on the page (the queue) only
    Column(
        "proposed_by",
        "Proposed by",
        lambda c: c.proposed_by.get_username(),
        sort="proposed_by__username",
    ),
    Column("reason", value=lambda c: c.reason),
    Column("notice", value=lambda c: c.notice),
    Column(
        "decided_by",
        "Decided by",
        lambda c: c.decided_by.get_username() if c.decided_by_id else "",
        sort="decided_by__username",
    ),
    instant_column("decided_at_utc", "decided_at"),
    Column("decision_reason", value=lambda c: c.decision_reason),
    Column("credited_cents", value=lambda c: c.credited),
    Column("debited_cents", value=lambda c: c.debited),
    Column("uncollected_cents", value=lambda c: c.uncollected),
    page=(
        "correction",
        "round",
        "player",
        "holder",
        "amount",
        "proposed",
        "waiting",
        "proposed_by",
        "status",
        "decided_by",
    ),
)


ANY_STATUS = "any"
# The queue opens on what waits for a decision, oldest first.
QUEUE_STATUS = CorrectionStatus.PROPOSED.value
CORRECTION_STATUS_CHOICES = [
    (CorrectionStatus.PROPOSED.value, "Waiting"),
    (CorrectionStatus.APPROVED.value, "Approved and applied"),
    (CorrectionStatus.REJECTED.value, "Rejected"),
    (ANY_STATUS, "Any status"),
]


def _every_holder(request) -> QuerySet[CertificateHolder]:
    # Offered only to those who see every holder's corrections (``HolderScopedFilterSet``
    # drops it for a supervisor, who sees their own holder's).
    return CertificateHolder.objects.order_by("name")


class CorrectionFilter(HolderScopedFilterSet):
    """Voids and adjustments by status (those waiting for a decision unless another is
    asked, oldest first; the others newest first), kind, holder, player or reason, and the
    Pennsylvania date they were proposed; sortable."""

    q = Search("account__player__username", "reason", label="Player or reason")
    status = django_filters.ChoiceFilter(
        choices=CORRECTION_STATUS_CHOICES,
        empty_label=None,
        method="filter_status",
        label="Status",
    )
    kind = django_filters.ChoiceFilter(
        choices=CorrectionKind.choices, empty_label="Any kind", label="Kind"
    )
    holder = django_filters.ModelChoiceFilter(
        field_name="account__holder",
        queryset=_every_holder,
        label="Holder",
        empty_label="Any holder",
    )
    since = PaDateFrom("proposed_at", "From (Pennsylvania date)")
    until = PaDateTo("proposed_at", "To (Pennsylvania date)")
    sort = Sort(CORRECTION_COLUMNS)

    class Meta:
        model = RoundCorrection
        fields: list[str] = []
        form = PeriodForm

    def __init__(self, data=None, *args, **kwargs):
        if data is not None and not data.get("status"):
            data = data.copy()
            data["status"] = QUEUE_STATUS
        super().__init__(data, *args, **kwargs)

    def filter_status(self, queryset, name, value):
        if value == ANY_STATUS:
            return queryset.order_by("-proposed_at", "-pk")
        chosen = queryset.filter(status=value)
        if value == QUEUE_STATUS:
            return chosen.order_by("proposed_at", "pk")
        return chosen.order_by("-decided_at", "-pk")
