"""Exclusions from interactive gaming at every holder (§ 815a.3, § 815a.4).

Each exclusion is a row of its own (``PlayerExclusion``); what deposits and rounds read is
the player's standing on their wallet's row, written here under that row's lock, so a
deposit or round that takes the lock after an exclusion commits sees it. A self-exclusion
(1 year, 5 years or life, § 815a.3(c)) applies at once at every holder and is never
shortened; the Board's entries end only when an edition of its list removes them.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from portal.access.policy import Action, require
from portal.audit.services import audit_record
from portal.core.errors import ValidationFailed
from portal.core.padates import pa_time
from portal.game.models import Wallet
from portal.players import messages as msg
from portal.players.models import ExclusionPeriod, ExclusionSource, PlayerExclusion

YEARS = {ExclusionPeriod.ONE_YEAR: 1, ExclusionPeriod.FIVE_YEARS: 5, ExclusionPeriod.LIFE: None}


def period_end(period: ExclusionPeriod, start: datetime.datetime) -> datetime.datetime | None:
    """When an exclusion of ``period`` begun at ``start`` ends (None: never), counted in
    Pennsylvania time so that it ends at the hour it began, that many years on."""
    years = YEARS[ExclusionPeriod(period)]
    if years is None:
        return None
    local = pa_time(start)
    try:
        later = local.replace(year=local.year + years)
    except ValueError:  # begun on 29 February
        later = local.replace(year=local.year + years, month=3, day=1)
    return later.astimezone(datetime.UTC)


def in_force(player_id: int, *, at: datetime.datetime):
    return PlayerExclusion.objects.filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=at),
        player_id=player_id,
        lifted_at__isnull=True,
        starts_at__lte=at,
    )


def standing_apply(wallet: Wallet, *, at: datetime.datetime) -> Wallet:
    """Write on the (locked) wallet the exclusion its rows hold at ``at``."""
    rows = list(in_force(wallet.player_id, at=at).values_list("starts_at", "ends_at"))
    wallet.excluded_since = min((start for start, _ in rows), default=None)
    ends = [end for _, end in rows]
    wallet.excluded_until = None if not rows or None in ends else max(ends)
    wallet.save(update_fields=["excluded_since", "excluded_until", "updated_at"])
    return wallet


def locked_wallet(player_id: int) -> Wallet:
    """The player's wallet, the lock every movement of their money takes first (made if the
    player has none yet)."""
    Wallet.objects.get_or_create(player_id=player_id)
    return Wallet.objects.select_for_update().get(player_id=player_id)


@transaction.atomic
def self_exclusion_request(*, player, period, confirmed) -> PlayerExclusion:
    """The player excludes themselves from every holder for ``period`` (§ 815a.3(c)), after
    confirming that it cannot be undone. A longer one may follow; never a shorter one."""
    require(player, Action.PLAY)
    if period not in ExclusionPeriod.values:
        raise ValidationFailed.on("period", msg.PERIOD_UNKNOWN)
    if confirmed is not True:
        raise ValidationFailed.on("confirmed", msg.CONFIRM_NEEDED)
    wallet = locked_wallet(player.pk)
    now = timezone.now()
    ends_at = period_end(ExclusionPeriod(period), now)
    current = in_force(player.pk, at=now).filter(source=ExclusionSource.SELF)
    for existing in current:
        if existing.ends_at is None or (ends_at is not None and existing.ends_at >= ends_at):
            until = (
                "for life"
                if existing.ends_at is None
                else f"until {pa_time(existing.ends_at):%d %B %Y}"
            )
            raise ValidationFailed.on("period", msg.SHORTER_THAN_IN_FORCE.format(until=until))
    exclusion = PlayerExclusion.objects.create(
        player=player,
        source=ExclusionSource.SELF,
        period=period,
        starts_at=now,
        ends_at=ends_at,
        recorded_by=player,
    )
    standing_apply(wallet, at=now)
    audit_record(
        actor=player,
        action="player.self_exclude",
        object_type="player",
        object_id=player.pk,
        after={
            "period": period,
            "starts_at": now.isoformat(),
            "ends_at": ends_at.isoformat() if ends_at else None,
        },
    )
    return exclusion
