"""Reads of game records: a player's recent rounds, any round for those who may look."""

from __future__ import annotations

from django.db.models import QuerySet

from portal.accounts.policy import Action, may
from portal.compliance.models import OfferingStatus
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.game.models import Round

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
