"""Taking the steps of the records' workflow, as ``portal.compliance.workflow`` declares them.

Every step locks the row and checks it against the table (the role, four-eyes, the status
it finds, the step's guards: so of two officers deciding at once exactly one wins), writes
the row and its audit event (``<kind>.<verb>``) in the caller's transaction, and records
each table it opened or closed (§ 811a.7(f)). A step that opens or closes tables is
foretold by ``step_impact`` (reading:supersede): the caller may pass the fingerprint of
the impact it showed, and the step is refused (409) if the impact has changed since. An
approved rules submission amendment moves the tables of its earlier versions onto itself
in the same transaction (``step_plan``). A record's own rules (a layout's artwork, a
paytable's edge override, a rules submission's listings) come in as ``check`` and
``changes``; the steps with nothing of their own are ``step_entry`` functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

from portal.access.workflow import Reason, require_reason
from portal.audit.services import audit_record
from portal.audit.snapshot import snapshot
from portal.compliance import messages as msg
from portal.compliance.dates import check_dates
from portal.compliance.models import AvailabilityCause, VersionedRecord
from portal.compliance.selectors import (
    StepPlan,
    foretell,
    moved_by_amendment,
    offerings_using,
    step_plan,
)
from portal.compliance.services.audited import create_with_audit, save_with_audit
from portal.compliance.services.availability import availability_sync
from portal.compliance.workflow import RECORD_WORKFLOW as W
from portal.compliance.workflow import REVIEWED_STATUSES, authors, titled_version
from portal.core.errors import Conflict
from portal.core.padates import pa_today

R = TypeVar("R", bound=VersionedRecord)

# The cause a table's closing is logged under, by the step that closed it (§ 811a.7(f)).
CLOSED_CAUSES = {
    "approve": AvailabilityCause.APPROVAL_SUPERSEDED,
    "withdraw": AvailabilityCause.APPROVAL_WITHDRAWN,
}


class ImpactChanged(Conflict):
    """The tables a step opens or closes are no longer those shown when it was chosen."""

    def __init__(self, message: str = msg.IMPACT_CHANGED):
        super().__init__(message)


def locked(record: R) -> R:
    """The current row, locked until the transaction ends."""
    return type(record).objects.select_for_update().get(pk=record.pk)


def _with_author(record: VersionedRecord, actor) -> list[int]:
    return sorted({*record.author_ids, actor.pk}) if actor is not None else record.author_ids


def _stamps(verb: str, record: VersionedRecord, actor, reason: str, now) -> dict[str, Any]:
    """Who took the step and when, where the record keeps it."""
    if verb == "submit":
        return {
            "submitted_by": actor,
            "submitted_at": now,
            "author_ids": _with_author(record, actor),
        }
    if W[verb].four_eyes:
        return {"decided_by": actor, "decided_at": now, "decision_reason": reason}
    return {}


@transaction.atomic
def take(
    record: R,
    name: str,
    *,
    actor,
    reason: str = "",
    check: Callable[[R], None] | None = None,
    changes: dict[str, Any] | Callable[[Any], dict[str, Any]] | None = None,
    impact: str | None = None,
    noted: dict[str, Any] | None = None,
) -> R:
    """Take the step ``name`` on ``record``, as the table says: the record's own ``check``
    runs on the locked row after the table's; ``changes`` (or ``changes(now)``, called after
    every check) are the step's own fields. Approving supersedes the series' approved
    version, and a rules submission's approval moves the tables of its earlier versions onto
    it (reading:supersede). ``impact``: the fingerprint of the impact shown to whoever took
    it (``Impact.fingerprint``); the step is refused if the impact is now another.
    ``noted``: what the step's audit event records beside the fields (``save_with_audit``)."""
    step = W[name]
    if step.target is None:
        raise ValueError(f"{step.name} makes a new version: call amend()")
    if not step.by_people:
        raise ValueError(f"{step.name} is taken by the system, not by a person")
    if step.reason is Reason.NONE and reason:
        raise ValueError(f"{step.name} takes no reason")
    record = locked(record)
    W.check(step, record, actor)
    reason = require_reason(step, reason)
    if check is not None:
        check(record)
    if impact is not None:
        # The same forecast the page and the API showed, again, on the locked row.
        plan, foretold = foretell(record, name)
        if impact.strip() != foretold.fingerprint:
            raise ImpactChanged()
    else:
        plan = step_plan(record, name)
    now = timezone.now()
    own = changes(now) if callable(changes) else dict(changes or {})
    if step.verb == "approve":
        check_dates(None, own.get("expiry_date", record.expiry_date), today=pa_today())
        # One approved version per series (a partial unique index): retire the old one first.
        supersede_previous(record, actor=actor)
    all_changes = {"status": step.target, **_stamps(step.verb, record, actor, reason, now), **own}
    record = save_with_audit(
        record, actor=actor, verb=step.verb, changes=all_changes, reason=reason, noted=noted
    )
    move_tables(plan, actor=actor)
    if step.verb in CLOSED_CAUSES:
        _log_tables_of(record, closed_cause=CLOSED_CAUSES[step.verb], actor=actor)
    return record


def move_tables(plan: StepPlan, *, actor) -> list:
    """Move each table ``plan`` moves onto the approved rules submission and the layout and
    paytable it lists for Jinzi Roulette (reading:supersede), each an audit event of the
    table with its values before and after; the availability log follows (``take``)."""
    if not plan.moves:
        return []
    record = plan.record
    reason = msg.MOVED_BY_AMENDMENT.format(label=titled_version(record))
    moved = []
    still = moved_by_amendment(record).select_for_update().filter(pk__in=list(plan.moves))
    for offering in still.order_by("pk"):
        listing = plan.moves[offering.pk]
        before = snapshot(offering)
        offering.rules_submission_id = record.pk
        offering.layout_id = listing.layout_id
        offering.paytable_id = listing.paytable_id
        offering.save(update_fields=["rules_submission", "layout", "paytable", "updated_at"])
        audit_record(
            actor=actor,
            action="offering.update",
            object_type="offering",
            object_id=offering.pk,
            before=before,
            after=snapshot(offering),
            reason=reason,
        )
        moved.append(offering)
    return moved


def supersede_previous(record: VersionedRecord, *, actor) -> None:
    step = W["supersede"]
    previous = (
        type(record)
        .objects.select_for_update()
        .filter(series=record.series, status__in=step.sources)
        .exclude(pk=record.pk)
    )
    for old in previous:
        save_with_audit(
            old,
            actor=actor,
            verb=step.verb,
            changes={"status": step.target},
            reason=f"superseded by v{record.version}",
        )


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
    """Edit a draft: the table's checks first, then ``build`` reads the input against the
    locked row and returns the changes (raising ValidationFailed)."""
    step = W["edit"]
    record = locked(record)
    W.check(step, record, actor)
    changes = {**build(record), "author_ids": _with_author(record, actor)}
    return save_with_audit(record, actor=actor, verb=step.verb, changes=changes, apply=apply)


@transaction.atomic
def amend(record: R, *, actor, copy: Callable[[R, R], None] | None = None) -> R:
    """Start the next version of a series as a draft, copying the content fields."""
    step = W["amend"]
    model = type(record)
    record = locked(record)
    W.check(step, record, actor)  # the role; the latest version, with none open
    draft = model(
        holder_id=record.holder_id,
        series=record.series,
        version=record.version + 1,
        status=W["create"].target,
        created_by=actor,
    )
    for field in model.CONTENT_FIELDS:
        setattr(draft, field, getattr(record, field))
    if record.status not in REVIEWED_STATUSES:
        # Its content was never approved by a second person: whoever wrote it stays its
        # author, so they cannot approve it under someone else's amendment (four-eyes).
        draft.author_ids = sorted(authors(record) - {None})
    return create_with_audit(
        draft,
        actor=actor,
        after_save=(lambda new: copy(record, new)) if copy else None,
        verb=step.verb,
        reason=f"amendment of v{record.version}",
    )


def step_entry(verb: str, *, kind: str, keyword: str) -> Callable[..., VersionedRecord]:
    """The service ``<kind>_<verb>`` of a step with nothing of the record's own: it takes the
    acting user, the record by ``keyword`` and, if the step asks why, the reason."""
    step = W[verb]

    def entry(*, actor, reason: str = "", impact: str | None = None, **given) -> VersionedRecord:
        if set(given) != {keyword}:
            raise TypeError(f"{kind}_{verb}() takes actor, {keyword}, reason and impact")
        if step.reason is Reason.NONE and reason:
            raise TypeError(f"{kind}_{verb}() takes no reason")
        if impact is not None and not step.changes_tables:
            raise TypeError(f"{kind}_{verb}() opens or closes no table: it takes no impact")
        if step.target is None:
            return amend(given[keyword], actor=actor)
        return take(given[keyword], verb, actor=actor, reason=reason, impact=impact)

    entry.__name__ = entry.__qualname__ = f"{kind}_{verb}"
    entry.__doc__ = f"{step.label or step.verb}: the {kind.replace('_', ' ')}'s step {verb!r}."
    return entry
