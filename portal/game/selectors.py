"""Reads of game records: a player's recent rounds, any round for those who may look."""

from __future__ import annotations

from dataclasses import dataclass

import django_filters
from django.db.models import QuerySet

from portal.access.policy import Action, may
from portal.compliance.models import Offering, OfferingStatus
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.core.lists import PaDateFrom, PaDateTo, PeriodForm, Sort
from portal.game.models import Round, RoundStatus, Wallet

RECALL_COUNT = 10  # at least the last 10 games (§ 810a.11 "last game" recall)


def rounds_with_detail() -> QuerySet[Round]:
    return Round.objects.select_related("player", "offering").prefetch_related("bets")


def rounds_visible_to(user) -> QuerySet[Round]:
    """A player's own rounds; every round for compliance, auditors and superusers."""
    rounds = rounds_with_detail()
    if may(user, Action.VIEW_ROUNDS):
        return rounds
    if may(user, Action.PLAY):
        return rounds.filter(player=user)
    return rounds.none()


def recent_rounds(player, count: int = RECALL_COUNT) -> list[Round]:
    return list(rounds_with_detail().filter(player=player).order_by("-sequence")[:count])


def open_tables() -> list[tuple]:
    """Active offerings with whether each is live now (and why not)."""
    offerings = offerings_with_parts().filter(status=OfferingStatus.ACTIVE)
    return [(offering, offering_is_live(offering)) for offering in offerings]


def is_latest_round(round_obj: Round) -> bool:
    """Whether ``round_obj`` is its player's most recent round (a later one may exist)."""
    return not Round.objects.filter(
        player_id=round_obj.player_id, sequence__gt=round_obj.sequence
    ).exists()


# Every round, for those who may see every round (auditors, compliance, superusers): the
# filters of the rounds list. A value it cannot read is a 400 with its error, never ignored.


class _OfferingField(django_filters.fields.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.name} ({obj.holder.name})"  # two holders may name a table alike


class _OfferingFilter(django_filters.ModelChoiceFilter):
    field_class = _OfferingField


def _played_offerings(request) -> QuerySet[Offering]:
    """The tables the signed-in player has played at: their games' table filter."""
    played = Round.objects.filter(player=request.user).values("offering")
    return Offering.objects.filter(pk__in=played).select_related("holder").order_by("name", "pk")


class PlayerRoundFilter(django_filters.FilterSet):
    """A player's own games by table, period (Pennsylvania dates, both ends included, by
    the instant the round started) and outcome; sortable."""

    offering = _OfferingFilter(field_name="offering", queryset=_played_offerings, label="Table")
    since = PaDateFrom("started_at", "From (Pennsylvania date)")
    until = PaDateTo("started_at", "To (Pennsylvania date)")
    # A choice with an empty one first ("any"): 0 is an outcome, not "no filter".
    outcome = django_filters.ChoiceFilter(
        field_name="outcome", choices=[(str(n), str(n)) for n in range(13)]
    )
    sort = Sort(
        round="pk",
        ended="ended_at",
        outcome="outcome",
        staked="total_staked",
        returned="total_returned",
        balance="balance_after",
    )

    class Meta:
        model = Round
        fields: list[str] = []
        form = PeriodForm


class RoundFilter(PlayerRoundFilter):
    """Every round, by player (username), offering, period, outcome and status; sortable."""

    player = django_filters.CharFilter(
        field_name="player__username", lookup_expr="iexact", label="Player (username)"
    )
    offering = _OfferingFilter(
        field_name="offering",
        queryset=Offering.objects.select_related("holder").order_by("holder__name", "name", "pk"),
        label="Offering",
    )
    status = django_filters.ChoiceFilter(field_name="status", choices=RoundStatus.choices)
    sort = Sort(
        round="pk",
        player="player__username",
        offering="offering__name",
        started="started_at",
        outcome="outcome",
        staked="total_staked",
        returned="total_returned",
        status="status",
    )

    class Meta(PlayerRoundFilter.Meta):
        fields = ["player", "offering", "since", "until", "outcome", "status", "sort"]


def player_rounds(player) -> QuerySet[Round]:
    """A player's games, newest first, with what their list and CSV show (no bets)."""
    rounds = Round.objects.filter(player=player).select_related("player", "offering__holder")
    return rounds.order_by("-sequence")


def every_round() -> QuerySet[Round]:
    """Every round with what its row in the list shows, newest first (no bets: one query a
    page whatever its rows)."""
    return Round.objects.select_related("player", "offering__holder").order_by("-started_at", "-pk")


@dataclass(frozen=True)
class ChainHead:
    player_id: int
    username: str
    sequence: int  # the player's last round
    hash: str


def round_chain_heads() -> list[ChainHead]:
    """Each player's round-chain head as their wallet holds it, for every player who has
    played: one query. With ``heads_digest`` of the audit report, the one hash to keep."""
    rows = (
        Wallet.objects.filter(rounds_played__gt=0)
        .order_by("player_id")
        .values_list("player_id", "player__username", "rounds_played", "chain_head")
    )
    return [ChainHead(*row) for row in rows]
