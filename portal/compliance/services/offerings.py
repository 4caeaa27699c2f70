"""Offerings: the Jinzi Roulette tables a holder runs (§ 617b.8(a))."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from portal.access.policy import OTHER_HOLDER, Action, denial, require
from portal.accounts.models import CertificateHolder
from portal.audit.services import audit_record
from portal.audit.snapshot import snapshot
from portal.compliance import messages as msg
from portal.compliance.dates import refuse_after_sunset
from portal.compliance.models import (
    AvailabilityCause,
    Game,
    Layout,
    Offering,
    OfferingStatus,
    Paytable,
    RulesSubmission,
)
from portal.compliance.services.availability import availability_sync
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.core.validation import MAX_ID

NAME_TAKEN = "this holder already has an offering named {name!r}"
MAX_REASON = 2000


def _check_parts(
    holder_id: int, rules_submission: RulesSubmission, layout: Layout, paytable: Paytable
) -> None:
    errors: dict[str, list[str]] = {}
    parts = (
        ("rules_submission", rules_submission),
        ("layout", layout),
        ("paytable", paytable),
    )
    for field, record in parts:
        if record.holder_id != holder_id:
            errors[field] = [msg.OTHER_HOLDERS_RECORD.format(kind=field.replace("_", " "))]
    if not errors:
        listing = rules_submission.games.filter(game=Game.JINZI_ROULETTE).first()
        if listing is None or listing.layout_id != layout.pk:
            errors["layout"] = [msg.OFFERING_MISMATCH.format(what="layout")]
        if listing is None or listing.paytable_id != paytable.pk:
            errors["paytable"] = [msg.OFFERING_MISMATCH.format(what="paytable")]
    if errors:
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)


def refuse_new_offering_after_sunset() -> None:
    """§ 617b.8's sunset: once no approval could hold (on or after 2028-06-14, a Pennsylvania
    date), no new offering is set up; a Conflict says why. Public so that the form runs this
    same check with its others and shows every error at once."""
    refuse_after_sunset("offering", "set up")


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise ValidationFailed.on("name", "give the offering a name of 1 to 200 characters")
    return name


def _save(offering: Offering, *, actor, verb: str, before: dict | None, reason: str = ""):
    if before is not None and snapshot(offering) == before:
        return offering  # nothing changed: nothing to save or record
    offering = _write(offering, actor=actor, verb=verb, before=before, reason=reason)
    # Set up, changed or retired: the table may have opened or closed (§ 811a.7(f)).
    availability_sync(
        where=Q(pk=offering.pk),
        opened_cause=AvailabilityCause.OFFERING_ACTIVATED,
        closed_cause=AvailabilityCause.OFFERING_DEACTIVATED,
        actor=actor,
    )
    return offering


def _write(offering: Offering, *, actor, verb: str, before: dict | None, reason: str):
    try:
        with transaction.atomic():
            offering.save()
    except IntegrityError:
        raise ValidationFailed.on("name", NAME_TAKEN.format(name=offering.name)) from None
    audit_record(
        actor=actor,
        action=f"offering.{verb}",
        object_type="offering",
        object_id=offering.pk,
        before=before,
        after=snapshot(offering),
        reason=reason,
    )
    return offering


@transaction.atomic
def offering_create(
    *,
    actor,
    holder: CertificateHolder,
    name: str,
    rules_submission: RulesSubmission,
    layout: Layout,
    paytable: Paytable,
) -> Offering:
    require(actor, Action.DRAFT, holder)
    refuse_new_offering_after_sunset()
    _check_parts(holder.pk, rules_submission, layout, paytable)
    offering = Offering(
        holder=holder,
        name=_name(name),
        rules_submission=rules_submission,
        layout=layout,
        paytable=paytable,
        created_by=actor,
    )
    return _save(offering, actor=actor, verb="create", before=None)


@transaction.atomic
def offering_update(
    *,
    actor,
    offering: Offering,
    name: str | None = None,
    rules_submission: RulesSubmission | None = None,
    layout: Layout | None = None,
    paytable: Paytable | None = None,
) -> Offering:
    offering = Offering.objects.select_for_update().get(pk=offering.pk)
    require(actor, Action.DRAFT, offering)
    if offering.status == OfferingStatus.RETIRED:
        raise Conflict(msg.OFFERING_RETIRED.format(name=offering.name))
    before = snapshot(offering)
    if name is not None:
        offering.name = _name(name)
    offering.rules_submission = rules_submission or offering.rules_submission
    offering.layout = layout or offering.layout
    offering.paytable = paytable or offering.paytable
    _check_parts(offering.holder_id, offering.rules_submission, offering.layout, offering.paytable)
    return _save(offering, actor=actor, verb="update", before=before)


@transaction.atomic
def offering_retire(*, actor, offering: Offering, reason: str) -> Offering:
    offering = Offering.objects.select_for_update().get(pk=offering.pk)
    require(actor, Action.DRAFT, offering)
    if offering.status == OfferingStatus.RETIRED:
        raise Conflict(msg.OFFERING_RETIRED.format(name=offering.name))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed.on("reason", msg.REASON_REQUIRED)
    before = snapshot(offering)
    offering.status = OfferingStatus.RETIRED
    offering.suspended_at, offering.suspended_by, offering.suspension_reason = None, None, ""
    return _save(offering, actor=actor, verb="retire", before=before, reason=reason)


def _reason(reason) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed.on("reason", msg.SUSPENSION_REASON)
    if len(reason) > MAX_REASON:
        raise ValidationFailed.on("reason", msg.REASON_TOO_LONG.format(limit=MAX_REASON))
    return reason.strip()


@transaction.atomic
def offering_suspend(*, actor, offering_id: int, reason) -> Offering:
    """Close a table at once while a suspected malfunction is checked
    (reading:table-suspension): a compliance officer or the holder's supervisor, with the
    reason. Rounds already in play finish; no new one starts."""
    offering = _offering_for(actor, offering_id)
    if offering.status != OfferingStatus.ACTIVE:
        status = offering.get_status_display().lower()
        raise Conflict(msg.NOT_SUSPENDABLE.format(name=offering.name, status=status))
    reason = _reason(reason)
    before = snapshot(offering)
    offering.status = OfferingStatus.SUSPENDED
    offering.suspended_at, offering.suspended_by = timezone.now(), actor
    offering.suspension_reason = reason
    offering = _write(offering, actor=actor, verb="suspend", before=before, reason=reason)
    _sync(offering, actor, AvailabilityCause.TABLE_SUSPENDED)
    return offering


@transaction.atomic
def offering_reopen(*, actor, offering_id: int, reason) -> Offering:
    """Reopen a suspended table: someone other than who suspended it, with the reason. It
    is live again only if everything a table needs still holds (its approvals, the rule)."""
    offering = _offering_for(actor, offering_id)
    if offering.status != OfferingStatus.SUSPENDED:
        raise Conflict(msg.NOT_SUSPENDED.format(name=offering.name))
    if offering.suspended_by_id == actor.pk:
        raise NotPermitted(msg.REOPEN_FOUR_EYES)
    reason = _reason(reason)
    before = snapshot(offering)
    offering.status = OfferingStatus.ACTIVE
    offering.suspended_at, offering.suspended_by, offering.suspension_reason = None, None, ""
    offering = _write(offering, actor=actor, verb="reopen", before=before, reason=reason)
    _sync(offering, actor, AvailabilityCause.TABLE_REOPENED)
    return offering


def _offering_for(actor, offering_id) -> Offering:
    """The offering, locked, if ``actor`` may suspend or reopen its tables; another
    holder's is not found (404), as for any record one may not see."""
    if type(offering_id) is not int or not 0 < offering_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_OFFERING.format(id=offering_id))
    offering = Offering.objects.select_for_update().filter(pk=offering_id).first()
    if offering is None or denial(actor, Action.SUSPEND_TABLES, offering) == OTHER_HOLDER:
        raise NotFound(msg.NO_SUCH_OFFERING.format(id=offering_id))
    require(actor, Action.SUSPEND_TABLES, offering)
    return offering


def _sync(offering: Offering, actor, cause) -> None:
    """The availability log (§ 811a.7(f)): a suspension closes the table with its own
    cause; a reopening opens it again only if nothing else keeps it closed."""
    availability_sync(where=Q(pk=offering.pk), opened_cause=cause, closed_cause=cause, actor=actor)
