"""A holder's terms and conditions, accepted by the player before their first deposit or
round with that holder (§ 811a.3, § 812a.5).

The version asked for is the one in force: the holder's approved version
(``compliance.selectors.terms_in_force``). A player who accepted an earlier version is asked
again. A holder that has no terms in force yet asks nothing of its players: the portal cannot
make up a holder's terms, and its compliance officers see which holders have none.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from portal.access.policy import Action, require
from portal.audit.services import audit_record
from portal.compliance.models import RecordStatus, TermsAndConditions
from portal.compliance.selectors import terms_in_force
from portal.core.errors import Conflict, ValidationFailed
from portal.core.validation import MAX_ID
from portal.game.models import TermsAcknowledgement

TERMS_NEEDED = (
    "§ 812a.5: read and accept {holder}'s terms and conditions (version {version}) before "
    "your first deposit or game with them"
)
TERMS_UNKNOWN = (
    "§ 812a.5: these are not {holder}'s terms and conditions in force; reload the page and "
    "accept the version shown"
)
ACKNOWLEDGE_ACTION = "account.terms_accept"


@dataclass(frozen=True)
class TermsStanding:
    """The holder's terms in force (id and version, or None) and whether the player accepted
    that version: what a deposit and a round check, read with everything else they read."""

    in_force_id: int | None
    in_force_version: int | None
    accepted: bool


def standing_of(player_id: int, holder_id: int) -> TermsStanding:
    """The player's standing with the holder's terms: one read."""
    accepted = TermsAcknowledgement.objects.filter(player_id=player_id, terms=OuterRef("pk"))
    terms = (
        TermsAndConditions.objects.filter(holder_id=holder_id, status=RecordStatus.APPROVED)
        .annotate(accepted=Exists(accepted))
        .values_list("pk", "version", "accepted")
        .first()
    )
    if terms is None:
        return TermsStanding(None, None, True)
    return TermsStanding(*terms)


def refuse_unaccepted(standing: TermsStanding, *, holder_name: str) -> None:
    if not standing.accepted:
        raise Conflict(TERMS_NEEDED.format(holder=holder_name, version=standing.in_force_version))


@transaction.atomic
def terms_accept(*, player, holder_id, terms_id) -> TermsAcknowledgement:
    """The player accepts the holder's terms in force, version ``terms_id`` (the one they
    were shown): dated and timed; accepting it again changes nothing."""
    require(player, Action.PLAY)
    in_force = terms_in_force(holder_id) if type(holder_id) is int else None
    if in_force is None or type(terms_id) is not int or not 0 < terms_id <= MAX_ID:
        raise ValidationFailed.on("terms", _unknown(in_force))
    if in_force.pk != terms_id:
        raise ValidationFailed.on("terms", _unknown(in_force))
    existing = TermsAcknowledgement.objects.filter(player=player, terms=in_force).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            accepted = TermsAcknowledgement.objects.create(
                player=player, terms=in_force, acknowledged_at=timezone.now()
            )
    except IntegrityError:  # accepted in another request at the same moment
        return TermsAcknowledgement.objects.get(player=player, terms=in_force)
    audit_record(
        actor=player,
        action=ACKNOWLEDGE_ACTION,
        object_type="player",
        object_id=player.pk,
        after={
            "holder_id": in_force.holder_id,
            "terms": in_force.pk,
            "terms_version": in_force.version,
            "acknowledged_at": accepted.acknowledged_at.isoformat(),
        },
    )
    return accepted


def _unknown(in_force: TermsAndConditions | None) -> str:
    holder = in_force.holder.name if in_force is not None else "the holder"
    return TERMS_UNKNOWN.format(holder=holder)
