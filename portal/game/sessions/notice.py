"""The notice of time and money since sign-in (§ 814a.1, reading:play-notice), and the
player's choices about their sessions.

Every 60 minutes of a session (or 15 or 30, as the player chooses), the next round waits on
a notice of the time elapsed since sign-in and the money wagered, won and lost since then,
until the player acknowledges it. Notices are numbered within their session; the one
pending is the next number, due its interval after the session began or after the last
one was acknowledged. Acknowledging any other number changes nothing.
"""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass

from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone

from portal.audit.services import audit_record
from portal.core.errors import Conflict, ValidationFailed
from portal.core.money import dollars
from portal.core.padates import pa_time
from portal.game.models import NOTICE_MINUTES, PlaySession, Round, Wallet
from portal.game.sessions.lifecycle import refuse_unless_open

CLAUSE = "§ 814a.1"
PENDING = (
    f"{CLAUSE}: before your next round, read the notice of your time and money since you "
    "signed in, and acknowledge it"
)
NOT_PENDING = f"{CLAUSE}: no notice is waiting for you to acknowledge"
WRONG_NUMBER = f"{CLAUSE}: the notice waiting is number {{pending}}, not {{given}}"
NUMBER_INVALID = "give the notice's number, a whole number from 1"
MINUTES_INVALID = f"{CLAUSE}: the notice comes every 15, 30 or 60 minutes; choose one of them"
CHOICE_INVALID = "say yes or no"


@dataclass(frozen=True)
class Notice:
    """What the player is shown: the figures of their session so far."""

    session: str  # the session's public id
    number: int
    signed_in_at: datetime.datetime
    elapsed_seconds: int
    rounds: int
    wagered: int
    won: int  # what the rounds paid back
    net: int  # won less wagered: negative is money lost

    @property
    def words(self) -> str:
        minutes = self.elapsed_seconds // 60
        hours, minutes = divmod(minutes, 60)
        played = f"{hours} hour{'s' if hours != 1 else ''} " if hours else ""
        played += f"{minutes} minute{'s' if minutes != 1 else ''}"
        signed_in = pa_time(self.signed_in_at).strftime("%H:%M %Z")
        result = (
            f"{dollars(-self.net)} lost overall"
            if self.net < 0
            else f"{dollars(self.net)} won overall"
            if self.net > 0
            else "nothing won or lost overall"
        )
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        return (
            f"You signed in at {signed_in}: {played} ago. Since then you played {rounds}, "
            f"wagered {dollars(self.wagered)} and were paid {dollars(self.won)}: {result}."
        )

    def as_data(self) -> dict:
        data = asdict(self)
        data["signed_in_at"] = self.signed_in_at.astimezone(datetime.UTC).isoformat()
        data["words"] = self.words
        return data


class NoticePending(Conflict):
    """A round refused until the pending notice is acknowledged: 409 with the notice."""

    def __init__(self, notice: Notice) -> None:
        super().__init__(PENDING)
        self.notice = notice
        self.body = {"notice": notice.as_data()}


def due_at(session: PlaySession, minutes: int) -> datetime.datetime:
    """When the session's next notice is due."""
    return (session.noticed_at or session.started_at) + datetime.timedelta(minutes=minutes)


def is_due(session: PlaySession, minutes: int, at: datetime.datetime) -> bool:
    return at >= due_at(session, minutes)


def notice_of(session: PlaySession, *, at: datetime.datetime) -> Notice:
    """The notice of ``session`` as of ``at``: the player's rounds since it began."""
    figures = Round.objects.filter(
        player_id=session.user_id, started_at__gte=session.started_at, started_at__lte=at
    ).aggregate(rounds=Count("id"), wagered=Sum("total_staked"), won=Sum("total_returned"))
    wagered, won = figures["wagered"] or 0, figures["won"] or 0
    return Notice(
        session=str(session.public_id or ""),
        number=session.notices_acknowledged + 1,
        signed_in_at=session.started_at,
        elapsed_seconds=int((at - session.started_at).total_seconds()),
        rounds=figures["rounds"],
        wagered=wagered,
        won=won,
        net=won - wagered,
    )


def refuse_if_due(session: PlaySession, minutes: int, *, at: datetime.datetime) -> None:
    """Refuse a round while a notice waits (§ 814a.1, reading:play-notice)."""
    if is_due(session, minutes, at):
        raise NoticePending(notice_of(session, at=at))


def pending_notice(session: PlaySession | None, *, at: datetime.datetime) -> Notice | None:
    """The notice waiting in ``session`` now, or None (a page shows it before a bet)."""
    if session is None or session.ended_at is not None:
        return None
    minutes = Wallet.objects.filter(player_id=session.user_id).values_list(
        "notice_minutes", flat=True
    ).first() or max(NOTICE_MINUTES)
    return notice_of(session, at=at) if is_due(session, minutes, at) else None


@transaction.atomic
def notice_acknowledge(*, player, session: PlaySession, number, api: bool = False) -> Notice:
    """The player acknowledges the notice waiting in their ``session``; the next one is
    due an interval from now. Only the pending number is accepted."""
    if type(number) is not int or number < 1:
        raise ValidationFailed.on("number", NUMBER_INVALID)
    now = timezone.now()
    # The wallet's lock orders this with the player's rounds, which read the same fields.
    wallet = Wallet.objects.select_for_update().filter(player=player).first()
    minutes = wallet.notice_minutes if wallet is not None else max(NOTICE_MINUTES)
    locked = PlaySession.objects.select_for_update().get(pk=session.pk, user=player)
    refuse_unless_open(locked, at=now, api=api)
    if not is_due(locked, minutes, now):
        raise Conflict(NOT_PENDING)
    pending = locked.notices_acknowledged + 1
    if number != pending:
        raise Conflict(WRONG_NUMBER.format(pending=pending, given=number))
    notice = notice_of(locked, at=now)
    PlaySession.objects.filter(pk=locked.pk).update(
        notices_acknowledged=pending, noticed_at=now, last_activity_at=now
    )
    audit_record(
        actor=player,
        action="session.notice_acknowledged",
        object_type="user",
        object_id=player.pk,
        after={
            "session": str(locked.public_id),
            "number": pending,
            "elapsed_seconds": notice.elapsed_seconds,
            "wagered": notice.wagered,
            "won": notice.won,
        },
    )
    return notice


@transaction.atomic
def session_choices_set(*, player, notice_minutes, tell_every_access) -> Wallet:
    """The player's choices about their sessions: how often the notice comes (15, 30 or 60
    minutes, § 814a.1) and whether each access to their account is told to them
    (§ 812a.3(a)(5))."""
    if type(notice_minutes) is not int or notice_minutes not in NOTICE_MINUTES:
        raise ValidationFailed.on("notice_minutes", MINUTES_INVALID)
    if type(tell_every_access) is not bool:
        raise ValidationFailed.on("tell_every_access", CHOICE_INVALID)
    wallet, _ = Wallet.objects.select_for_update().get_or_create(player=player)
    before = {
        "notice_minutes": wallet.notice_minutes,
        "tell_every_access": wallet.tell_every_access,
    }
    after = {"notice_minutes": notice_minutes, "tell_every_access": tell_every_access}
    if before == after:
        return wallet
    Wallet.objects.filter(pk=wallet.pk).update(**after)
    wallet.notice_minutes, wallet.tell_every_access = notice_minutes, tell_every_access
    audit_record(
        actor=player,
        action="session.choices",
        object_type="user",
        object_id=player.pk,
        before=before,
        after=after,
    )
    return wallet
