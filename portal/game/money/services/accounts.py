"""A player's account with a holder (§ 812a.4): opened on their first deposit; suspended by
the holder (§ 812a.12), recorded as self-excluded (§ 812a.6) or reopened, always with the
reason; and the amounts and references every movement of its money reads."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from portal.access.policy import Action, require, require_not_own
from portal.audit.services import audit_record
from portal.compliance.models import CertificateHolder
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import AccountStatus, GamingAccount
from portal.game.money import messages as msg
from portal.game.money.selectors import account_or_404, account_picture, locked, wallet_for

MAX_AMOUNT = 100_000_000  # $1,000,000 in one movement
MAX_REFERENCE = 100
STATUS_ACTION = "account.status"


def ensure_account(player, holder: CertificateHolder) -> GamingAccount:
    """The player's one account with ``holder`` (§ 812a.4), opened on first deposit."""
    wallet_for(player)
    try:
        with transaction.atomic():
            account, created = GamingAccount.objects.get_or_create(player=player, holder=holder)
    except IntegrityError:  # opened by a concurrent request
        return GamingAccount.objects.get(player=player, holder=holder)
    if created:
        with transaction.atomic():
            audit_record(
                actor=player,
                action="account.open",
                object_type="player_account",
                object_id=account.pk,
                after=account_picture(account),
            )
    return account


def checked_amount(amount, *, maximum: int = MAX_AMOUNT) -> int:
    if type(amount) is not int or not 1 <= amount <= maximum:
        raise ValidationFailed.on("amount", msg.AMOUNT_WHOLE.format(maximum=maximum))
    return amount


def checked_reference(reference, *, message: str, required: bool = True) -> str:
    if reference is None:
        reference = ""
    if not isinstance(reference, str):
        raise ValidationFailed.on("reference", message)
    reference = reference.strip()
    if (required and not reference) or len(reference) > MAX_REFERENCE:
        raise ValidationFailed.on("reference", message)
    return reference


def open_to_play_and_deposit(account: GamingAccount) -> None:
    """A suspended (§ 812a.12) or self-excluded (§ 812a.6) account neither plays nor takes
    deposits; its balance can still be withdrawn."""
    if account.status == AccountStatus.SELF_EXCLUDED:
        raise Conflict(msg.ACCOUNT_CLOSED_TO_PLAY.format(clause="§ 812a.6", status="self-excluded"))
    if account.status == AccountStatus.SUSPENDED:
        raise Conflict(
            msg.ACCOUNT_CLOSED_TO_PLAY.format(clause="§ 812a.12", status="suspended by the holder")
        )


@transaction.atomic
def account_set_status(*, actor, account_id, status, reason) -> GamingAccount:
    """Suspend an account, record a self-exclusion from the Board's list, or reopen it;
    always with the reason, audited with who did it."""
    account = account_or_404(account_id)
    require(actor, Action.RESTRICT_ACCOUNTS, account)
    require_not_own(actor, player_id=account.player_id, message=msg.OWN_STATUS)
    if status not in AccountStatus.values:
        statuses = ", ".join(str(s.label) for s in AccountStatus)
        raise ValidationFailed.on("status", msg.STATUS_UNKNOWN.format(statuses=statuses))
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise ValidationFailed.on("reason", msg.REASON_NEEDED.format(clause="§ 812a.6, § 812a.12"))
    _, account = locked(account.pk, account.player_id)
    if account.status == status:
        return account
    before = account_picture(account)
    account.status = status
    account.status_reason = reason.strip()
    account.status_changed_at = timezone.now()
    account.save(update_fields=["status", "status_reason", "status_changed_at", "updated_at"])
    audit_record(
        actor=actor,
        action=STATUS_ACTION,
        object_type="player_account",
        object_id=account.pk,
        before=before,
        after=account_picture(account),
        reason=reason.strip(),
    )
    return account
