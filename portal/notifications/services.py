"""The writes of notifications: the dispatcher, the dated reminders, the daily digest, the
email sender, marking read, each person's choices, and a limit reached.

Nothing here runs in a request but marking read and choosing: the dispatcher, the
reminders, the digest and the sender are Celery's (``tasks.py``), every minute and every
morning.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.audit.services import audit_record
from portal.core.errors import NotFound, NotPermitted, ValidationFailed
from portal.core.padates import pa_stamp, pa_time, pa_today
from portal.game.models import GamingAccount
from portal.game.money.limits import DEPOSIT_KINDS, LimitKind
from portal.notifications import kinds as k
from portal.notifications import mail
from portal.notifications.audiences import active, people
from portal.notifications.kinds import KINDS, Notice, kinds_for
from portal.notifications.models import (
    Channel,
    Cursor,
    Delivery,
    Notification,
    Outbox,
    OutboxStatus,
    Preference,
    Reminder,
    ReminderStatus,
)
from portal.notifications.reminders import series
from portal.notifications.sources.actions import notices_for
from portal.notifications.sources.runs import run_finished, run_key
from portal.reports.models import ReportRun, RunStatus

log = logging.getLogger(__name__)

DISPATCH_BATCH = 500
# Report runs are looked at again for this long after the newest one seen: a run whose
# finish was committed after a later one's is still found (its notices are made once).
RUNS_LOOK_BACK = datetime.timedelta(hours=1)
MAX_ATTEMPTS = 6
# A row claimed by a sender that died is sent again after this long.
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)
PREFERENCES_ACTION = "notification_preferences.update"


# Making notifications --------------------------------------------------------------------


def notices_deliver(notices: Iterable[Notice]) -> int:
    """Put each notice in its recipients' inboxes and, as each chose, in the email outbox
    or their next digest. Called inside the caller's transaction; a notice already
    delivered to someone (same key) is not delivered again. Returns the inbox rows made."""
    notices = [notice for notice in notices if notice.recipients]
    if not notices:
        return 0
    now = timezone.now()
    everyone = set().union(*(notice.recipients for notice in notices))
    chosen = {
        (user, kind): delivery
        for user, kind, delivery in Preference.objects.filter(user_id__in=everyone).values_list(
            "user_id", "kind", "delivery"
        )
    }
    emails = dict(get_user_model().objects.filter(pk__in=everyone).values_list("pk", "email"))
    keys = {notice.key for notice in notices}
    already = set(
        Notification.objects.filter(key__in=keys, recipient_id__in=everyone).values_list(
            "key", "recipient_id"
        )
    )
    rows, by_email = [], set()
    for notice in notices:
        for user_id in sorted(notice.recipients):
            if (notice.key, user_id) in already:
                continue
            already.add((notice.key, user_id))
            delivery = chosen.get((user_id, notice.kind.name), notice.kind.default)
            has_email = bool(emails.get(user_id))
            rows.append(
                Notification(
                    recipient_id=user_id,
                    kind=notice.kind.name,
                    key=notice.key,
                    subject=notice.subject[:300],
                    body=notice.body,
                    link=notice.link,
                    created_at=now,
                    digest_pending=delivery == Delivery.DIGEST and has_email,
                )
            )
            if delivery == Delivery.EMAIL and has_email:
                by_email.add((notice.key, user_id))
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    if by_email:
        made = Notification.objects.filter(
            key__in={key for key, _ in by_email}, recipient_id__in={u for _, u in by_email}
        )
        Outbox.objects.bulk_create(
            [
                Outbox(
                    key=row.key,
                    recipient_id=row.recipient_id,
                    channel=Channel.EMAIL,
                    notification=row,
                    subject=row.subject,
                    body=row.body,
                    link=row.link,
                    created_at=now,
                    next_attempt_at=now,
                )
                for row in made
                if (row.key, row.recipient_id) in by_email
            ],
            ignore_conflicts=True,
        )
    return len(rows)


def _cursor() -> Cursor:
    cursor = Cursor.objects.select_for_update().filter(pk=1).first()
    if cursor is None:  # the migration makes it; an emptied database starts from the start
        cursor = Cursor.objects.create(pk=1)
    return cursor


@transaction.atomic
def notifications_dispatch(*, batch: int = DISPATCH_BATCH) -> int:
    """Read the audit trail after the cursor and the report runs finished since the last
    look, make their notices, deliver them and move the cursor, all in one transaction
    under the cursor's lock: two dispatchers never read the same events, and a failure
    leaves the cursor where it was (the next run reads them again). Returns the inbox
    rows made."""
    cursor = _cursor()
    events = list(
        AuditEvent.objects.filter(sequence__gt=cursor.audit_sequence).order_by("sequence")[:batch]
    )
    notices = [notice for event in events for notice in notices_for(event)]
    runs = ReportRun.objects.filter(
        status__in=(RunStatus.SUCCEEDED, RunStatus.FAILED), finished_at__isnull=False
    ).order_by("finished_at", "pk")
    if cursor.runs_finished_after is not None:
        runs = runs.filter(finished_at__gte=cursor.runs_finished_after - RUNS_LOOK_BACK)
    runs = list(runs)
    told = set(
        Notification.objects.filter(key__in=[run_key(run) for run in runs]).values_list(
            "key", flat=True
        )
    )
    newest = cursor.runs_finished_after
    for run in runs:
        if run_key(run) not in told:  # looked at again: its file is not read again
            notices.extend(run_finished(run))
        newest = run.finished_at if newest is None else max(newest, run.finished_at)
    made = notices_deliver(notices)
    if events:
        cursor.audit_sequence = events[-1].sequence
    cursor.runs_finished_after = newest
    cursor.save(update_fields=["audit_sequence", "runs_finished_after"])
    return made


def reminders_send(*, today: datetime.date | None = None) -> int:
    """Send the dated reminders due by ``today`` (a Pennsylvania date): of each series, the
    most urgent step due and not yet sent; the steps it overtook are marked so they never
    fire. Each series in its own transaction. Returns the reminders sent."""
    today = today or pa_today()
    sent = 0
    for steps in series(today):
        due = [step for step in steps if step.due <= today]
        if not due:
            continue
        with transaction.atomic():
            done = set(
                Reminder.objects.select_for_update()
                .filter(key__in=[step.key for step in due])
                .values_list("key", flat=True)
            )
            urgent = due[-1]
            if urgent.key not in done:
                Reminder.objects.create(key=urgent.key, status=ReminderStatus.SENT)
                notices_deliver([urgent.notice()])
                sent += 1
            Reminder.objects.bulk_create(
                [
                    Reminder(key=step.key, status=ReminderStatus.SKIPPED)
                    for step in due[:-1]
                    if step.key not in done
                ],
                ignore_conflicts=True,
            )
    return sent


@transaction.atomic
def digests_prepare(*, today: datetime.date | None = None) -> int:
    """Gather each person's notifications waiting for the digest into one email, keyed by
    the day (a rerun that day makes none again). Returns the digests made."""
    today = today or pa_today()
    waiting = list(
        Notification.objects.select_for_update()
        .filter(digest_pending=True)
        .order_by("recipient_id", "created_at", "pk")
    )
    by_person: dict[int, list[Notification]] = {}
    for row in waiting:
        by_person.setdefault(row.recipient_id, []).append(row)
    made, gathered = 0, []
    for user_id, rows in by_person.items():
        items = [{"subject": r.subject, "body": r.body, "link": r.link} for r in rows]
        count = "1 notification" if len(rows) == 1 else f"{len(rows)} notifications"
        _, created = Outbox.objects.get_or_create(
            key=f"digest:{today}",
            recipient_id=user_id,
            channel=Channel.DIGEST,
            defaults={
                "subject": f"Your daily digest for {today:%Y-%m-%d}: {count}",
                "body": "\n\n".join(f"{r.subject}\n{r.body}" for r in rows),
                "items": items,
                "link": reverse("notifications:inbox"),
            },
        )
        if created:  # else today's is made already: these wait for tomorrow's
            made += 1
            gathered.extend(r.pk for r in rows)
    Notification.objects.filter(pk__in=gathered).update(digest_pending=False)
    return made


# Sending ---------------------------------------------------------------------------------


def _backoff(attempts: int) -> datetime.timedelta:
    """1, 2, 4, 8… minutes after each failed attempt, at most an hour."""
    return datetime.timedelta(minutes=min(2 ** max(attempts - 1, 0), 60))


def outbox_send(*, outbox_id: int) -> bool:
    """Claim one pending row (a conditional update, so of two senders one wins), send it,
    and record how it went: sent; or the error, tried again later with a growing wait, and
    given up after ``MAX_ATTEMPTS``. Not one transaction: the claim is committed before
    the mail server is spoken to. Returns whether it was sent."""
    now = timezone.now()
    claimed = Outbox.objects.filter(
        pk=outbox_id, status=OutboxStatus.PENDING, next_attempt_at__lte=now
    ).update(status=OutboxStatus.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    if not claimed:
        return False
    row = Outbox.objects.select_related("recipient").get(pk=outbox_id)
    try:
        mail.message_for(row).send(fail_silently=False)
    except Exception as error:  # any backend's error: recorded on the row, tried again
        # No address to send to: trying again would not help.
        gave_up = row.attempts >= MAX_ATTEMPTS or isinstance(error, mail.NoAddress)
        Outbox.objects.filter(pk=row.pk).update(
            status=OutboxStatus.FAILED if gave_up else OutboxStatus.PENDING,
            last_error=f"{type(error).__name__}: {error}"[:2000],
            next_attempt_at=now + _backoff(row.attempts),
        )
        log.warning("notification email %s failed (attempt %s): %s", row.pk, row.attempts, error)
        return False
    Outbox.objects.filter(pk=row.pk).update(
        status=OutboxStatus.SENT, sent_at=timezone.now(), last_error=""
    )
    return True


def outbox_send_due(*, limit: int = 200) -> int:
    """Send the rows whose time has come, oldest first; rows a dead sender claimed long
    ago go back to the queue first. Returns how many were sent."""
    now = timezone.now()
    Outbox.objects.filter(status=OutboxStatus.SENDING, claimed_at__lt=now - CLAIM_TIMEOUT).update(
        status=OutboxStatus.PENDING
    )
    due = list(
        Outbox.objects.filter(status=OutboxStatus.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(outbox_send(outbox_id=pk) for pk in due)


# A person's own ----------------------------------------------------------------------------


def _signed_in(actor) -> None:
    if actor is None or not actor.is_authenticated or not actor.is_active:
        raise NotPermitted("sign in first")


def notification_mark_read(*, actor, notification_id: int) -> Notification:
    """Mark one of ``actor``'s own notifications read (another's is not found)."""
    _signed_in(actor)
    found = Notification.objects.filter(pk=notification_id, recipient=actor).first()
    if found is None:
        raise NotFound("no such notification")
    if found.read_at is None:
        found.read_at = timezone.now()
        Notification.objects.filter(pk=found.pk, read_at__isnull=True).update(read_at=found.read_at)
    return found


def notifications_mark_all_read(*, actor) -> int:
    """Mark every unread notification of ``actor`` read; returns how many."""
    _signed_in(actor)
    return Notification.objects.filter(recipient=actor, read_at__isnull=True).update(
        read_at=timezone.now()
    )


UNKNOWN_DELIVERY = "choose one of: {choices}"


@transaction.atomic
def preferences_set(*, actor, choices: dict[str, str]) -> dict[str, str]:
    """Set how ``actor`` gets each kind they may be told of; a kind left out keeps its
    choice. Recorded in the audit trail. Returns every choice now in force."""
    _signed_in(actor)
    allowed = {kind.name: kind for kind in kinds_for(actor)}
    if not isinstance(choices, dict):
        raise ValidationFailed("say how you want each kind of notification")
    for name, delivery in choices.items():
        if name not in allowed:
            raise ValidationFailed.on(name, "you are not told of this kind of notification")
        if delivery not in Delivery.values:
            labels = ", ".join(str(label) for label in Delivery.labels)
            raise ValidationFailed.on(name, UNKNOWN_DELIVERY.format(choices=labels))
    before = preferences_of(actor)
    for name, delivery in choices.items():
        Preference.objects.update_or_create(user=actor, kind=name, defaults={"delivery": delivery})
    after = preferences_of(actor)
    if after != before:
        audit_record(
            actor=actor,
            action=PREFERENCES_ACTION,
            object_type="notification_preferences",
            object_id=actor.pk,
            before=before,
            after=after,
        )
    return after


def preferences_of(user) -> dict[str, str]:
    """How ``user`` gets each kind they may be told of (their choice, or its default)."""
    chosen = dict(Preference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind.name: chosen.get(kind.name, str(kind.default)) for kind in kinds_for(user)}


# A limit reached ---------------------------------------------------------------------------


@transaction.atomic
def limit_reached_record(*, account_id: int, kind: str, period_start: str) -> int:
    """Tell the player and their holder's payments staff that a responsible-gaming limit
    refused a deposit or a round. In its own transaction, after the refused one rolled
    back; at most once per account, limit and period (the key names them)."""
    account = (
        GamingAccount.objects.with_limits(waiting=False)
        .filter(pk=account_id)
        .select_related("holder")
        .first()
    )
    if account is None or kind not in {limit.value for limit in LimitKind}:
        return 0
    limit = LimitKind(kind)
    try:
        start = datetime.datetime.fromisoformat(period_start)
    except (TypeError, ValueError):
        return 0
    key = f"limit-reached:{account.pk}:{limit.value}:{pa_time(start):%Y-%m-%d}"
    value = account.limits.get(limit.value)
    holder = account.holder.name
    shown = limit.shown(value) if value is not None else "your limit"
    player = account.player
    refused = "deposit" if limit in DEPOSIT_KINDS else "round"
    return notices_deliver(
        [
            Notice(
                kind=k.LIMIT_REACHED,
                key=key,
                recipients=active([account.player_id]),
                subject=f"You reached your {limit.label} with {holder}",
                body=(
                    f"Your {limit.label} of {shown} with {holder} refused a {refused} on "
                    f"{pa_stamp(timezone.now())}. You will not be told again before it resets."
                ),
                link=reverse("game:account"),
            ),
            Notice(
                kind=k.LIMIT_REACHED,
                key=key,
                recipients=people(Role.PAYMENTS, holder_id=account.holder_id),
                subject=f"{player.get_username()} reached their {limit.label}",
                body=(
                    f"The {limit.label} ({shown}) that {player.get_username()} set on their "
                    f"account with {holder} refused a {refused} on "
                    f"{pa_stamp(timezone.now())} (§ 814a.2)."
                ),
                link=reverse("game:player-account", args=[account.pk]),
            ),
        ]
    )


__all__ = [
    "KINDS",
    "digests_prepare",
    "limit_reached_record",
    "notices_deliver",
    "notification_mark_read",
    "notifications_dispatch",
    "notifications_mark_all_read",
    "outbox_send",
    "outbox_send_due",
    "preferences_of",
    "preferences_set",
    "reminders_send",
]
