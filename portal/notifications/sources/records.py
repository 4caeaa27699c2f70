"""Notices of the compliance records (submitted, decided) and of the tables they make live."""

from __future__ import annotations

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.compliance.models import (
    Layout,
    Offering,
    Paytable,
    RecordStatus,
    RulesSubmission,
    TermsAndConditions,
)
from portal.notifications import kinds as k
from portal.notifications.audiences import active, people
from portal.notifications.kinds import Notice
from portal.notifications.sources.said import actor_said, except_actor, reason_said, when

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
            recipients=except_actor(people(Role.COMPLIANCE), event),
            subject=f"{record.holder.name} submitted the {name} for review",
            body=(
                f"{actor_said(event)} submitted the {name} of {record.holder.name} for review on "
                f"{when(event)}. It waits for a compliance officer's decision."
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
            recipients=except_actor(record_concerned(record), event),
            subject=f"The {name} was {done}",
            body=(
                f"The {name} of {record.holder.name} was {done} by {actor_said(event)} on "
                f"{when(event)}.{reason_said(event.reason)}"
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
            recipients=except_actor(people(Role.MANAGER, holder_id=offering.holder_id), event),
            subject=subject,
            body=(
                f"The table '{offering.name}' of {offering.holder.name} {what} on "
                f"{when(event)}.{reason_said(event.reason)}"
            ),
            link=offering.get_absolute_url(),
        )
    ]
