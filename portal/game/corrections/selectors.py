"""Reads of the voids and adjustments of rounds: one by its id, the account a round was
played from, each round's corrections and state, and which corrections a user sees (every
holder's for those who see every round, their own holder's for its supervisors)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse

from portal.access.policy import Action, may
from portal.access.roles import holder_id_of
from portal.core.errors import Conflict, NotFound
from portal.core.validation import MAX_ID
from portal.core.waiting import Waiting
from portal.game.corrections.messages import NO_ACCOUNT, NO_SUCH_CORRECTION
from portal.game.corrections.presenters import STATE_WORDS, state_of
from portal.game.models import (
    CorrectionKind,
    CorrectionStatus,
    GamingAccount,
    Round,
    RoundCorrection,
)

S = CorrectionStatus


def correction_or_404(correction_id) -> RoundCorrection:
    if type(correction_id) is not int or not 0 < correction_id <= MAX_ID:
        raise NotFound(NO_SUCH_CORRECTION.format(id=correction_id))
    found = (
        RoundCorrection.objects.select_related(
            "account__holder", "account__player", "round", "proposed_by", "decided_by"
        )
        .filter(pk=correction_id)
        .first()
    )
    if found is None:
        raise NotFound(NO_SUCH_CORRECTION.format(id=correction_id))
    return found


def round_account(round_obj: Round) -> GamingAccount:
    """The account the round was played from: the player's with the table's holder."""
    account = (
        GamingAccount.objects.select_related("holder")
        .filter(player_id=round_obj.player_id, holder_id=round_obj.offering.holder_id)
        .first()
    )
    if account is None:
        raise Conflict(NO_ACCOUNT.format(round=round_obj.pk))
    return account


def with_state(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds annotated ``voided`` and ``adjusted`` (approved corrections), in the same query."""
    approved = RoundCorrection.objects.filter(round=OuterRef("pk"), status=S.APPROVED)
    return rounds.annotate(
        voided=Exists(approved.filter(kind=CorrectionKind.VOID)),
        adjusted=Exists(approved.filter(kind=CorrectionKind.ADJUSTMENT)),
    )


def corrections_of(round_ids) -> dict[int, list[RoundCorrection]]:
    """Each round's voids and adjustments, oldest first, in one query."""
    found: dict[int, list[RoundCorrection]] = {}
    rows = RoundCorrection.objects.filter(round_id__in=list(round_ids)).select_related(
        "proposed_by", "decided_by"
    )
    for correction in rows.order_by("pk"):
        found.setdefault(correction.round_id, []).append(correction)
    return found


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


def supervised_holder(user) -> int | None:
    """The holder whose rounds ``user`` corrects as its supervisor (None: no such holder, or
    they correct every holder's and see every round anyway)."""
    if may(user, Action.CORRECT_ROUNDS):
        return holder_id_of(user)
    return None


def correction_rows() -> QuerySet[RoundCorrection]:
    """Voids and adjustments with what their list and page show."""
    return RoundCorrection.objects.select_related(
        "round__offering", "account__player", "account__holder", "proposed_by", "decided_by"
    )


def visible_corrections(user, rows: QuerySet[RoundCorrection]) -> QuerySet[RoundCorrection]:
    """``rows`` as ``user`` may see them: every holder's for those who see every round
    (compliance, auditors, superusers), their holder's for its supervisors, none for anyone
    else."""
    if may(user, Action.VIEW_ROUNDS):
        return rows
    if (holder := supervised_holder(user)) is not None:
        return rows.filter(account__holder_id=holder)
    return rows.none()


def corrections_visible_to(user) -> QuerySet[RoundCorrection]:
    """Voids and adjustments with what their list and page show, as ``user`` may see them
    (``visible_corrections``)."""
    return visible_corrections(user, correction_rows())


def may_see_corrections(user) -> bool:
    """Whether ``user`` has the voids and adjustments queue at all (what it holds for them
    is ``corrections_visible_to``)."""
    return may(user, Action.VIEW_ROUNDS) or may(user, Action.CORRECT_ROUNDS)


def waiting_for_decision(user) -> QuerySet[RoundCorrection]:
    """The proposed voids and adjustments ``user`` may decide: of the rounds they correct,
    proposed by someone else, of a round not their own (the four-eyes guard's people)."""
    if not may(user, Action.CORRECT_ROUNDS):
        return RoundCorrection.objects.none()
    proposed = RoundCorrection.objects.filter(status=S.PROPOSED)
    if (holder := supervised_holder(user)) is not None:
        proposed = proposed.filter(account__holder_id=holder)
    return proposed.exclude(proposed_by=user).exclude(account__player=user)


def corrections_waiting(user) -> list[Waiting]:
    """The dashboard's count of ``waiting_for_decision`` (one query, for those who correct
    rounds), linking the queue, which lists those waiting first."""
    if not may(user, Action.CORRECT_ROUNDS):
        return []
    number = waiting_for_decision(user).count()
    label = "Voids and adjustments of rounds waiting for your decision"
    return [Waiting(label, number, reverse("game:corrections"))] if number else []
