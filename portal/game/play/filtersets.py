"""The game's lists of rounds, each declared once for its page, its API and its CSV: every
round (the Game rounds page, and the rounds API) and a player's own games (My games,
§ 810a.11 recall). A filter value a list cannot read is a 400 with its error, never
ignored."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from portal.access.policy import Action, may
from portal.access.roles import holder_id_of
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
from portal.game.api_fields import QueryIdField
from portal.game.corrections.presenters import state_key
from portal.game.models import Round, RoundStatus

NOT_A_TABLE_ID = "offering filter must be a table id"


# Both lists show rounds and export the same CSV: money in minor units (exact), instants in
# UTC (ISO 8601). Each page shows its own columns of it.
ROUND_LIST_COLUMNS = Columns(
    Column("round", "Round", lambda r: r.pk, csv="round_id", sort="pk", desc_first=True),
    Column("player", "Player", lambda r: r.player.get_username(), sort="player__username"),
    Column("player_game", value=lambda r: r.sequence),
    Column("offering_id", value=lambda r: r.offering_id),
    Column("offering", "Offering", lambda r: r.offering.name, sort="offering__name"),
    Column("holder", value=lambda r: r.offering.holder.name),
    instant_column("started", "started_at", title="Started", csv="started_at_utc"),
    instant_column("bets_closed_at_utc", "bets_closed_at"),
    instant_column("ended", "ended_at", title="Ended", csv="ended_at_utc"),
    # The player session it was played in (§ 812a.9(a)(5)); blank on older rounds.
    Column("session_id", value=lambda r: r.session_id or ""),
    # The game software it was played under (§ 461a.4); blank on older rounds.
    Column("software_identity", value=lambda r: r.software_identity or ""),
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
    # adjusted, read with the rows (``corrections.selectors.with_state``).
    Column("state", "State", state_key),
    Column("software_version", value=lambda r: r.software_version),
    Column("hash", value=lambda r: r.hash),
    Column("replay", "Replay", title_hidden=True),  # each row's link to its replay
)


# One column for what became of a round: its state (complete as played, void, adjusted). Its
# game status is "Complete" for every round stored (one that cannot complete stores nothing),
# so the list leaves it to the round's own record rather than say "Complete" twice.
STAFF_ROUND_COLUMNS = ROUND_LIST_COLUMNS.showing(
    "round", "player", "offering", "started", "outcome", "staked", "returned", "state"
)
MY_GAMES_COLUMNS = ROUND_LIST_COLUMNS.showing(
    "round", "ended", "outcome", "staked", "returned", "balance", "state", "replay"
)
# A table's last games, beside the wheel: the rows its script adds after each spin (a new
# round is complete) have no state cell, so this short list shows none.
RECENT_GAMES_COLUMNS = ROUND_LIST_COLUMNS.showing(
    "round", "ended", "outcome", "staked", "returned", "balance", "replay"
)


class TableIdField(QueryIdField):
    """A table's id as the query gives it (``?offering=`` of the rounds API)."""

    default_error_messages = {"invalid": NOT_A_TABLE_ID}


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
