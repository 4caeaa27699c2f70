"""Reads of complaints: who may see and handle which, and what waits for whom."""

from __future__ import annotations

from django.db.models import QuerySet
from django.urls import reverse

from portal.access.policy import Action, may
from portal.access.roles import holder_id_of
from portal.core.waiting import Waiting
from portal.game.models import OPEN_STATUSES, Complaint


def may_handle(user, complaint: Complaint) -> bool:
    """The holder's supervisors and compliance officers (every holder's) handle it."""
    if not may(user, Action.CORRECT_ROUNDS, complaint):
        return False
    own = holder_id_of(user)
    return own is None or own == complaint.holder_id or may(user, Action.VIEW_ROUNDS)


def may_see_complaints(user) -> bool:
    """Players (their own), the holders' supervisors, compliance officers and auditors."""
    return any(may(user, a) for a in (Action.PLAY, Action.CORRECT_ROUNDS, Action.VIEW_ROUNDS))


def complaints_visible_to(user) -> QuerySet[Complaint]:
    """A player's own; every holder's for compliance officers and auditors (the log);
    their holder's for its supervisors; none for anyone else."""
    rows = Complaint.objects.select_related("holder", "player", "handler", "answered_by")
    if may(user, Action.VIEW_ROUNDS):
        return rows
    if may(user, Action.CORRECT_ROUNDS) and (holder := holder_id_of(user)) is not None:
        return rows.filter(holder_id=holder)
    if may(user, Action.PLAY):
        return rows.filter(player=user)
    return rows.none()


def waiting_for(user) -> QuerySet[Complaint]:
    """The open complaints ``user`` handles, not their own."""
    if not may(user, Action.CORRECT_ROUNDS):
        return Complaint.objects.none()
    found = Complaint.objects.filter(status__in=OPEN_STATUSES).exclude(player=user)
    if (holder := holder_id_of(user)) is not None and not may(user, Action.VIEW_ROUNDS):
        found = found.filter(holder_id=holder)
    return found


def complaints_waiting(user) -> list[Waiting]:
    """The dashboard's count of the complaints open for ``user`` (one query)."""
    if not may(user, Action.CORRECT_ROUNDS):
        return []
    number = waiting_for(user).count()
    label = "Complaints waiting for an answer"
    return [Waiting(label, number, reverse("game:complaints"))] if number else []
