"""The compliance records' workflow, declared once (§ 601a.2, § 601a.10, § 617b.8(f),
§ 811a.3).

Layouts, paytables, rules submissions and the holders' terms and conditions move through
the same table:

    draft → submitted → approved | rejected | changes_requested
    approved → superseded (a later version is approved) | expired | withdrawn
    superseded → withdrawn (a version still in play, taken out of it: reading:supersede)

and a record that is no longer open is changed by an amendment: a new draft version. The
services take these steps (``services/workflow.py``); the record pages' buttons and
decision panel, the API's actions, the admin's actions and the audit events' names
(``<kind>.<verb>``) all read them from here.
"""

from __future__ import annotations

from portal.access.four_eyes import four_eyes_guard
from portal.access.policy import Action
from portal.access.workflow import Guard, Reason, Step, Workflow
from portal.compliance import messages as msg
from portal.compliance.models import SUNSET, RecordStatus, VersionedRecord
from portal.core.errors import Conflict
from portal.core.padates import pa_today

S = RecordStatus
# The statuses of one series' version still in the works: at most one at a time.
OPEN_STATUSES = frozenset({S.DRAFT, S.SUBMITTED})
# A version in one of these was decided by a second person: its content was four-eyed.
REVIEWED_STATUSES = frozenset({S.APPROVED, S.SUPERSEDED, S.EXPIRED, S.WITHDRAWN})
# Still to be decided, or still being written: shown against the approved version.
UNDECIDED_STATUSES = frozenset({S.DRAFT, S.SUBMITTED, S.CHANGES_REQUESTED})
# Being written by the holder: a draft, or one sent back for changes.
BEING_WRITTEN_STATUSES = frozenset({S.DRAFT, S.CHANGES_REQUESTED})


def kind_text(record: VersionedRecord) -> str:
    """What messages call the record's kind: its ``noun``, else its kind in words."""
    return record.noun or record.kind.replace("_", " ")


def titled_version(record: VersionedRecord) -> str:
    """A version by its title, as messages quote it: ``'House table' v2``."""
    return f"{record.title_for_display!r} v{record.version}"


def label(record: VersionedRecord) -> str:
    """How messages name a version: ``paytable 'House table' v2``."""
    return f"{kind_text(record)} {titled_version(record)}"


def authors(record: VersionedRecord) -> set[int | None]:
    """Whoever created, edited or submitted this version, and the authors of a version
    never approved that it carries on (``author_ids``, kept by the amendment)."""
    return {record.created_by_id, record.submitted_by_id, *record.author_ids}


def _bad_transition(record: VersionedRecord, step: Step) -> str:
    if step.four_eyes and record.decided_by_id is not None:
        # Two officers deciding at once: the second finds it decided.
        return msg.DECISION_LOST.format(
            label=label(record), status=record.get_status_display().lower()
        )
    return msg.BAD_TRANSITION.format(
        label=label(record),
        status=record.get_status_display().lower(),
        allowed=" or ".join(S(s).label.lower() for s in sorted(step.sources)),
        kind=kind_text(record),
        verb=step.refused_as,
    )


FOUR_EYES_GUARD = four_eyes_guard(
    authors,
    own_work=lambda record: msg.FOUR_EYES_OWN_WORK.format(kind=kind_text(record)),
    password_setter=lambda record: msg.FOUR_EYES_PASSWORD_SETTER.format(kind=kind_text(record)),
)


def _before_sunset(_record, _actor) -> None:
    if pa_today() >= SUNSET:
        raise Conflict(msg.APPROVAL_AFTER_SUNSET)


# Nothing is approved under § 617b.8 on or after its sunset (a Pennsylvania date).
BEFORE_SUNSET = Guard(name="before the sunset", shown=lambda *_: True, check=_before_sunset)


def _latest_without_open_version(record: VersionedRecord, versions) -> str | None:
    """Why ``record`` cannot be amended given its series (newest first), or None."""
    latest = max(versions, key=lambda version: version.version)
    if latest.pk != record.pk:
        return msg.NOT_LATEST_VERSION.format(version=latest.version)
    open_version = next((v for v in versions if v.status in OPEN_STATUSES), None)
    if open_version is not None:
        return msg.OPEN_VERSION_EXISTS.format(
            kind=kind_text(record),
            version=open_version.version,
            status=open_version.get_status_display().lower(),
        )
    return None


def _check_amendable(record: VersionedRecord, _actor) -> None:
    # The whole series, locked: of two amendments started at once, one is refused.
    series = list(type(record).objects.select_for_update().filter(series=record.series))
    refusal = _latest_without_open_version(record, series)
    if refusal is not None:
        raise Conflict(refusal)


# Only the latest version is amended, and only while no version of the series is open.
AMENDABLE = Guard(
    name="latest, with no open version",
    shown=lambda record, _user, versions: (
        not versions or _latest_without_open_version(record, versions) is None
    ),
    check=_check_amendable,
)

RECORD_WORKFLOW = Workflow(
    statuses=RecordStatus,
    bad_transition=_bad_transition,
    steps=(
        Step("create", "create", frozenset(), S.DRAFT, Action.DRAFT, posted=False),
        Step(
            "edit",
            "update",
            frozenset({S.DRAFT}),
            S.DRAFT,
            Action.DRAFT,
            refused_as="edited",
            posted=False,
        ),
        Step(
            "submit",
            "submit",
            frozenset({S.DRAFT}),
            S.SUBMITTED,
            Action.DRAFT,
            label="Submit for review",
            done="submitted",
            refused_as="submitted",
        ),
        Step(
            "approve",
            "approve",
            frozenset({S.SUBMITTED}),
            S.APPROVED,
            Action.DECIDE,
            label="Approve",
            done="approved",
            refused_as="approved",
            reason=Reason.OPTIONAL,
            four_eyes=True,
            guards=(FOUR_EYES_GUARD, BEFORE_SUNSET),
            changes_tables=True,
        ),
        Step(
            "request-changes",
            "request_changes",
            frozenset({S.SUBMITTED}),
            S.CHANGES_REQUESTED,
            Action.DECIDE,
            label="Request changes",
            done="sent back for changes",
            refused_as="sent back for changes",
            reason=Reason.REQUIRED,
            four_eyes=True,
            guards=(FOUR_EYES_GUARD,),
        ),
        Step(
            "reject",
            "reject",
            frozenset({S.SUBMITTED}),
            S.REJECTED,
            Action.DECIDE,
            label="Reject",
            done="rejected",
            refused_as="rejected",
            reason=Reason.REQUIRED,
            four_eyes=True,
            guards=(FOUR_EYES_GUARD,),
            danger=True,
            confirm=(
                "Reject this version? A rejected version is closed for good: "
                "a change needs a new amendment."
            ),
        ),
        Step(
            "withdraw",
            "withdraw",
            # A superseded version still plays where an approved rules submission lists it
            # (reading:supersede): withdrawing it takes those tables dark, by choice.
            frozenset({S.APPROVED, S.SUPERSEDED}),
            S.WITHDRAWN,
            Action.WITHDRAW,
            label="Withdraw approval",
            done="withdrawn",
            refused_as="withdrawn",
            reason=Reason.REQUIRED,
            danger=True,
            changes_tables=True,
            confirm=(
                "Withdraw this approval? Tables that use it close at once, "
                "and it cannot be approved again."
            ),
        ),
        Step(
            # From any status: the guard names an open version or a later one.
            "amend",
            "amend",
            frozenset(RecordStatus),
            None,
            Action.DRAFT,
            label="Amend (start a new version)",
            done="drafted",
            refused_as="amended",
            guards=(AMENDABLE,),
        ),
        # Taken by the system: approving a version supersedes the series' approved one;
        # the midnight job expires what its expiry date (or the sunset) ends.
        Step(
            "supersede",
            "supersede",
            frozenset({S.APPROVED}),
            S.SUPERSEDED,
            None,
            refused_as="superseded",
            changes_tables=True,
        ),
        Step(
            "expire",
            "expire",
            frozenset({S.APPROVED}),
            S.EXPIRED,
            None,
            refused_as="expired",
            changes_tables=True,
        ),
    ),
)
