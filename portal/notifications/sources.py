"""What happened, turned into notices: the audit trail's events and the report runs.

Each function takes one event (or run) and returns the notices it makes, each for the
people concerned, in plain words, with the page it is about. An event no kind is about
makes none.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable

from django.urls import reverse

from portal.access.roles import Role
from portal.accounts.models import CertificateHolder
from portal.audit.models import AuditEvent
from portal.compliance.models import (
    Layout,
    Offering,
    Paytable,
    RecordStatus,
    RulesSubmission,
    TermsAndConditions,
)
from portal.core.money import dollars
from portal.core.padates import pa_stamp
from portal.game.complaints.messages import BOARD as COMPLAINT_BOARD
from portal.game.models import (
    Complaint,
    CorrectionKind,
    CorrectionStatus,
    Deposit,
    DepositMethod,
    GamingAccount,
    RoundCorrection,
    Wallet,
    Withdrawal,
)
from portal.game.money.limits import LimitKind
from portal.notifications import kinds as k
from portal.notifications.audiences import active, people
from portal.notifications.kinds import Notice
from portal.reports.models import ReportKind, ReportRun, RunStatus
from portal.reports.presenters import band_verdict
from portal.reports.services.files import reports_dir

RECORDS = {
    "layout": Layout,
    "paytable": Paytable,
    "rules_submission": RulesSubmission,
    "terms": TermsAndConditions,
}
NOUNS = {
    "layout": "layout",
    "paytable": "paytable",
    "rules_submission": "rules submission",
    "terms": "terms and conditions",
}
DECISIONS = {
    "approve": "approved",
    "reject": "rejected",
    "request_changes": "sent back for changes",
    "withdraw": "withdrawn",
    "expire": "expired",
}
OFFERING_VERBS = {
    "create": "set up",
    "update": "changed",
    "retire": "retired",
    "repoint": "moved to the newly approved rules submission",
    "repointed": "moved to the newly approved rules submission",
}
CORRECTION_VERBS = {"propose": "proposed", "approve": "approved and applied", "reject": "rejected"}


def _when(event: AuditEvent) -> str:
    return pa_stamp(event.occurred_at)


def _reason(text: str) -> str:
    return f"\n\nReason given: {text.strip()}" if text and text.strip() else ""


def _by(event: AuditEvent) -> str:
    return "the system" if event.actor_id is None else event.actor_username


def _holder_name(holder_id) -> str:
    return CertificateHolder.objects.filter(pk=holder_id).values_list("name", flat=True).first()


def _except_actor(ids, event: AuditEvent) -> frozenset[int]:
    return frozenset(ids) - {event.actor_id}


# Compliance records ----------------------------------------------------------------------


def _record(event: AuditEvent):
    kind = event.action.split(".", 1)[0]
    model = RECORDS.get(kind)
    if model is None:
        return None
    return model.objects.filter(pk=event.object_id).select_related("holder").first()


def record_name(record) -> str:
    return f"{NOUNS[record.kind]} '{record.title_for_display}' v{record.version}"


def record_submitted(event: AuditEvent) -> list[Notice]:
    record = _record(event)
    # Decided (or withdrawn) before the notice was made: it no longer waits, and saying so
    # would not be true; its decision tells those concerned (``record_decided``).
    if record is None or record.status != RecordStatus.SUBMITTED:
        return []
    name = record_name(record)
    return [
        Notice(
            kind=k.RECORD_SUBMITTED,
            key=f"audit:{event.sequence}",
            recipients=_except_actor(people(Role.COMPLIANCE), event),
            subject=f"{record.holder.name} submitted the {name} for review",
            body=(
                f"{_by(event)} submitted the {name} of {record.holder.name} for review on "
                f"{_when(event)}. It waits for a compliance officer's decision."
                + (
                    f" Its review is due by {record.review_due:%Y-%m-%d} (§ 601a.10(a))."
                    if getattr(record, "review_due", None)
                    else ""
                )
            ),
            link=record.get_absolute_url(),
        )
    ]


def record_concerned(record) -> frozenset[int]:
    """A record's authors and its holder's managers."""
    return active(record.author_ids or ()) | people(Role.MANAGER, holder_id=record.holder_id)


def record_decided(event: AuditEvent) -> list[Notice]:
    record = _record(event)
    if record is None:
        return []
    done = DECISIONS[event.action.split(".", 1)[1]]
    name = record_name(record)
    return [
        Notice(
            kind=k.RECORD_DECIDED,
            key=f"audit:{event.sequence}",
            recipients=_except_actor(record_concerned(record), event),
            subject=f"The {name} was {done}",
            body=(
                f"The {name} of {record.holder.name} was {done} by {_by(event)} on "
                f"{_when(event)}.{_reason(event.reason)}"
            ),
            link=record.get_absolute_url(),
        )
    ]


# Tables ----------------------------------------------------------------------------------


def table_changed(event: AuditEvent) -> list[Notice]:
    offering = Offering.objects.filter(pk=event.object_id).select_related("holder").first()
    if offering is None:
        return []
    verb = event.action.split(".", 1)[1]
    if verb == "opened":
        subject = f"Table '{offering.name}' is open to play"
        what = "opened to play"
    elif verb == "closed":
        subject = f"Table '{offering.name}' is closed"
        what = "closed: no one can play at it"
    else:
        what = OFFERING_VERBS.get(verb, verb.replace("_", " "))
        subject = f"Table '{offering.name}' was {what}"
    return [
        Notice(
            kind=k.TABLE_AVAILABILITY,
            key=f"audit:{event.sequence}",
            recipients=_except_actor(people(Role.MANAGER, holder_id=offering.holder_id), event),
            subject=subject,
            body=(
                f"The table '{offering.name}' of {offering.holder.name} {what} on "
                f"{_when(event)}.{_reason(event.reason)}"
            ),
            link=offering.get_absolute_url(),
        )
    ]


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
                f"account with {account.holder.name} on {_when(event)}. Your balance after "
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
                recipients=_except_actor(people(Role.PAYMENTS, holder_id=account.holder_id), event),
                subject=f"A withdrawal of {amount} was {asked} at {holder}",
                body=(
                    f"{event.actor_username} {asked} a withdrawal of {amount} from their "
                    f"account with {holder} on {_when(event)}."
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
                    f"on {_when(event)}."
                    + (
                        f" Payout reference: {withdrawal.payout_reference}."
                        if verb == "pay"
                        else " The money is available in your account again."
                    )
                    + _reason(event.reason)
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
        body = f"Your responsible-gaming limits with {holder} changed on {_when(event)}:"
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
        f"on {_when(event)}. {_player_said(correction, verb)}"
    )
    if correction.notice and verb == "approve":  # the holder's own words, once it is so
        player_body += f"\n\n{correction.notice}"
    player_body += _reason(event.reason)
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
            recipients=_except_actor(staff, event)
            - {correction.round.player_id, correction.proposed_by_id if waits else None},
            subject=f"{_a(noun).capitalize()} of round {correction.round_id} was {done}",
            body=(
                f"{_a(noun).capitalize()} of round {correction.round_id} at {holder.name} "
                f"({amount} {owed}) was {done} by {_by(event)} on {_when(event)}."
                + waits
                + _reason(event.reason)
            ),
            link=reverse("game:correction", args=[correction.pk]),
        )
    )
    return notices


# The Board's self-exclusion list (§ 815a.4) ------------------------------------------------


def player_listed(event: AuditEvent) -> list[Notice]:
    """Each holder's payments staff are told that a player of theirs is now excluded; the
    player is named by their internal id only."""
    after = event.after or {}
    notices = []
    for holder_id in after.get("holder_ids") or []:
        holder = _holder_name(holder_id)
        notices.append(
            Notice(
                kind=k.PLAYER_EXCLUDED,
                key=f"audit:{event.sequence}:{holder_id}",
                recipients=_except_actor(people(Role.PAYMENTS, holder_id=holder_id), event),
                subject=f"Player #{event.object_id} is excluded at {holder}",
                body=(
                    f"The Board's self-exclusion list names player #{event.object_id}, who "
                    f"holds an account with {holder}. Since {_when(event)} they can neither "
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
            f"On {_when(event)} a registration was refused because the holders' copy of the "
            "Board's self-exclusion list names the person. They were told nothing of the list."
        )
    elif after.get("reviews_opened"):
        count = after["reviews_opened"]
        matches = "possible match" if count == 1 else "possible matches"
        subject = f"{count} {matches} on the Board's list to review"
        body = (
            f"The import of the Board's list on {_when(event)} by {_by(event)} left {count} "
            f"{matches} for an officer to decide."
        )
    else:
        return []
    return [
        Notice(
            kind=k.REGISTRATION_REFUSED,
            key=f"audit:{event.sequence}",
            recipients=_except_actor(people(Role.COMPLIANCE), event),
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
                f"Your account was signed in to {how} on {_when(event)}{where}. If it was "
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
                    f"({complaint.subject}) on {_when(event)}: it is "
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
            recipients=_except_actor(handlers, event) - {complaint.player_id},
            subject=f"Complaint {complaint.number} {done.split(':')[0]}",
            body=(
                f"Complaint {complaint.number} to {complaint.holder.name} ({complaint.subject}) "
                f"{done} on {_when(event)}. It waits for an answer."
            ),
            link=link,
        )
    ]


# The table of audit actions -------------------------------------------------------------

Source = Callable[[AuditEvent], list[Notice]]


def source_for(action: str) -> Source | None:
    """Which function turns an event with ``action`` into notices (None: nobody is told)."""
    thing, _, verb = action.partition(".")
    if thing in RECORDS:
        if verb == "submit":
            return record_submitted
        if verb in DECISIONS:
            return record_decided
        return None
    if thing == "offering":
        return table_changed
    if action == "account.deposit":
        return deposit_made
    if thing == "withdrawal":
        return withdrawal_changed
    if action in ("account.limit", "account.pause"):
        return limits_changed
    if thing in {c.value for c in CorrectionKind}:
        return round_corrected
    if action == "player.list_exclude":
        return player_listed
    if action in ("auth.sign_in", "session.api_start"):
        return account_accessed
    if thing == "complaint":
        return complaint_changed
    if action in ("player.registration_refused", "exclusion_list.import"):
        return list_attention
    return None


def notices_for(event: AuditEvent) -> list[Notice]:
    source = source_for(event.action)
    if source is None:
        return []
    return [notice for notice in source(event) if notice.recipients]


# Report runs -----------------------------------------------------------------------------


def _run_name(run: ReportRun) -> str:
    label = ReportKind(run.kind).label if run.kind in ReportKind.values else "Report"
    parameters = run.parameters or {}
    if "as_of" in parameters:
        span = f" as of {parameters['as_of']}"
    elif parameters.get("start"):
        start, end = parameters["start"], parameters.get("end") or parameters["start"]
        span = f" for {start}" if start == end else f" for {start} to {end}"
    else:
        span = ""
    holder = _holder_name(run.holder_id) if run.holder_id else None
    return f"{label}{span}" + (f" ({holder})" if holder else "")


def run_concerned(run: ReportRun) -> frozenset[int]:
    return people(Role.AUDITOR) | active([run.requested_by_id])


def run_key(run: ReportRun) -> str:
    """What a run's end is called: each attempt that ends is told of once."""
    return f"report-run:{run.pk}:{run.status}:{run.attempts}"


def run_finished(run: ReportRun) -> list[Notice]:
    name = _run_name(run)
    link = reverse("reports:run-detail", args=[run.pk])
    recipients = run_concerned(run)
    if run.status == RunStatus.SUCCEEDED:
        finished = Notice(
            kind=k.REPORT_FINISHED,
            key=run_key(run),
            recipients=recipients,
            subject=f"{name} is ready",
            body=f"The {name[0].lower() + name[1:]} (run {run.pk}) is ready to read.",
            link=link,
        )
    else:
        finished = Notice(
            kind=k.REPORT_FINISHED,
            key=run_key(run),
            recipients=recipients,
            subject=f"{name} failed",
            body=(
                f"The {name[0].lower() + name[1:]} (run {run.pk}) could not be made. "
                "Its page says what went wrong, and it can be tried again from there."
            ),
            link=link,
        )
    notices = [finished]
    findings = audit_findings(run) if run.status == RunStatus.SUCCEEDED else []
    if findings:
        notices.append(
            Notice(
                kind=k.REPORT_FINDINGS,
                key=f"report-findings:{run.pk}",
                recipients=recipients,
                subject=f"{name} found something to look at",
                body=(
                    f"The {name[0].lower() + name[1:]} (run {run.pk}) found:\n"
                    + "\n".join(f"- {line}" for line in findings)
                ),
                link=link,
            )
        )
    return [notice for notice in notices if notice.recipients]


def _document(run: ReportRun) -> dict | None:
    stored = run.files.filter(format="json").values_list("name", flat=True).first()
    if stored is None:
        return None
    try:
        with open(reports_dir() / stored, "rb") as stream:
            found = json.load(stream)
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def audit_findings(run: ReportRun) -> list[str]:
    """What an audit report found that someone should look at, in plain words (read from
    its stored document; nothing for another kind of report)."""
    if run.kind != ReportKind.AUDIT:
        return []
    document = _document(run)
    if document is None:
        return []
    found = []
    totals = document.get("totals") or {}
    if (totals.get("flag") or "").strip() not in ("", "ok"):
        # The run page's own sentence: a low-volume period is reported, not judged.
        found.append(f"against its expected band, the hold is {band_verdict(totals)}")
    if document.get("chi_square_alarm"):
        found.append(
            "the outcomes are less even than a fair wheel's "
            f"(chi-square p = {document.get('chi_square_p', '?')})"
        )
    discrepancies = (document.get("resettlement") or {}).get("discrepancy_count") or 0
    if discrepancies:
        found.append(f"{discrepancies:,} bets settle differently when settled again")
    reconciliation = document.get("reconciliation") or {}
    if reconciliation and not reconciliation.get("ok", True):
        found.append("something does not reconcile (ledger, accounts or the audit chain)")
    return found
