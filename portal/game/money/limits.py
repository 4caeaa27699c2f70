"""Responsible gaming (§ 814a.2): the limits a player sets on their account with a holder,
and the checks a deposit and a round pass before any money moves.

- Deposit and spend (loss) limits per day, week and month, a largest single wager, a
  daily time limit, and a temporary suspension of one's own play.
- A lower limit takes effect at once. A higher one (or none) waits until the current
  period has ended, then takes effect when the player confirms it again
  (reading:limit-raises).
- Periods are Pennsylvania dates (reading:pennsylvania-dates): the day from 00:00, the week
  from Monday, the month from the 1st; spend is the money the rounds moved, stakes less
  returns with their voids and adjustments (reading:spend-limit-net), and time the union
  of the day's sessions (reading:time-limit-sessions).
- A refusal names the limit and when it resets. A round already started finishes: the
  checks run before the draw and never after.

The player sets them through ``services.limit_changes``; they are stored as rows, one per
limit in force and per raise waiting (``portal.game.models.AccountLimit``), whose kinds
(``LimitKind``) and periods (``Period``) are named here as there.
"""

from __future__ import annotations

import datetime
import logging
from functools import wraps

from celery import current_app
from django.db.models import Sum

from portal.core.errors import Conflict, ValidationFailed
from portal.core.money import dollars
from portal.core.padates import day_starts, pa_date, pa_time
from portal.game.models import (
    ROUND_ENTRY_KINDS,
    Deposit,
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    LimitKind,
    Period,
)
from portal.game.sessions.lifecycle import time_played

CLAUSE = "§ 814a.2"
# Who is told when a limit refuses something: sent by this name (portal.notifications).
LIMIT_REACHED_TASK = "notifications.limit_reached"


log = logging.getLogger(__name__)


DEPOSIT_KINDS = (LimitKind.DEPOSIT_DAY, LimitKind.DEPOSIT_WEEK, LimitKind.DEPOSIT_MONTH)
SPEND_KINDS = (LimitKind.SPEND_DAY, LimitKind.SPEND_WEEK, LimitKind.SPEND_MONTH)


UNKNOWN_KIND = "the limits are: {kinds}"
OVER_LIMIT = (
    f"{CLAUSE}: your {{label}} of {{limit}} allows {{left}} more until it resets at "
    "{resets}; this {what} is {amount}"
)
TIME_OVER = f"{CLAUSE}: your daily time limit of {{limit}} is used up; it resets at {{resets}}"
WAGER_OVER = f"{CLAUSE}: your largest single wager is {{limit}}; {{spot}} stakes {{amount}}"
PAUSED = f"{CLAUSE}: you suspended your own play with {{holder}} until {{until}}"


def when(instant: datetime.datetime) -> str:
    """An instant as a player reads it: Pennsylvania time, with the zone."""
    return pa_time(instant).strftime("%Y-%m-%d %H:%M %Z")


Instant = datetime.datetime


def period_span(period: Period, at: Instant) -> tuple[Instant, Instant]:
    """The Pennsylvania period containing ``at``: its first instant and the next period's."""
    day = pa_date(at)
    if period is Period.DAY:
        first, after = day, day + datetime.timedelta(days=1)
    elif period is Period.WEEK:
        first = day - datetime.timedelta(days=day.weekday())
        after = first + datetime.timedelta(days=7)
    else:
        first = day.replace(day=1)
        after = (first + datetime.timedelta(days=32)).replace(day=1)
    return day_starts(first), day_starts(after)


# Checking them ----------------------------------------------------------------------------


def paused(account: GamingAccount, at: datetime.datetime) -> str | None:
    if account.paused_until is not None and at < account.paused_until:
        return PAUSED.format(holder=account.holder.name, until=when(account.paused_until))
    return None


def check_deposit(
    account: GamingAccount, amount: int, *, at: datetime.datetime, promotional: bool = False
) -> None:
    """Refuse a deposit that a pause or a deposit limit forbids. Promotional credit is the
    holder's money, not the player's: it counts against no deposit limit."""
    if (reason := paused(account, at)) is not None:
        raise Conflict(reason)
    if promotional:
        return
    found = account.limits
    _within_period_limits(
        account, found, DEPOSIT_KINDS, amount, at, _deposited, "amount", "deposit"
    )


def _deposited(account: GamingAccount, start: Instant, end: Instant) -> int:
    """What the player deposited from ``start`` to ``end`` (the holder's promotional credit
    is not the player's money: it counts against no deposit limit)."""
    return (
        Deposit.objects.filter(account=account, made_at__gte=start, made_at__lt=end)
        .exclude(method=DepositMethod.PROMOTIONAL)
        .aggregate(total=Sum("amount"))["total"]
        or 0
    )


def _spent(account: GamingAccount, start: Instant, end: Instant) -> int:
    """The net money the account's rounds lost from ``start`` to ``end``, as it moved
    (reading:spend-limit-net): stakes less returns, with each void and adjustment counted
    when it was applied. What a void could not collect moved nothing, so it is no loss."""
    net = LedgerEntry.objects.filter(
        account=account,
        kind__in=ROUND_ENTRY_KINDS,
        created_at__gte=start,
        created_at__lt=end,
    ).aggregate(net=Sum("amount"))["net"]
    return -(net or 0)


def _within_period_limits(account, found, kinds, amount, at, used_in, field, what) -> None:
    """Refuse ``amount`` where, with what ``used_in`` finds in the period of one of
    ``kinds`` the player has set (``found``: the limits in force), it would pass that limit:
    naming it, what it still allows, and when it resets."""
    for kind in kinds:
        limit = found.get(kind.value)
        if limit is None:
            continue
        start, resets = period_span(kind.period, at)
        used = used_in(account, start, resets)
        if used + amount > limit:
            refusal = ValidationFailed.on(
                field,
                OVER_LIMIT.format(
                    label=kind.label,
                    limit=dollars(limit),
                    left=dollars(max(limit - used, 0)),
                    resets=when(resets),
                    what=what,
                    amount=dollars(amount),
                ),
            )
            raise _reached(refusal, account, kind, start)


def check_round(
    account: GamingAccount, stakes: list[tuple[str, int]], *, at, session: int | None = None
) -> None:
    """Refuse a round that a pause or a limit forbids, before the draw: the largest single
    wager, the spend limits (the round's whole stake as its worst loss) and the daily
    time (the union of the player's sessions, ``session`` being the round's own, running
    now). Reads nothing unless the player has set the limit concerned."""
    if (reason := paused(account, at)) is not None:
        raise Conflict(reason)
    found = account.limits
    if not found:
        return
    largest = found.get(LimitKind.WAGER.value)
    if largest is not None:
        for spot, stake in stakes:
            if stake > largest:
                refusal = ValidationFailed.on(
                    "wagers",
                    WAGER_OVER.format(limit=dollars(largest), spot=spot, amount=dollars(stake)),
                )
                raise _reached(refusal, account, LimitKind.WAGER, period_span(Period.DAY, at)[0])
    total = sum(stake for _, stake in stakes)
    _within_period_limits(account, found, SPEND_KINDS, total, at, _spent, "wagers", "round's stake")
    minutes = found.get(LimitKind.TIME_DAY.value)
    if minutes is not None:
        start, resets = period_span(Period.DAY, at)
        used = time_played(account.player_id, start, at, current=session)
        if used >= datetime.timedelta(minutes=minutes):
            refusal = Conflict(TIME_OVER.format(limit=f"{minutes} minutes", resets=when(resets)))
            raise _reached(refusal, account, LimitKind.TIME_DAY, start)


def _reached(refusal, account: GamingAccount, kind: LimitKind, start: Instant):
    """Mark a refusal as a limit reached (which account, limit and period), for
    ``tell_limit_reached`` once the refused transaction has rolled back."""
    refusal.limit_reached = {
        "account_id": account.pk,
        "kind": kind.value,
        "period_start": start.isoformat(),
    }
    return refusal


def tell_limit_reached(refusal: Exception) -> None:
    """After a refusal by a limit, outside its rolled-back transaction: ask, by the task's
    name, that the player and their holder's payments staff be told (at most once per
    limit and period). Never fails the request that was refused."""
    reached = getattr(refusal, "limit_reached", None)
    if reached is None:
        return
    try:
        current_app.signature(LIMIT_REACHED_TASK, kwargs=reached).apply_async()
    except Exception:  # the broker's or the task's error: the refusal stands regardless
        log.exception("could not ask for the limit reached to be told: %s", reached)


def tells_limit_reached(service):
    """Wrap a service whose refusal may be a limit reached: told once it has rolled back."""

    @wraps(service)
    def wrapper(*args, **kwargs):
        try:
            return service(*args, **kwargs)
        except (ValidationFailed, Conflict) as refusal:
            tell_limit_reached(refusal)
            raise

    return wrapper
