"""Reads of the game's rounds: a player's recent rounds and games, the tables open now,
any round for those who may look it up (a player's own, their holder's for its
supervisors, every round for compliance, auditors and superusers), and the round chains'
heads."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Q, QuerySet

from portal.access.policy import Action, may
from portal.compliance.models import IN_SERVICE
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.game.corrections.selectors import supervised_holder, with_state
from portal.game.models import Round, Wallet
from portal.game.rounds import rounds_with_detail

RECALL_COUNT = 10  # at least the last 10 games (§ 810a.11 "last game" recall)


def _round_scope(user, *, own: bool) -> Q | None:
    """Which rounds ``user`` may look up: None for every round (compliance, auditors,
    superusers); else their holder's for its supervisors and, with ``own``, a player's
    own (a condition that matches nothing when neither applies)."""
    if may(user, Action.VIEW_ROUNDS):
        return None
    conditions = []
    if own and may(user, Action.PLAY):
        conditions.append(Q(player=user))
    if (holder := supervised_holder(user)) is not None:
        conditions.append(Q(offering__holder_id=holder))
    return reduce(or_, conditions) if conditions else Q(pk__in=[])


def visible_rounds(user, rounds: QuerySet[Round]) -> QuerySet[Round]:
    """``rounds`` as ``user`` may look them up: a player's own; their holder's for its
    supervisors (§ 617a.6, § 812a.7(a)(9): they correct them); every round for compliance,
    auditors and superusers."""
    scope = _round_scope(user, own=True)
    return rounds if scope is None else rounds.filter(scope)


def rounds_visible_to(user) -> QuerySet[Round]:
    """The rounds with their bets (``rounds_with_detail``) that ``user`` may look up."""
    return visible_rounds(user, rounds_with_detail())


def recent_rounds(player, count: int = RECALL_COUNT) -> list[Round]:
    return list(rounds_with_detail().filter(player=player).order_by("-sequence")[:count])


def open_tables() -> list[tuple]:
    """Offerings in service with whether each is live now (and why not): a table
    suspended while it is checked is listed, closed."""
    offerings = offerings_with_parts().filter(status__in=IN_SERVICE)
    return [(offering, offering_is_live(offering)) for offering in offerings]


def is_latest_round(round_obj: Round) -> bool:
    """Whether ``round_obj`` is its player's most recent round (a later one may exist)."""
    return not Round.objects.filter(
        player_id=round_obj.player_id, sequence__gt=round_obj.sequence
    ).exists()


def player_rounds(player) -> QuerySet[Round]:
    """A player's games, newest first, with what their list and CSV show (no bets), each
    with its state (void, adjusted) read in the same query."""
    rounds = Round.objects.filter(player=player).select_related("player", "offering__holder")
    return with_state(rounds).order_by("-sequence")


def every_round() -> QuerySet[Round]:
    """Every round with what its row in the list shows, newest first (no bets: one query a
    page whatever its rows), each with its state read in the same query."""
    rounds = Round.objects.select_related("player", "offering__holder")
    return with_state(rounds).order_by("-started_at", "-pk")


def staff_rounds(user) -> QuerySet[Round]:
    """``every_round`` as ``user`` may list it: every round for compliance, auditors and
    superusers; their holder's for its supervisors."""
    scope = _round_scope(user, own=False)
    return every_round() if scope is None else every_round().filter(scope)


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
