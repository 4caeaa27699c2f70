"""Reads of game records: a player's recent rounds, any round for those who may look, and
the voids and adjustments of rounds for those who see or decide them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Exists, OuterRef, Q, QuerySet

from portal.access.policy import Action, may
from portal.access.roles import holder_id_of
from portal.compliance.models import OfferingStatus
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.game.corrections import STATE_WORDS, corrections_of, state_of, with_state
from portal.game.models import CorrectionKind, CorrectionStatus, Round, RoundCorrection, Wallet

RECALL_COUNT = 10  # at least the last 10 games (§ 810a.11 "last game" recall)


def rounds_with_detail() -> QuerySet[Round]:
    return Round.objects.select_related("player", "offering").prefetch_related("bets")


def _supervised_holder(user) -> int | None:
    """The holder whose rounds ``user`` corrects as its supervisor (None: no such holder, or
    they correct every holder's and see every round anyway)."""
    if may(user, Action.CORRECT_ROUNDS):
        return holder_id_of(user)
    return None


def _round_scope(user, *, own: bool) -> Q | None:
    """Which rounds ``user`` may look up: None for every round (compliance, auditors,
    superusers); else their holder's for its supervisors and, with ``own``, a player's
    own (a condition that matches nothing when neither applies)."""
    if may(user, Action.VIEW_ROUNDS):
        return None
    conditions = []
    if own and may(user, Action.PLAY):
        conditions.append(Q(player=user))
    if (holder := _supervised_holder(user)) is not None:
        conditions.append(Q(offering__holder_id=holder))
    return reduce(or_, conditions) if conditions else Q(pk__in=[])


def rounds_visible_to(user) -> QuerySet[Round]:
    """A player's own rounds; their holder's for its supervisors (§ 617a.6, § 812a.7(a)(9):
    they correct them); every round for compliance, auditors and superusers."""
    rounds = rounds_with_detail()
    scope = _round_scope(user, own=True)
    return rounds if scope is None else rounds.filter(scope)


def with_corrections(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds annotated ``corrected``: whether any void or adjustment names them, proposed,
    decided or refused (in the same query: the corrections are read only when there are)."""
    return rounds.annotate(corrected=Exists(RoundCorrection.objects.filter(round=OuterRef("pk"))))


@dataclass(frozen=True)
class RoundCorrections:
    """What a round's pages say of its voids and adjustments (oldest first)."""

    items: list[RoundCorrection]
    state: str  # "complete" (as settled), "void" or "adjusted": approved corrections only
    waiting: RoundCorrection | None  # the one proposed, if any

    @property
    def void(self) -> bool:
        return self.state == "void"

    @property
    def state_word(self) -> str:
        return STATE_WORDS[self.state]

    @property
    def applied(self) -> RoundCorrection | None:
        """The approved correction that gives the round its state: its void, else its
        latest adjustment (None while it stands as settled)."""
        approved = [c for c in self.items if c.status == CorrectionStatus.APPROVED]
        voids = [c for c in approved if c.kind == CorrectionKind.VOID]
        return (voids or approved or [None])[-1]


def round_corrections(round_obj: Round) -> RoundCorrections:
    """The round's corrections: no query for a round ``with_corrections`` found none."""
    found = []
    if getattr(round_obj, "corrected", True):
        found = corrections_of([round_obj.pk]).get(round_obj.pk, [])
    waiting = next((c for c in found if c.status == CorrectionStatus.PROPOSED), None)
    return RoundCorrections(found, state_of(found), waiting)


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


def corrections_visible_to(user) -> QuerySet[RoundCorrection]:
    """Voids and adjustments with what their list and page show: every holder's for those
    who see every round (compliance, auditors, superusers), their holder's for its
    supervisors, none for anyone else."""
    rows = RoundCorrection.objects.select_related(
        "round__offering", "account__player", "account__holder", "proposed_by", "decided_by"
    )
    if may(user, Action.VIEW_ROUNDS):
        return rows
    if (holder := _supervised_holder(user)) is not None:
        return rows.filter(account__holder_id=holder)
    return rows.none()


def may_see_corrections(user) -> bool:
    """Whether ``user`` has the voids and adjustments queue at all (what it holds for them
    is ``corrections_visible_to``)."""
    return may(user, Action.VIEW_ROUNDS) or may(user, Action.CORRECT_ROUNDS)


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
