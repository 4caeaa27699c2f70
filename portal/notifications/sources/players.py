"""Notices about players: the Board's self-exclusion list (§ 815a.4), access to an account
(§ 812a.3(a)(5)) and complaints (reading:complaint-number)."""

from __future__ import annotations

from django.urls import reverse

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.game.complaints.messages import BOARD as COMPLAINT_BOARD
from portal.game.models import Complaint, Wallet
from portal.notifications import kinds as k
from portal.notifications.audiences import active, people
from portal.notifications.kinds import Notice
from portal.notifications.sources.said import actor_said, except_actor, holder_name, when

# The Board's self-exclusion list (§ 815a.4) ------------------------------------------------


def player_listed(event: AuditEvent) -> list[Notice]:
    """Each holder's payments staff are told that a player of theirs is now excluded; the
    player is named by their internal id only."""
    after = event.after or {}
    notices = []
    for holder_id in after.get("holder_ids") or []:
        holder = holder_name(holder_id)
        notices.append(
            Notice(
                kind=k.PLAYER_EXCLUDED,
                key=f"audit:{event.sequence}:{holder_id}",
                recipients=except_actor(people(Role.PAYMENTS, holder_id=holder_id), event),
                subject=f"Player #{event.object_id} is excluded at {holder}",
                body=(
                    f"The Board's self-exclusion list names player #{event.object_id}, who "
                    f"holds an account with {holder}. Since {when(event)} they can neither "
                    "deposit nor play; their sessions were ended. A withdrawal of what they "
                    "hold stays possible."
                ),
                link=reverse("game:player-accounts") + f"?q={event.object_id}",
            )
        )
    return notices


def list_attention(event: AuditEvent) -> list[Notice]:
    """Compliance officers are told of a listed person's refused registration, and of the
    possible matches an import leaves for them to review."""
    after = event.after or {}
    if event.action == "player.registration_refused":
        subject = "A registration was refused: the Board's list names the person"
        body = (
            f"On {when(event)} a registration was refused because the holders' copy of the "
            "Board's self-exclusion list names the person. They were told nothing of the list."
        )
    elif after.get("reviews_opened"):
        count = after["reviews_opened"]
        matches = "possible match" if count == 1 else "possible matches"
        subject = f"{count} {matches} on the Board's list to review"
        body = (
            f"The import of the Board's list on {when(event)} by {actor_said(event)} left {count} "
            f"{matches} for an officer to decide."
        )
    else:
        return []
    return [
        Notice(
            kind=k.REGISTRATION_REFUSED,
            key=f"audit:{event.sequence}",
            recipients=except_actor(people(Role.COMPLIANCE), event),
            subject=subject,
            body=body,
            link=reverse("players:reviews")
            if event.action == "exclusion_list.import"
            else reverse("players:list"),
        )
    ]


# Access to a player's account (§ 812a.3(a)(5)) ---------------------------------------------


def account_accessed(event: AuditEvent) -> list[Notice]:
    """A player who chose it is told of each sign-in to their account, pages and API alike."""
    if not str(event.object_id).isdigit():
        return []
    player_id = int(event.object_id)
    if not Wallet.objects.filter(player_id=player_id, tell_every_access=True).exists():
        return []
    how = "through the API" if event.action == "session.api_start" else "on the portal"
    address = (event.after or {}).get("ip") or ""
    where = f" from the address {address}" if address else ""
    return [
        Notice(
            kind=k.ACCOUNT_ACCESSED,
            key=f"audit:{event.sequence}",
            recipients=active([player_id]),
            subject="Someone signed in to your account",
            body=(
                f"Your account was signed in to {how} on {when(event)}{where}. If it was "
                "not you, change your password at once and tell the casino."
            ),
            link=reverse("game:account"),
        )
    ]


# Complaints (reading:complaint-number) ------------------------------------------------------


def complaint_changed(event: AuditEvent) -> list[Notice]:
    """Filed or reopened: everyone who handles it is told; answered: the player, with the
    answer and how to take it to the Board."""
    complaint = Complaint.objects.filter(pk=event.object_id).select_related("holder").first()
    if complaint is None:
        return []
    key = f"audit:{event.sequence}"
    link = reverse("game:complaint", args=[complaint.pk])
    if event.action == "complaint.close":
        return [
            Notice(
                kind=k.COMPLAINT_ANSWERED,
                key=key,
                recipients=active([complaint.player_id]),
                subject=f"{complaint.holder.name} answered your complaint {complaint.number}",
                body=(
                    f"{complaint.holder.name} answered your complaint {complaint.number} "
                    f"({complaint.subject}) on {when(event)}: it is "
                    f"{complaint.get_status_display().lower()}.\n\n{complaint.answer}\n\n"
                    + COMPLAINT_BOARD.format(number=complaint.number)
                ),
                link=link,
            )
        ]
    if event.action not in ("complaint.file", "complaint.reopen"):
        return []
    handlers = people(Role.SUPERVISOR, holder_id=complaint.holder_id) | people(Role.COMPLIANCE)
    done = (
        "was made" if event.action == "complaint.file" else "reopened: its adjustment was rejected"
    )
    return [
        Notice(
            kind=k.COMPLAINT,
            key=key,
            recipients=except_actor(handlers, event) - {complaint.player_id},
            subject=f"Complaint {complaint.number} {done.split(':')[0]}",
            body=(
                f"Complaint {complaint.number} to {complaint.holder.name} ({complaint.subject}) "
                f"{done} on {when(event)}. It waits for an answer."
            ),
            link=link,
        )
    ]
