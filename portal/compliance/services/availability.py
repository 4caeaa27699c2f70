"""The game availability log (§ 811a.7(f)): each time an offering opens to play or closes.

Whether an offering is open is ``offering_is_live``; this module writes down each change
of that answer, with when and why. Two kinds of change:

- caused by an action (an approval, a withdrawal, an offering set up, changed or retired):
  the action's service calls ``availability_sync`` in its own transaction, at that instant;
- caused only by the calendar (an approval's effective or expiry date, the rule's first
  day or its sunset, all Pennsylvania dates): the midnight job calls ``availability_sweep``,
  which records each change at the instant it actually happened (that local midnight).

Each change is a row of the append-only ``AvailabilityChange`` table and an event of the
hash-chained audit trail (``offering.opened`` / ``offering.closed``), in one transaction.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from portal.audit.services import audit_record
from portal.compliance.models import (
    EFFECTIVE,
    SUNSET,
    AvailabilityCause,
    AvailabilityChange,
    Offering,
    OfferingStatus,
)
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.core.padates import day_starts, pa_date
from portal.core.software import running_identity

C = AvailabilityCause
OPENED_REASON = "every approval it runs on is live (§ 617b.8(a), reading:live-offering)"


def last_states(offering_ids: Iterable[int]) -> dict[int, AvailabilityChange]:
    """Each offering's latest recorded change (an offering never recorded was never open)."""
    latest: dict[int, AvailabilityChange] = {}
    for change in AvailabilityChange.objects.filter(offering_id__in=list(offering_ids)).order_by(
        "offering_id", "at", "pk"
    ):
        latest[change.offering_id] = change
    return latest


def _record(offering: Offering, *, opened: bool, at, cause: str, reason: str, actor):
    # The game software in force (§ 811a.7(f)(2)): the identity this process runs.
    software = running_identity().digest
    event = audit_record(
        actor=actor,
        action="offering.opened" if opened else "offering.closed",
        object_type="offering",
        object_id=offering.pk,
        after={
            "at": at.isoformat(),
            "cause": str(cause),
            "reason": reason,
            "software_identity": software,
        },
        reason=reason,
    )
    return AvailabilityChange.objects.create(
        offering=offering,
        holder_id=offering.holder_id,
        opened=opened,
        at=at,
        cause=cause,
        reason=reason,
        audit_event=event,
        software_identity=software,
    )


# An offering whose availability turned: whether it is now open, why, its last change.
Turned = tuple[Offering, bool, str, AvailabilityChange | None]


def _turned(where: Q, now: datetime.datetime) -> Iterator[Turned]:
    """The offerings matching ``where`` whose availability at ``now`` is not the one last
    recorded: each with whether it is now open, why, and its last recorded change."""
    offerings = list(offerings_with_parts().filter(where))
    known = last_states(o.pk for o in offerings)
    for offering in offerings:
        liveness = offering_is_live(offering, at=now)
        last = known.get(offering.pk)
        if liveness.live != (last is not None and last.opened):
            reason = OPENED_REASON if liveness.live else "; ".join(liveness.reasons)
            yield offering, liveness.live, reason, last


def availability_sync(*, where: Q, opened_cause: str, closed_cause: str, actor) -> list:
    """Record, as of now, every offering matching ``where`` whose availability changed;
    called by the service whose action may have changed it, inside its transaction."""
    now = timezone.now()
    return [
        _record(
            offering,
            opened=opened,
            at=now,
            cause=opened_cause if opened else closed_cause,
            reason=reason,
            actor=actor,
        )
        for offering, opened, reason, _ in _turned(where, now)
    ]


def _parts(offering: Offering):
    return (offering.rules_submission, offering.layout, offering.paytable)


def _closing(offering: Offering, since, now) -> tuple[datetime.datetime, str]:
    """When the calendar closed ``offering`` (the first local midnight after ``since`` that
    an expiry date or the sunset explains) and why; ``now`` if none does."""
    today = pa_date(now)
    causes = {
        day_starts(p.expiry_date): C.APPROVAL_LAPSED
        for p in _parts(offering)
        if p.expiry_date and p.expiry_date <= today
    }
    if today >= SUNSET:
        causes[day_starts(SUNSET)] = C.SUNSET  # the sunset names it, on the same midnight
    after = sorted(instant for instant in causes if since is None or instant > since)
    return (after[0], causes[after[0]]) if after else (now, C.APPROVAL_LAPSED)


def _opening(offering: Offering, since, now) -> tuple[datetime.datetime, str]:
    """When the calendar opened ``offering`` (the last effective date to arrive, or the
    rule's first day) and why; ``now`` if that was not after ``since``."""
    days = {p.effective_date for p in _parts(offering) if p.effective_date} | {EFFECTIVE}
    instant = day_starts(max(day for day in days if day_starts(day) <= now))
    if since is not None and instant <= since:
        return now, C.APPROVAL_TOOK_EFFECT
    return instant, C.RULE_TOOK_EFFECT if instant == day_starts(EFFECTIVE) else (
        C.APPROVAL_TOOK_EFFECT
    )


@transaction.atomic
def availability_sweep(*, now: datetime.datetime | None = None) -> int:
    """The midnight job's part: record the changes the calendar made since the last ones,
    each at the instant it happened. Returns how many it recorded."""
    now = now or timezone.now()
    recorded = 0
    for offering, opened, reason, last in _turned(Q(status=OfferingStatus.ACTIVE), now):
        turned = _opening if opened else _closing
        at, cause = turned(offering, last.at if last else None, now)
        _record(offering, opened=opened, at=at, cause=cause, reason=reason, actor=None)
        recorded += 1
    return recorded
