"""Reads of game records: a player's recent rounds, any round for those who may look."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from portal.access.policy import Action, may
from portal.compliance.models import OfferingStatus
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.game.models import Round, Wallet

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
