"""Notices of a player's money: deposits, withdrawals, limits, and the voids and adjustments
of their rounds (§ 617a.6, § 812a.7(a)(9))."""

from __future__ import annotations

import datetime

from django.urls import reverse

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.core.money import dollars
from portal.core.padates import pa_stamp
from portal.game.models import (
    CorrectionKind,
    CorrectionStatus,
    Deposit,
    DepositMethod,
    GamingAccount,
    RoundCorrection,
    Withdrawal,
)
from portal.game.money.limits import LimitKind
from portal.notifications import kinds as k
from portal.notifications.audiences import active, people
from portal.notifications.kinds import Notice
from portal.notifications.sources.said import actor_said, except_actor, reason_said, when

CORRECTION_VERBS = {"propose": "proposed", "approve": "approved and applied", "reject": "rejected"}


# Money -----------------------------------------------------------------------------------


def _account(object_id) -> GamingAccount | None:
    return GamingAccount.objects.filter(pk=object_id).select_related("holder").first()


def deposit_made(event: AuditEvent) -> list[Notice]:
    after = event.after or {}
    deposit = (
        Deposit.objects.filter(pk=after.get("deposit")).select_related("account__holder").first()
    )
    if deposit is None:
        return []
    account = deposit.account
    method = DepositMethod(deposit.method).label.lower()
    return [
        Notice(
            kind=k.MONEY,
            key=f"audit:{event.sequence}",
            recipients=active([account.player_id]),
            subject=f"Deposit of {dollars(deposit.amount)} received by {account.holder.name}",
            body=(
                f"A deposit of {dollars(deposit.amount)} ({method}) was credited to your "
                f"account with {account.holder.name} on {when(event)}. Your balance after "
                f"it was {dollars(after.get('balance_after'))}."
            ),
            link=reverse("game:account"),
        )
    ]


def withdrawal_changed(event: AuditEvent) -> list[Notice]:
    withdrawal = (
        Withdrawal.objects.filter(pk=event.object_id).select_related("account__holder").first()
    )
    if withdrawal is None:
        return []
    account = withdrawal.account
    holder = account.holder.name
    amount = dollars(withdrawal.amount)
    verb = event.action.split(".", 1)[1]
    key = f"audit:{event.sequence}"
    if verb in ("request", "cancel"):
        asked = "asked for" if verb == "request" else "cancelled"
        return [
            Notice(
                kind=k.MONEY,
                key=key,
                recipients=except_actor(people(Role.PAYMENTS, holder_id=account.holder_id), event),
                subject=f"A withdrawal of {amount} was {asked} at {holder}",
                body=(
                    f"{event.actor_username} {asked} a withdrawal of {amount} from their "
                    f"account with {holder} on {when(event)}."
                    + (" It waits for payments staff." if verb == "request" else "")
                ),
                link=reverse("game:withdrawal", args=[withdrawal.pk]),
            )
        ]
    if verb in ("pay", "refuse"):
        done = "paid" if verb == "pay" else "refused"
        return [
            Notice(
                kind=k.MONEY,
                key=key,
                recipients=active([account.player_id]),
                subject=f"Your withdrawal of {amount} from {holder} was {done}",
                body=(
                    f"Your withdrawal of {amount} from your account with {holder} was {done} "
                    f"on {when(event)}."
                    + (
                        f" Payout reference: {withdrawal.payout_reference}."
                        if verb == "pay"
                        else " The money is available in your account again."
                    )
                    + reason_said(event.reason)
                ),
                link=reverse("game:account"),
            )
        ]
    return []


def limits_changed(event: AuditEvent) -> list[Notice]:
    account = _account(event.object_id)
    if account is None:
        return []
    holder = account.holder.name
    if event.action == "account.pause":
        until = _until((event.after or {}).get("paused_until", ""))
        subject = f"Your play with {holder} is suspended"
        body = f"At your request, your play and deposits with {holder} are suspended"
        body += f" until {until}." if until else "."
    else:
        subject = f"Your limits with {holder} changed"
        body = f"Your responsible-gaming limits with {holder} changed on {when(event)}:"
        body += _limit_lines(event)
    return [
        Notice(
            kind=k.LIMIT_CHANGED,
            key=f"audit:{event.sequence}",
            recipients=active([account.player_id]),
            subject=subject,
            body=body,
            link=reverse("game:account"),
        )
    ]


def _until(iso: str) -> str:
    try:
        return pa_stamp(datetime.datetime.fromisoformat(iso))
    except (TypeError, ValueError):
        return ""


def _limit_lines(event: AuditEvent) -> str:
    before = (event.before or {}).get("limits") or {}
    after = (event.after or {}).get("limits") or {}
    pending = (event.after or {}).get("pending_limits") or {}
    was_pending = (event.before or {}).get("pending_limits") or {}
    lines = []
    for kind in LimitKind:
        old, new = before.get(kind.value), after.get(kind.value)
        if old != new:
            lines.append(f"- {kind.label}: now {kind.shown(new)} (was {kind.shown(old)})")
        waiting = pending.get(kind.value)
        if waiting is not None and waiting != was_pending.get(kind.value):
            lines.append(
                f"- {kind.label}: {kind.shown(waiting.get('value'))} from "
                f"{_until(waiting.get('from', ''))}, once you confirm it then"
            )
    return "\n" + "\n".join(lines) if lines else " no limit is different."


# Voids and adjustments of rounds ---------------------------------------------------------


def _a(noun: str) -> str:
    """The article before ``noun``: "an adjustment", "a void"."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _player_said(correction: RoundCorrection, verb: str) -> str:
    """What the round's player reads of what the step did to their money: a proposal moves
    nothing yet; an approval what it moved; a rejection nothing (§ 812a.7(a)(9))."""
    void = correction.kind == CorrectionKind.VOID
    if verb == "propose":
        if void:
            would = "the round's stakes would be given back to you and its returns taken back"
        elif correction.amount > 0:
            would = f"{dollars(correction.amount)} would be credited to your account"
        else:
            would = f"{dollars(-correction.amount)} would be taken from your account"
        return f"If it is approved, {would}. Nothing changes until someone else decides it."
    if verb == "reject":
        return "Nothing changed: no money moved."
    moved = []
    if correction.credited:
        moved.append(f"{dollars(correction.credited)} was credited to your account")
    if correction.debited:
        moved.append(f"{dollars(correction.debited)} was taken from your account")
    if correction.uncollected:
        moved.append(f"{dollars(correction.uncollected)} could not be taken and is owed")
    return ("; ".join(moved) or "no money moved") + "."


def round_corrected(event: AuditEvent) -> list[Notice]:
    correction = (
        RoundCorrection.objects.filter(pk=event.object_id)
        .select_related("account__holder", "round")
        .first()
    )
    if correction is None:
        return []
    noun = CorrectionKind(correction.kind).label.lower()
    verb = event.action.split(".", 1)[1]
    done = CORRECTION_VERBS.get(verb, verb.replace("_", " "))
    holder = correction.account.holder
    key = f"audit:{event.sequence}"
    amount = dollars(abs(correction.amount))
    owed = "owed to the player" if correction.amount >= 0 else "owed by the player"
    what = _a(noun) if verb != "reject" else f"a proposed {noun}"
    player_body = (
        f"{what.capitalize()} of your round {correction.round_id} at {holder.name} was {done} "
        f"on {when(event)}. {_player_said(correction, verb)}"
    )
    if correction.notice and verb == "approve":  # the holder's own words, once it is so
        player_body += f"\n\n{correction.notice}"
    player_body += reason_said(event.reason)
    notices = [
        Notice(
            kind=k.ROUND_CORRECTION,
            key=key,
            recipients=active([correction.round.player_id]),
            subject=f"{what.capitalize()} of your round {correction.round_id} was {done}",
            body=player_body,
            link=reverse("game:round", args=[correction.round_id]),
        )
    ]
    if verb == "propose" and correction.status != CorrectionStatus.PROPOSED:
        # Decided before the notice was made: it no longer waits for anyone; the decision
        # tells the proposer and the player.
        return notices
    if verb == "propose":
        # Everyone who may decide it: the holder's other supervisors and the compliance
        # officers (the four-eyes guard keeps the proposer and the player out).
        staff = people(Role.SUPERVISOR, holder_id=holder.pk) | people(Role.COMPLIANCE)
        waits = " It waits for your decision."
    else:
        staff = active([correction.proposed_by_id])
        waits = ""
    notices.append(
        Notice(
            kind=k.ROUND_CORRECTION,
            key=key,
            recipients=except_actor(staff, event)
            - {correction.round.player_id, correction.proposed_by_id if waits else None},
            subject=f"{_a(noun).capitalize()} of round {correction.round_id} was {done}",
            body=(
                f"{_a(noun).capitalize()} of round {correction.round_id} at {holder.name} "
                f"({amount} {owed}) was {done} by {actor_said(event)} on {when(event)}."
                + waits
                + reason_said(event.reason)
            ),
            link=reverse("game:correction", args=[correction.pk]),
        )
    )
    return notices
