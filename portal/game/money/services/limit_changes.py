"""The player's own limits on their account with a holder (§ 814a.2): setting one (lower at
once, higher or none once the period has ended and the player confirms it,
reading:limit-raises), confirming a raise, and pausing their own play. What the limits
are, and the checks a deposit and a round pass, are ``portal.game.money.limits``.

These are the only writers of the limits' rows (``AccountLimit``): each change takes the
player's wallet lock, then the account's (``selectors.locked``), as a movement of money
does, so two changes of one account's limits never interleave and a round waiting for the
wallet reads the account's limits again once a change has committed; each change is
audited with the limits pictured as they always were (``{"limits": …, "pending_limits":
…}``, ``GamingAccount.limits`` and ``pending_limits``)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from portal.access.policy import Action, require
from portal.audit.services import audit_record
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import AccountLimit, GamingAccount
from portal.game.money.limits import CLAUSE, UNKNOWN_KIND, LimitKind, period_span, when
from portal.game.money.selectors import locked, players_account

MAX_PAUSE_DAYS = 365
LIMIT_ACTION = "account.limit"
PAUSE_ACTION = "account.pause"


VALUE_RANGE = "{label}: a whole number from 1 to {maximum}{unit}, or nothing for no limit"
NOTHING_PENDING = "there is no raise of your {label} waiting for confirmation"
TOO_EARLY = (
    f"{CLAUSE}: a higher {{label}} takes effect only after the current period ends; "
    "confirm it from {at}"
)
PAUSE_RANGE = f"{CLAUSE}: suspend your play for 1 to 720 hours or 1 to {MAX_PAUSE_DAYS} days"
PAUSE_SHORTER = (
    f"{CLAUSE}: your play is already suspended until {{until}}; a suspension only lengthens"
)


def _kind(kind) -> LimitKind:
    if not isinstance(kind, str) or kind not in {k.value for k in LimitKind}:
        raise ValidationFailed.on(
            "kind", UNKNOWN_KIND.format(kinds=", ".join(k.label for k in LimitKind))
        )
    return LimitKind(kind)


def _value(kind: LimitKind, value) -> int | None:
    if value is None:
        return None
    maximum = kind.maximum
    if type(value) is not int or not 1 <= value <= maximum:
        unit = " minutes" if kind.in_minutes else " cents"
        raise ValidationFailed.on(
            "value", VALUE_RANGE.format(label=kind.label, maximum=maximum, unit=unit)
        )
    return value


def _stricter(new: int | None, old: int | None) -> bool:
    """Whether ``new`` limits at least as much as ``old`` (None: no limit)."""
    return new is not None and (old is None or new <= old)


@dataclass(frozen=True)
class LimitChange:
    kind: LimitKind
    value: int | None
    applied: bool  # False: waiting for the period's end and the player's confirmation
    effective_from: datetime.datetime


@transaction.atomic
def limit_set(*, player, account_id, kind, value) -> LimitChange:
    """Set one of the player's limits: lower at once, higher (or none) after the period."""
    require(player, Action.PLAY)
    kind = _kind(kind)
    value = _value(kind, value)
    _, account = locked(players_account(player, account_id).pk, player.pk)
    now = timezone.now()
    before = _pictured(account)
    current = before["limits"].get(kind.value)
    rows = account.limit_rows.filter(kind=kind)
    if _stricter(value, current):
        # The new limit replaces any raise still waiting, and the limit in force unless it is
        # the same (which stays in force from when it took effect).
        rows.exclude(pending_until__isnull=True, amount=value).delete()
        if value != current:
            AccountLimit.objects.create(account=account, kind=kind, amount=value, in_force_from=now)
        change = LimitChange(kind, value, True, now)
    else:
        _, resets = period_span(kind.period, now)
        rows.filter(pending_until__isnull=False).delete()
        AccountLimit.objects.create(account=account, kind=kind, amount=value, pending_until=resets)
        change = LimitChange(kind, value, False, resets)
    account.save(update_fields=["updated_at"])
    _audit(player, account, LIMIT_ACTION, before)
    return change


@transaction.atomic
def limit_confirm(*, player, account_id, kind) -> LimitChange:
    """The player confirms a raise whose period has ended: it takes effect now."""
    require(player, Action.PLAY)
    kind = _kind(kind)
    _, account = locked(players_account(player, account_id).pk, player.pk)
    waiting = account.limit_rows.filter(kind=kind, pending_until__isnull=False).first()
    if waiting is None:
        raise Conflict(NOTHING_PENDING.format(label=kind.label))
    now = timezone.now()
    if now < waiting.pending_until:
        raise Conflict(TOO_EARLY.format(label=kind.label, at=when(waiting.pending_until)))
    before = _pictured(account)
    account.limit_rows.filter(kind=kind, pending_until__isnull=True).delete()
    if waiting.amount is None:  # a raise to no limit at all: nothing stays in force
        waiting.delete()
    else:
        waiting.pending_until, waiting.in_force_from = None, now
        waiting.save(update_fields=["pending_until", "in_force_from"])
    account.save(update_fields=["updated_at"])
    _audit(player, account, LIMIT_ACTION, before, reason="confirmed after the period ended")
    return LimitChange(kind, waiting.amount, True, now)


@transaction.atomic
def pause_play(*, player, account_id, hours=None, days=None) -> GamingAccount:
    """The player's temporary suspension: no play and no deposits with this holder until it
    ends. It can be lengthened, never shortened."""
    require(player, Action.PLAY)
    if (hours is None) == (days is None):
        raise ValidationFailed.on("hours", PAUSE_RANGE)
    if hours is not None and (type(hours) is not int or not 1 <= hours <= 720):
        raise ValidationFailed.on("hours", PAUSE_RANGE)
    if days is not None and (type(days) is not int or not 1 <= days <= MAX_PAUSE_DAYS):
        raise ValidationFailed.on("days", PAUSE_RANGE)
    account = players_account(player, account_id)
    account = GamingAccount.objects.select_for_update().get(pk=account.pk)
    now = timezone.now()
    until = now + datetime.timedelta(hours=hours or 0, days=days or 0)
    if account.paused_until is not None and account.paused_until > until:
        raise Conflict(PAUSE_SHORTER.format(until=when(account.paused_until)))
    before = {"paused_until": account.paused_until.isoformat() if account.paused_until else None}
    account.paused_until = until
    account.save(update_fields=["paused_until", "updated_at"])
    audit_record(
        actor=player,
        action=PAUSE_ACTION,
        object_type="player_account",
        object_id=account.pk,
        before=before,
        after={"paused_until": until.isoformat()},
    )
    return account


def _pictured(account: GamingAccount) -> dict:
    """The account's limits as an ``account.limit`` event pictures them, read from the rows
    now (not as they were read with the account)."""
    now = GamingAccount.objects.with_limits().get(pk=account.pk)
    return {"limits": now.limits, "pending_limits": now.pending_limits}


def _audit(player, account, action, before, reason="") -> None:
    audit_record(
        actor=player,
        action=action,
        object_type="player_account",
        object_id=account.pk,
        before=before,
        after=_pictured(account),
        reason=reason,
    )
