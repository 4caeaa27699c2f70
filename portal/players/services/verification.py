"""Reading and verifying a player's identity (§ 812a.2(c), § 812a.2(d)).

The player file opens only for the player, the payments staff of a holder they hold an
account with, compliance officers and auditors, and each opening is audited (who read whose
file, never what it holds). Payments staff or an officer verify the identity, recording how,
the document's reference, who and when; nobody verifies their own.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from portal.access.policy import Action, require
from portal.access.roles import Role, has_role, holder_id_of
from portal.audit.services import audit_record
from portal.core.errors import NotFound, NotPermitted, ValidationFailed
from portal.core.padates import pa_time
from portal.core.validation import MAX_ID
from portal.game.models import GamingAccount, Wallet
from portal.players import messages as msg
from portal.players import sealing
from portal.players.models import PlayerFile, VerificationMethod

MAX_REFERENCE = 100


def player_file_or_404(player_id) -> PlayerFile:
    if type(player_id) is not int or not 0 < player_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_PLAYER.format(id=player_id))
    found = PlayerFile.objects.select_related("player", "verified_by").filter(player_id=player_id)
    player_file = found.first()
    if player_file is None:
        raise NotFound(msg.NO_SUCH_PLAYER.format(id=player_id))
    return player_file


def may_see_identity(user, player_file: PlayerFile) -> bool:
    """The player themselves; compliance officers and auditors; payments staff of a holder
    the player holds an account with (§ 812a.2(d): nobody else, never in reports)."""
    if user.pk == player_file.player_id:
        return True
    if has_role(user, Role.COMPLIANCE) or has_role(user, Role.AUDITOR) or user.is_superuser:
        return True
    if has_role(user, Role.PAYMENTS):
        return GamingAccount.objects.filter(
            player_id=player_file.player_id, holder_id=holder_id_of(user)
        ).exists()
    return False


def identity_read(*, actor, player_id) -> tuple[PlayerFile, dict]:
    """The player file opened for ``actor`` (404 to anyone who may not see it); each
    reading is audited, saying who read whose file, never what it holds."""
    player_file = player_file_or_404(player_id)
    if not may_see_identity(actor, player_file):
        raise NotFound(msg.NO_SUCH_PLAYER.format(id=player_id))
    with transaction.atomic():
        audit_record(
            actor=actor,
            action="player.identity_view",
            object_type="player",
            object_id=player_file.player_id,
        )
    return player_file, sealing.unseal(player_file.sealed)


def _verifier_may(actor, player_file: PlayerFile) -> None:
    if actor.pk == player_file.player_id:
        raise NotPermitted(msg.OWN_IDENTITY)
    if has_role(actor, Role.COMPLIANCE) or actor.is_superuser:
        return
    require(actor, Action.PAY_OUT, holder_id=_payments_holder(actor, player_file))


def may_verify(user, player_file: PlayerFile) -> bool:
    """Whether ``user`` may verify this player's identity (the rule ``identity_verify``
    applies), for a page to offer the form."""
    try:
        _verifier_may(user, player_file)
    except NotPermitted:
        return False
    return may_see_identity(user, player_file)


def _payments_holder(actor, player_file: PlayerFile) -> int | None:
    """The actor's holder when the player holds an account there; else the player's first
    holder (so the policy refuses another holder's staff in its own words)."""
    holders = list(
        GamingAccount.objects.filter(player_id=player_file.player_id)
        .order_by("pk")
        .values_list("holder_id", flat=True)
    )
    own = holder_id_of(actor)
    return own if own in holders else (holders[0] if holders else None)


@transaction.atomic
def identity_verify(*, actor, player_id, method, document_reference) -> PlayerFile:
    """Record that ``actor`` verified the player's identity, how, and on what document."""
    player_file = player_file_or_404(player_id)
    if not may_see_identity(actor, player_file) and actor.pk != player_file.player_id:
        raise NotFound(msg.NO_SUCH_PLAYER.format(id=player_id))
    _verifier_may(actor, player_file)
    if method not in VerificationMethod.values or method == VerificationMethod.SETUP:
        methods = ", ".join(
            str(m.label).lower() for m in VerificationMethod if m != VerificationMethod.SETUP
        )
        raise ValidationFailed.on("method", msg.METHOD_UNKNOWN.format(methods=methods))
    reference = document_reference.strip() if isinstance(document_reference, str) else ""
    if not reference or len(reference) > MAX_REFERENCE:
        raise ValidationFailed.on("document_reference", msg.REFERENCE_NEEDED)
    wallet = Wallet.objects.select_for_update().get(player_id=player_file.player_id)
    player_file = PlayerFile.objects.select_for_update().get(pk=player_file.pk)
    if player_file.verified_at is not None:
        raise ValidationFailed.on(
            "method",
            msg.ALREADY_VERIFIED.format(when=f"{pa_time(player_file.verified_at):%d %B %Y}"),
        )
    now = timezone.now()
    identity = sealing.unseal(player_file.sealed)
    identity["document_reference"] = reference
    player_file.sealed = sealing.seal(identity)
    player_file.verified_at = now
    player_file.verified_by = actor
    player_file.verification_method = method
    player_file.save(
        update_fields=["sealed", "verified_at", "verified_by", "verification_method", "updated_at"]
    )
    wallet.identity_verified_at = now
    wallet.save(update_fields=["identity_verified_at", "updated_at"])
    audit_record(
        actor=actor,
        action="player.identity_verify",
        object_type="player",
        object_id=player_file.player_id,
        before={"verified": False},
        after={
            "verified": True,
            "verified_by": actor.pk,
            "method": method,
            "fields_changed": ["document_reference"],
        },
    )
    return player_file
