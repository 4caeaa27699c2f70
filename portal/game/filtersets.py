"""The game's lists, each declared once for its page, its API and its CSV: every round (the
Game rounds page, and the rounds API), a player's own games (My games, § 810a.11 recall)
and the voids and adjustments of rounds (§ 617a.6, § 812a.7(a)(9)). A filter value a list
cannot read is a 400 with its error, never ignored."""

from __future__ import annotations

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from portal.access.policy import Action, may
from portal.access.roles import holder_id_of
from portal.accounts.filtersets import HolderScopedFilterSet
from portal.compliance.models import CertificateHolder, Offering
from portal.core.lists import (
    Column,
    Columns,
    ListFilterSet,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    instant_column,
)
from portal.game.models import (
    CorrectionKind,
    CorrectionStatus,
    Round,
    RoundCorrection,
    RoundStatus,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.presenters import state_key

NOT_A_TABLE_ID = "offering filter must be a table id"
# Digits a signed 64-bit id column always holds.
_MAX_DIGITS = 18

# Both lists show rounds and export the same CSV: money in minor units (exact), instants in
# UTC (ISO 8601). Each page shows its own columns of it.
ROUND_COLUMNS = Columns(
    Column("round", "Round", lambda r: r.pk, csv="round_id", sort="pk", desc_first=True),
    Column("player", "Player", lambda r: r.player.get_username(), sort="player__username"),
    Column("player_game", value=lambda r: r.sequence),
    Column("offering_id", value=lambda r: r.offering_id),
    Column("offering", "Offering", lambda r: r.offering.name, sort="offering__name"),
    Column("holder", value=lambda r: r.offering.holder.name),
    instant_column("started", "started_at", title="Started", csv="started_at_utc"),
    instant_column("bets_closed_at_utc", "bets_closed_at"),
    instant_column("ended", "ended_at", title="Ended", csv="ended_at_utc"),
    Column("outcome", "Outcome", lambda r: r.outcome, sort="outcome"),
    Column(
        "staked",
        "Staked",
        lambda r: r.total_staked,
        csv="staked_cents",
        sort="total_staked",
        desc_first=True,
        css="money",
    ),
    Column(
        "returned",
        "Returned",
        lambda r: r.total_returned,
        csv="returned_cents",
        sort="total_returned",
        desc_first=True,
        css="money",
    ),
    Column("balance_before_cents", value=lambda r: r.balance_before),
    Column(
        "balance",
        "Balance after",
        lambda r: r.balance_after,
        csv="balance_after_cents",
        sort="balance_after",
        desc_first=True,
    ),
    Column("status", "Status", lambda r: r.status, sort="status"),
    # After its voids and adjustments (§ 617a.6, § 812a.7(a)(9)): complete, void or
    # adjusted, read with the rows (``corrections.with_state``).
    Column("state", "State", state_key),
    Column("software_version", value=lambda r: r.software_version),
    Column("hash", value=lambda r: r.hash),
    Column("replay", "Replay", title_hidden=True),  # each row's link to its replay
)

STAFF_ROUND_COLUMNS = ROUND_COLUMNS.showing(
    "round", "player", "offering", "started", "outcome", "staked", "returned", "status", "state"
)
MY_GAMES_COLUMNS = ROUND_COLUMNS.showing(
    "round", "ended", "outcome", "staked", "returned", "balance", "state", "replay"
)
# A table's last games, beside the wheel: the rows its script adds after each spin (a new
# round is complete) have no state cell, so this short list shows none.
RECENT_GAMES_COLUMNS = ROUND_COLUMNS.showing(
    "round", "ended", "outcome", "staked", "returned", "balance", "replay"
)


class TableIdField(forms.Field):
    """A table's id as the query gives it: ASCII digits only (no sign, space, decimal point
    or other script's digits), so what is filtered is exactly what was asked."""

    default_error_messages = {"invalid": NOT_A_TABLE_ID}

    def clean(self, value) -> int | None:
        if value is None:  # not asked: every table
            return None
        if not (value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(value)


@extend_schema_field(OpenApiTypes.INT)
class TableIdFilter(django_filters.Filter):
    field_class = TableIdField


class _OfferingField(django_filters.fields.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.name} ({obj.holder.name})"  # two holders may name a table alike


class _OfferingFilter(django_filters.ModelChoiceFilter):
    field_class = _OfferingField


def _played_offerings(request) -> QuerySet[Offering]:
    """The tables the signed-in player has played at: their games' table filter."""
    played = Round.objects.filter(player=request.user).values("offering")
    return Offering.objects.filter(pk__in=played).select_related("holder").order_by("name", "pk")


class PlayerRoundFilter(ListFilterSet):
    """A player's own games by table, period (Pennsylvania dates, both ends included, by
    the instant the round started) and outcome; sortable."""

    offering = _OfferingFilter(
        field_name="offering", queryset=_played_offerings, label="Table", empty_label="Any table"
    )
    since = PaDateFrom("started_at", "From (Pennsylvania date)")
    until = PaDateTo("started_at", "To (Pennsylvania date)")
    # A choice with an empty one first ("any"): 0 is an outcome, not "no filter".
    outcome = django_filters.ChoiceFilter(
        field_name="outcome",
        choices=[(str(n), str(n)) for n in range(13)],
        empty_label="Any outcome",
    )
    sort = Sort(MY_GAMES_COLUMNS)

    class Meta:
        model = Round
        fields: list[str] = []
        form = PeriodForm


def _listed_offerings(request) -> QuerySet[Offering]:
    """The tables of the rounds the user lists: every holder's, or a supervisor's own
    holder's (the rounds they see). Without a request (the API's schema): every table."""
    offerings = Offering.objects.select_related("holder").order_by("holder__name", "name", "pk")
    user = getattr(request, "user", None)
    if user is None or may(user, Action.VIEW_ROUNDS):
        return offerings
    own = holder_id_of(user)
    return offerings.filter(holder_id=own) if own is not None else offerings.none()


class RoundFilter(PlayerRoundFilter):
    """Every round. The page: by player (username), offering, period, outcome and status;
    sortable. The API (a player's own rounds, or every round): by table id only."""

    player = django_filters.CharFilter(
        field_name="player__username", lookup_expr="iexact", label="Player (username)"
    )
    offering = _OfferingFilter(
        field_name="offering",
        queryset=_listed_offerings,
        label="Offering",
        empty_label="Any offering",
    )
    status = django_filters.ChoiceFilter(
        field_name="status", choices=RoundStatus.choices, empty_label="Any status"
    )
    sort = Sort(STAFF_ROUND_COLUMNS)
    api_offering = TableIdFilter(field_name="offering_id")

    page_parameters = ("player", "offering", "since", "until", "outcome", "status", "sort")
    api_parameters = ("offering",)

    class Meta(PlayerRoundFilter.Meta):
        pass


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


class WithdrawalFilter(django_filters.FilterSet):
    """Withdrawal requests (§ 812a.10) by status: the payments queue is the pending ones."""

    status = django_filters.ChoiceFilter(field_name="status", choices=WithdrawalStatus.choices)

    class Meta:
        model = Withdrawal
        fields: list[str] = []
