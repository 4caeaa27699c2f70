"""Pennsylvania dates: the one place that turns instants into regulatory dates and back.

**Reading** (reading:pennsylvania-dates): every regulatory date is a Pennsylvania date
(America/New_York): the rule's effective date 2025-06-14 and its sunset 2028-06-14 (the
rule no longer applies from 00:00 local time that day), an approval's effective and expiry
dates, and the gaming day. Instants are stored in UTC; nothing else in the portal compares
dates with instants by hand.

**Reading** (reading:gaming-day): the gaming day runs from 00:00 to 24:00 PA time unless a
certificate holder sets another start hour; a gaming day is named by the date it starts on.
"""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

import jinzi

PA = ZoneInfo("America/New_York")
UTC = datetime.UTC
GAMING_DAY_HOURS = range(24)


def pa_time(instant: datetime.datetime) -> datetime.datetime:
    """``instant`` in Pennsylvania time (EST or EDT, whichever was in force then)."""
    return instant.astimezone(PA)


# How an instant reads on pages and in notices: to the minute, or to the second where the
# events it dates are told apart by it (the audit trail).
TO_THE_MINUTE = "%Y-%m-%d %H:%M %Z"
TO_THE_SECOND = "%Y-%m-%d %H:%M:%S %Z"


def pa_stamp(instant: datetime.datetime, *, seconds: bool = False) -> str:
    """``instant`` as people read it: Pennsylvania time with its zone, "2026-11-30 10:26 EST"
    ("2026-11-30 10:26:05 EST" with ``seconds``); never microseconds."""
    return pa_time(instant).strftime(TO_THE_SECOND if seconds else TO_THE_MINUTE)


def pa_date(instant: datetime.datetime) -> datetime.date:
    """The Pennsylvania date at ``instant``."""
    return instant.astimezone(PA).date()


def pa_today() -> datetime.date:
    return pa_date(timezone.now())


def day_starts(day: datetime.date, hour: int = 0) -> datetime.datetime:
    """The instant (UTC) Pennsylvania's ``day`` reaches ``hour``:00 local time.

    An hour the clocks skip (02:00 on the spring-forward Sunday) is taken as the first
    instant after the gap, so no day ever starts twice or not at all.
    """
    # zoneinfo reads a wall time in the gap with the offset before it (fold=0), which
    # lands on the first instant after the gap.
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=PA).astimezone(UTC)


def gaming_day(instant: datetime.datetime, start_hour: int = 0) -> datetime.date:
    """The gaming day ``instant`` falls in, for a holder whose day starts at ``start_hour``."""
    day = pa_date(instant)
    if instant < day_starts(day, start_hour):
        day -= datetime.timedelta(days=1)
    return day


def gaming_day_span(day: datetime.date, start_hour: int = 0) -> tuple[datetime.datetime, ...]:
    """The instants (UTC) gaming ``day`` runs from, and up to but not including."""
    return day_starts(day, start_hour), day_starts(day + datetime.timedelta(days=1), start_hour)


def rule_in_force(instant: datetime.datetime) -> bool:
    """Whether § 617b.8 applies at ``instant``: from 2025-06-14 00:00 up to, not including,
    2028-06-14 00:00, Pennsylvania time."""
    return jinzi.in_force(pa_date(instant))
