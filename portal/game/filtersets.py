"""The game's lists, each declared once for its page, its API and its CSV: every round (the
Game rounds page, and the rounds API) and a player's own games (My games, § 810a.11 recall).
A filter value a list cannot read is a 400 with its error, never ignored."""

from __future__ import annotations

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from portal.compliance.models import Offering
from portal.core.lists import (
    Column,
    Columns,
    ListFilterSet,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Sort,
    instant_column,
)
from portal.game.models import Round, RoundStatus, Withdrawal, WithdrawalStatus

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
    Column("software_version", value=lambda r: r.software_version),
    Column("hash", value=lambda r: r.hash),
    Column("replay", "Replay", title_hidden=True),  # each row's link to its replay
)

STAFF_ROUND_COLUMNS = ROUND_COLUMNS.showing(
    "round", "player", "offering", "started", "outcome", "staked", "returned", "status"
)
MY_GAMES_COLUMNS = ROUND_COLUMNS.showing(
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

    offering = _OfferingFilter(field_name="offering", queryset=_played_offerings, label="Table")
    since = PaDateFrom("started_at", "From (Pennsylvania date)")
    until = PaDateTo("started_at", "To (Pennsylvania date)")
    # A choice with an empty one first ("any"): 0 is an outcome, not "no filter".
    outcome = django_filters.ChoiceFilter(
        field_name="outcome", choices=[(str(n), str(n)) for n in range(13)]
    )
    sort = Sort(MY_GAMES_COLUMNS)

    class Meta:
        model = Round
        fields: list[str] = []
        form = PeriodForm


class RoundFilter(PlayerRoundFilter):
    """Every round. The page: by player (username), offering, period, outcome and status;
    sortable. The API (a player's own rounds, or every round): by table id only."""

    player = django_filters.CharFilter(
        field_name="player__username", lookup_expr="iexact", label="Player (username)"
    )
    offering = _OfferingFilter(
        field_name="offering",
        queryset=Offering.objects.select_related("holder").order_by("holder__name", "name", "pk"),
        label="Offering",
    )
    status = django_filters.ChoiceFilter(field_name="status", choices=RoundStatus.choices)
    sort = Sort(STAFF_ROUND_COLUMNS)
    api_offering = TableIdFilter(field_name="offering_id")

    page_parameters = ("player", "offering", "since", "until", "outcome", "status", "sort")
    api_parameters = ("offering",)

    class Meta(PlayerRoundFilter.Meta):
        pass


class WithdrawalFilter(django_filters.FilterSet):
    """Withdrawal requests (§ 812a.10) by status: the payments queue is the pending ones."""

    status = django_filters.ChoiceFilter(field_name="status", choices=WithdrawalStatus.choices)

    class Meta:
        model = Withdrawal
        fields: list[str] = []
