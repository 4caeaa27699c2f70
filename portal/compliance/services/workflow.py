"""The status machine shared by layouts, paytables and rules submissions.

draft → submitted → approved | rejected | changes_requested;
approved → superseded | expired | withdrawn. A change to a record that is no longer
a draft is a new version (``amend``). Every step locks the row, checks the status it
finds (so of two officers deciding at once exactly one wins), writes the row and an
audit event in the caller's transaction.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

from portal.access.policy import Action, may, require
from portal.access.roles import password_setters
from portal.accounts.models import Profile
from portal.audit.services import audit_record
from portal.audit.snapshot import snapshot
from portal.compliance import messages as msg
from portal.compliance.models import (
    EFFECTIVE,
    SUNSET,
    AvailabilityCause,
    RecordStatus,
    VersionedRecord,
)
from portal.compliance.services.availability import availability_sync, offerings_using
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from portal.core.padates import pa_today

R = TypeVar("R", bound=VersionedRecord)

S = RecordStatus
OPEN_STATUSES = (S.DRAFT, S.SUBMITTED)
# A version in one of these was decided by a second person: its content was four-eyed.
REVIEWED_STATUSES = (S.APPROVED, S.SUPERSEDED, S.EXPIRED, S.WITHDRAWN)


def label(record: VersionedRecord) -> str:
    return f"{record.kind.replace('_', ' ')} {record.title_for_display!r} v{record.version}"


def locked(record: R) -> R:
    """The current row, locked until the transaction ends."""
    return type(record).objects.select_for_update().get(pk=record.pk)


def expect_status(record: VersionedRecord, allowed: tuple[str, ...], verb: str) -> None:
    if record.status not in allowed:
        raise Conflict(
            msg.BAD_TRANSITION.format(
                label=label(record),
                status=record.get_status_display().lower(),
                allowed=" or ".join(RecordStatus(s).label.lower() for s in allowed),
                kind=record.kind.replace("_", " "),
                verb=verb,
            )
        )


def require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed.on("reason", msg.REASON_REQUIRED)
    return reason


def _authors(record: VersionedRecord) -> set:
    return {record.created_by_id, record.submitted_by_id, *record.author_ids}


def set_password_of_author(record: VersionedRecord, user) -> bool:
    """Whether an author of ``record`` set ``user``'s password and ``user`` has not since
    shown a second factor of their own: that author could be the one signed in."""
    return bool(password_setters(user) & _authors(record))


def shares_a_password_setter(record: VersionedRecord, actor) -> bool:
    """Four-eyes by impersonation, both ways: the decider or whoever set the decider's
    password set the password of an author (who may so have written it as them). One
    query, at decision time."""
    authors = _authors(record) - {None}
    setters_of_authors = Profile.objects.filter(user_id__in=authors).values_list(
        "password_setters", flat=True
    )
    deciders = {actor.pk, *password_setters(actor)}
    return any(deciders.intersection(setters) for setters in setters_of_authors)


def is_own_work(record: VersionedRecord, user) -> bool:
    """Four-eyes by content: whoever created, edited or submitted a version never decides
    it, nor whoever authored a version it carries on (an amendment of a version never
    approved inherits its authors, see ``amend``), nor an account whose password one of
    them set (four-eyes by impersonation)."""
    return user.pk in _authors(record) or set_password_of_author(record, user)


def _with_author(record: VersionedRecord, actor) -> list[int]:
    return sorted({*record.author_ids, actor.pk}) if actor is not None else record.author_ids


def check_four_eyes(record: VersionedRecord, actor) -> None:
    kind = record.kind.replace("_", " ")
    if actor.pk in _authors(record):
        raise NotPermitted(msg.FOUR_EYES.format(kind=kind))
    if set_password_of_author(record, actor) or shares_a_password_setter(record, actor):
        raise NotPermitted(msg.FOUR_EYES_PASSWORD_SETTER.format(kind=kind))


def refuse_after_sunset(what: str, verb: str) -> None:
    """Once no approval could hold (on or after the sunset, a Pennsylvania date), nothing
    new is created or submitted for the game: it could never be approved or played."""
    if pa_today() >= SUNSET:
        raise Conflict(msg.NOTHING_CAN_HOLD.format(what=what, verb=verb))


def date_errors(
    effective: datetime.date | None,
    expiry: datetime.date | None,
    *,
    today: datetime.date | None = None,
) -> dict[str, list[str]]:
    """What is wrong with an approval's dates (Pennsylvania dates), by field: within
    § 617b.8's life, expiry after effect and, given ``today``, after today."""
    errors: dict[str, list[str]] = {}
    if effective is not None and effective < EFFECTIVE:
        errors["effective_date"] = [
            msg.EFFECTIVE_BEFORE_RULE.format(effective=effective.isoformat())
        ]
    if effective is not None and effective >= SUNSET:
        errors["effective_date"] = [
            msg.EFFECTIVE_AFTER_SUNSET.format(effective=effective.isoformat())
        ]
    if expiry is not None and expiry > SUNSET:
        errors["expiry_date"] = [msg.EXPIRY_AFTER_SUNSET.format(expiry=expiry.isoformat())]
    if effective is not None and expiry is not None and expiry <= effective:
        errors.setdefault("expiry_date", []).append(msg.EXPIRY_NOT_AFTER_EFFECTIVE)
    if today is not None and expiry is not None and expiry <= today:
        errors.setdefault("expiry_date", []).append(
            msg.EXPIRY_IN_THE_PAST.format(expiry=expiry.isoformat())
        )
    return errors


def check_dates(
    effective: datetime.date | None,
    expiry: datetime.date | None,
    *,
    today: datetime.date | None = None,
) -> None:
    """``date_errors``, raised as one ``ValidationFailed`` with every field's errors."""
    errors = date_errors(effective, expiry, today=today)
    if errors:
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)


def save_with_audit(
    record: R,
    *,
    actor,
    verb: str,
    changes: dict[str, Any],
    reason: str = "",
    apply: Callable[[R], None] | None = None,
) -> R:
    before = snapshot(record)
    for field, value in changes.items():
        setattr(record, field, value)
    record.save()
    if apply is not None:
        apply(record)
    after = snapshot(record)
    if verb == "update" and _content(after) == _content(before):
        return record  # nothing changed: no event (the authors list alone is no change)
    audit_record(
        actor=actor,
        action=f"{record.kind}.{verb}",
        object_type=record.kind,
        object_id=record.pk,
        object_version=record.version,
        before=before,
        after=after,
        reason=reason,
    )
    return record


def _content(picture: dict) -> dict:
    return {key: value for key, value in picture.items() if key != "author_ids"}


def create_with_audit(
    record: R,
    *,
    actor,
    after_save: Callable[[R], None] | None = None,
    verb: str = "create",
    reason: str = "",
) -> R:
    if actor is not None:
        record.author_ids = sorted({*record.author_ids, actor.pk})
    record.save()
    if after_save is not None:
        after_save(record)
    audit_record(
        actor=actor,
        action=f"{record.kind}.{verb}",
        reason=reason,
        object_type=record.kind,
        object_id=record.pk,
        object_version=record.version,
        after=snapshot(record),
    )
    return record


@transaction.atomic
def submit(record: R, *, actor, extra: dict[str, Any] | None = None, check=None) -> R:
    record = locked(record)
    require(actor, Action.DRAFT, record)
    expect_status(record, (S.DRAFT,), "submitted")
    if check is not None:
        check(record)
    now = timezone.now()
    changes = {
        "status": S.SUBMITTED,
        "submitted_by": actor,
        "submitted_at": now,
        "author_ids": _with_author(record, actor),
    }
    changes.update(extra(now) if callable(extra) else (extra or {}))
    return save_with_audit(record, actor=actor, verb="submit", changes=changes)


def _undecided(record: R, *, actor, verb: str) -> R:
    """Lock the record and check that ``actor`` may decide it now."""
    record = locked(record)
    require(actor, Action.DECIDE, record)
    check_four_eyes(record, actor)
    if record.status != S.SUBMITTED and record.decided_by_id is not None:
        raise Conflict(
            msg.DECISION_LOST.format(
                label=label(record), status=record.get_status_display().lower()
            )
        )
    expect_status(record, (S.SUBMITTED,), verb)
    return record


def _record_decision(record: R, *, actor, verb: str, status: str, reason: str, changes) -> R:
    all_changes = {
        "status": status,
        "decided_by": actor,
        "decided_at": timezone.now(),
        "decision_reason": reason,
        **(changes or {}),
    }
    return save_with_audit(record, actor=actor, verb=verb, changes=all_changes, reason=reason)


def supersede_previous(record: VersionedRecord, *, actor) -> None:
    previous = (
        type(record)
        .objects.select_for_update()
        .filter(series=record.series, status=S.APPROVED)
        .exclude(pk=record.pk)
    )
    for old in previous:
        save_with_audit(
            old,
            actor=actor,
            verb="supersede",
            changes={"status": S.SUPERSEDED},
            reason=f"superseded by v{record.version}",
        )


@transaction.atomic
def approve(
    record: R,
    *,
    actor,
    reason: str = "",
    changes: dict[str, Any] | None = None,
    check: Callable[[R], None] | None = None,
) -> R:
    """Approve a submitted record; the series' previously approved version is superseded."""
    record = _undecided(record, actor=actor, verb="approved")
    today = pa_today()
    if today >= SUNSET:
        raise Conflict(msg.APPROVAL_AFTER_SUNSET)
    if check is not None:
        check(record)
    check_dates(None, (changes or {}).get("expiry_date", record.expiry_date), today=today)
    # One approved version per series (a partial unique index): retire the old one first.
    supersede_previous(record, actor=actor)
    record = _record_decision(
        record, actor=actor, verb="approve", status=S.APPROVED, reason=reason, changes=changes
    )
    _log_tables_of(record, closed_cause=AvailabilityCause.APPROVAL_SUPERSEDED, actor=actor)
    return record


@transaction.atomic
def reject(record: R, *, actor, reason: str) -> R:
    record = _undecided(record, actor=actor, verb="rejected")
    reason = require_reason(reason)
    return _record_decision(
        record, actor=actor, verb="reject", status=S.REJECTED, reason=reason, changes=None
    )


@transaction.atomic
def request_changes(record: R, *, actor, reason: str) -> R:
    record = _undecided(record, actor=actor, verb="sent back for changes")
    reason = require_reason(reason)
    return _record_decision(
        record,
        actor=actor,
        verb="request_changes",
        status=S.CHANGES_REQUESTED,
        reason=reason,
        changes=None,
    )


@transaction.atomic
def withdraw(record: R, *, actor, reason: str) -> R:
    record = locked(record)
    require(actor, Action.WITHDRAW, record)
    expect_status(record, (S.APPROVED,), "withdrawn")
    reason = require_reason(reason)
    record = save_with_audit(
        record, actor=actor, verb="withdraw", changes={"status": S.WITHDRAWN}, reason=reason
    )
    _log_tables_of(record, closed_cause=AvailabilityCause.APPROVAL_WITHDRAWN, actor=actor)
    return record


def _log_tables_of(record: VersionedRecord, *, closed_cause: str, actor) -> None:
    """The tables on any version of ``record``'s series may have opened or closed
    (§ 811a.7(f)): an approval takes effect, or one is superseded or withdrawn."""
    availability_sync(
        where=offerings_using(record),
        opened_cause=AvailabilityCause.APPROVAL_TOOK_EFFECT,
        closed_cause=closed_cause,
        actor=actor,
    )


@transaction.atomic
def update_draft(
    record: R,
    *,
    actor,
    build: Callable[[R], dict[str, Any]],
    apply: Callable[[R], None] | None = None,
) -> R:
    """Edit a draft: permission and status are checked first, then ``build`` reads the
    input against the locked row and returns the changes (raising ValidationFailed)."""
    record = locked(record)
    require(actor, Action.DRAFT, record)
    expect_status(record, (S.DRAFT,), "edited")
    changes = {**build(record), "author_ids": _with_author(record, actor)}
    return save_with_audit(record, actor=actor, verb="update", changes=changes, apply=apply)


@transaction.atomic
def amend(record: R, *, actor, copy: Callable[[R, R], None] | None = None) -> R:
    """Start the next version of a series as a draft, copying the content fields."""
    model = type(record)
    record = locked(record)
    require(actor, Action.DRAFT, record)
    series = list(model.objects.select_for_update().filter(series=record.series))
    latest = max(series, key=lambda r: r.version)
    if latest.pk != record.pk:
        raise Conflict(msg.NOT_LATEST_VERSION.format(version=latest.version))
    open_versions = [r for r in series if r.status in OPEN_STATUSES]
    if open_versions:
        raise Conflict(
            msg.OPEN_VERSION_EXISTS.format(
                kind=record.kind.replace("_", " "),
                version=open_versions[0].version,
                status=open_versions[0].get_status_display().lower(),
            )
        )
    draft = model(
        holder_id=record.holder_id,
        series=record.series,
        version=record.version + 1,
        status=S.DRAFT,
        created_by=actor,
    )
    for field in model.CONTENT_FIELDS:
        setattr(draft, field, getattr(record, field))
    if record.status not in REVIEWED_STATUSES:
        # Its content was never approved by a second person: whoever wrote it stays its
        # author, so they cannot approve it under someone else's amendment (four-eyes).
        draft.author_ids = sorted(
            {*record.author_ids, record.created_by_id, record.submitted_by_id} - {None}
        )
    return create_with_audit(
        draft,
        actor=actor,
        after_save=(lambda new: copy(record, new)) if copy else None,
        verb="amend",
        reason=f"amendment of v{record.version}",
    )


def available_steps(user, record: VersionedRecord, versions: list) -> set[str]:
    """The workflow steps ``user`` may take on ``record`` now (``versions``: its series,
    newest first) — for showing buttons; every step is checked again when taken."""
    steps: set[str] = set()
    drafter = may(user, Action.DRAFT, record)
    if record.status == S.DRAFT and drafter:
        steps |= {"edit", "submit"}
    if (
        record.status == S.SUBMITTED
        and may(user, Action.DECIDE, record)
        and not is_own_work(record, user)
    ):
        steps |= {"approve", "request-changes", "reject"}
    if record.status == S.APPROVED and may(user, Action.WITHDRAW, record):
        steps.add("withdraw")
    latest = versions[0].pk == record.pk if versions else True
    if drafter and latest and not any(v.status in OPEN_STATUSES for v in versions):
        steps.add("amend")
    return steps
