"""Dated reminders: an approval about to expire (30, 7 and 1 days before), a layout review
due within 3 days of § 601a.10(a)'s 15-day window or overdue, and the sunset of § 617b.8
(90, 30 and 7 days before 2028-06-14); a complaint not yet answered as it ages
(``JINZI_COMPLAINT_REMINDER_DAYS``). All dates are Pennsylvania dates.

Each thing reminded of is a series of steps, least urgent first, each with the day it is
due. The daily job (``services.reminders_send``) sends, of the steps due, only the most
urgent one not yet sent, and marks the others so they never fire later: a missed night is
caught up on the next run, once.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.urls import reverse

from portal.access.roles import Role
from portal.compliance.models import SUNSET, Layout, OfferingStatus, RecordStatus
from portal.compliance.selectors import TABLE_PARTS
from portal.core.padates import day_starts, pa_date
from portal.game.models import OPEN_STATUSES, Complaint
from portal.notifications import kinds as k
from portal.notifications.audiences import people
from portal.notifications.kinds import Notice
from portal.notifications.sources.records import RECORDS, record_concerned, record_name

EXPIRY_DAYS = (30, 7, 1)
SUNSET_DAYS = (90, 30, 7)
REVIEW_SOON_DAYS = 3


@dataclass(frozen=True)
class Step:
    key: str
    due: datetime.date
    notice: Callable[[], Notice]


def _days(n: int) -> str:
    return "1 day" if n == 1 else f"{n} days"


def series(today: datetime.date) -> Iterator[list[Step]]:
    """Every series with at least one step due by ``today``, its steps least urgent first."""
    yield from _expiring(today)
    yield from _reviews(today)
    yield from _sunset(today)
    yield from _complaints(today)


def _complaints(today: datetime.date) -> Iterator[list[Step]]:
    """Open complaints as they age (``JINZI_COMPLAINT_REMINDER_DAYS`` after they were
    made, Pennsylvania days): their handlers are reminded (reading:complaint-number)."""
    days = sorted(settings.JINZI_COMPLAINT_REMINDER_DAYS)
    if not days:
        return
    made_by = day_starts(today - datetime.timedelta(days=days[0]) + datetime.timedelta(days=1))
    found = Complaint.objects.filter(
        status__in=OPEN_STATUSES, opened_at__lt=made_by
    ).select_related("holder")
    for complaint in found:
        opened = pa_date(complaint.opened_at)
        base = f"reminder:complaint:{complaint.pk}"
        yield [
            Step(
                f"{base}:{n}",
                opened + datetime.timedelta(days=n),
                _complaint_notice(complaint, today, f"{base}:{n}"),
            )
            for n in days
        ]


def _complaint_notice(complaint, today: datetime.date, key: str) -> Callable[[], Notice]:
    def build() -> Notice:
        waited = (today - pa_date(complaint.opened_at)).days
        handlers = people(Role.SUPERVISOR, holder_id=complaint.holder_id) | people(Role.COMPLIANCE)
        return Notice(
            kind=k.COMPLAINT,
            key=key,
            recipients=handlers - {complaint.player_id},
            subject=f"Complaint {complaint.number} has waited {_days(waited)}",
            body=(
                f"Complaint {complaint.number} to {complaint.holder.name} "
                f"({complaint.subject}) was made {_days(waited)} ago and is not answered yet."
            ),
            link=reverse("game:complaint", args=[complaint.pk]),
        )

    return build


# An approval whose expiry will close tables: an approved version, or a superseded one still
# in play, listed by the approved rules submission an active table runs on (reading:supersede).
IN_FORCE = Q(status=RecordStatus.APPROVED) | Q(
    status=RecordStatus.SUPERSEDED,
    offerings__status=OfferingStatus.ACTIVE,
    offerings__rules_submission__status=RecordStatus.APPROVED,
)
# A record no table runs on (a holder's terms and conditions) is in force while approved.
APPROVED = Q(status=RecordStatus.APPROVED)


def _in_force(model) -> Q:
    return IN_FORCE if model in TABLE_PARTS else APPROVED


def _expiring(today: datetime.date) -> Iterator[list[Step]]:
    horizon = today + datetime.timedelta(days=max(EXPIRY_DAYS))
    for kind, model in RECORDS.items():
        found = (
            model.objects.filter(_in_force(model), expiry_date__gt=today, expiry_date__lte=horizon)
            .distinct()
            .select_related("holder")
        )
        for record in found:
            base = f"reminder:approval-expiry:{kind}:{record.pk}:{record.expiry_date}"
            yield [
                Step(
                    f"{base}:{days}",
                    record.expiry_date - datetime.timedelta(days=days),
                    _expiry_notice(record, today, f"{base}:{days}"),
                )
                for days in sorted(EXPIRY_DAYS, reverse=True)
            ]


def _expiry_notice(record, today: datetime.date, key: str) -> Callable[[], Notice]:
    def build() -> Notice:
        left = (record.expiry_date - today).days
        name = record_name(record)
        still_in_play = ""
        if record.status == RecordStatus.SUPERSEDED:
            still_in_play = (
                " It is superseded, yet tables still play under it until the rules "
                "submission that lists it is amended to use the newer version and approved."
            )
        return Notice(
            kind=k.APPROVAL_EXPIRING,
            key=key,
            recipients=record_concerned(record),
            subject=f"The approval of the {name} expires in {_days(left)}",
            body=(
                f"The approval of the {name} of {record.holder.name} no longer holds from "
                f"{record.expiry_date:%Y-%m-%d}, in {_days(left)}. Tables that rely on it "
                f"close then, unless a new version is approved before.{still_in_play}"
            ),
            link=record.get_absolute_url(),
        )

    return build


def _reviews(today: datetime.date) -> Iterator[list[Step]]:
    soon = today + datetime.timedelta(days=REVIEW_SOON_DAYS)
    waiting = Layout.objects.filter(
        status=RecordStatus.SUBMITTED, review_due__isnull=False, review_due__lte=soon
    ).select_related("holder")
    for layout in waiting:
        base = f"reminder:review:{layout.pk}:{layout.review_due}"
        yield [
            Step(
                f"{base}:soon",
                layout.review_due - datetime.timedelta(days=REVIEW_SOON_DAYS),
                _review_notice(layout, today, f"{base}:soon", overdue=False),
            ),
            Step(
                f"{base}:overdue",
                layout.review_due + datetime.timedelta(days=1),
                _review_notice(layout, today, f"{base}:overdue", overdue=True),
            ),
        ]


def _review_notice(layout, today, key: str, *, overdue: bool) -> Callable[[], Notice]:
    def build() -> Notice:
        name = record_name(layout)
        due = f"{layout.review_due:%Y-%m-%d}"
        if overdue:
            subject = f"The review of the {name} is overdue"
            when = f"was due on {due}"
        else:
            left = (layout.review_due - today).days
            subject = f"The review of the {name} is due in {_days(left)}"
            when = f"is due on {due}"
            if left <= 0:
                subject = f"The review of the {name} is due today"
        return Notice(
            kind=k.REVIEW_DUE,
            key=key,
            recipients=people(Role.COMPLIANCE),
            subject=subject,
            body=(
                f"The {name} of {layout.holder.name} waits for a decision. Its review "
                f"{when}: 15 calendar days from its submission (§ 601a.10(a))."
            ),
            link=layout.get_absolute_url(),
        )

    return build


def _sunset(today: datetime.date) -> Iterator[list[Step]]:
    if not SUNSET - datetime.timedelta(days=max(SUNSET_DAYS)) <= today < SUNSET:
        return
    yield [
        Step(
            f"reminder:sunset:{SUNSET}:{days}",
            SUNSET - datetime.timedelta(days=days),
            _sunset_notice(today, f"reminder:sunset:{SUNSET}:{days}"),
        )
        for days in sorted(SUNSET_DAYS, reverse=True)
    ]


def _sunset_notice(today: datetime.date, key: str) -> Callable[[], Notice]:
    def build() -> Notice:
        left = (SUNSET - today).days
        return Notice(
            kind=k.SUNSET,
            key=key,
            recipients=people(Role.MANAGER),
            subject=f"§ 617b.8 expires in {_days(left)}, on {SUNSET:%Y-%m-%d}",
            body=(
                f"Jinzi Roulette's rule, § 617b.8, expires on {SUNSET:%Y-%m-%d} (its sunset), "
                f"in {_days(left)}. From that day no approval holds and every Jinzi Roulette "
                "table closes."
            ),
            link=reverse("compliance:offering-list"),
        )

    return build
