"""A workflow declared once: the steps an object decided by people may take.

Each ``Step`` says from which statuses it may be taken, the status it leaves, who may take
it (an ``Action`` of the policy, or nobody: a step the system takes, such as an expiry),
whether a second person must take it (four-eyes) and what else must hold (its guards).
A ``Workflow`` is the table of one kind of object. The services enforce it, and the
buttons, the decision panel, the API actions, the admin actions and the audit events'
names read it, so a move exists in one place.

Generic over what is decided: a compliance record today; a voided round or a dispute
adjustment can declare its own table with the same parts. Only the policy is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum, StrEnum

from portal.access.policy import Action, denial
from portal.core.errors import Conflict, NotPermitted, ValidationFailed


class Reason(StrEnum):
    """Whether a step asks why it is taken."""

    NONE = "none"
    OPTIONAL = "optional"
    REQUIRED = "required"


REASON_REQUIRED = "give a reason"


@dataclass(frozen=True)
class Refusal:
    """Why a guard refuses a step, in its own words: ``rule`` is the message its ``check``
    raises; ``cause`` names which of its conditions failed, so a page can add a sentence of
    its own addressed to the user, beside the rule."""

    cause: str
    rule: str


@dataclass(frozen=True)
class Guard:
    """A condition a step needs beyond status and role.

    ``shown``: whether the step may be offered to ``user`` (cheap: it decides buttons on
    every page view; ``context`` is what the page read, e.g. a record's versions).
    ``check``: raises the domain error that refuses the step, when it is taken.
    ``early``: checked before the status (who may decide comes before what is left to decide).
    ``explain``: the ``Refusal`` that ``check`` would raise for ``actor`` now, or None; where
    a guard has one, the pages say why a step is not theirs from it, not from rules of their
    own (the guard that refuses is the one that explains).
    """

    name: str
    shown: Callable[[object, object, object], bool]
    check: Callable[[object, object], None]
    early: bool = False
    explain: Callable[[object, object], Refusal | None] | None = None


@dataclass(frozen=True)
class Step:
    name: str  # as posted by a page and named in an API address: "request-changes"
    verb: str  # the service's suffix and the audit action's verb: "request_changes"
    sources: frozenset[str]  # the statuses it may be taken from
    target: str | None  # the status it leaves; None: the object keeps its status
    permission: Action | None  # who may take it; None: only the system
    label: str = ""  # the button
    done: str = ""  # "approved", as in "Paytable v2 approved."
    refused_as: str = ""  # "approved", as in "only a submitted paytable can be approved"
    reason: Reason = Reason.NONE
    four_eyes: bool = False  # taken by a second person, never by an author
    danger: bool = False
    confirm: str = ""  # asked in the browser before the step is posted
    guards: tuple[Guard, ...] = ()
    changes_tables: bool = False  # may open or close tables: its impact is worth showing
    posted: bool = True  # taken with a button on the object (not on a form of its own)

    @property
    def by_people(self) -> bool:
        return self.permission is not None

    def allows(self, status: str) -> bool:
        return status in self.sources


@dataclass(frozen=True)
class Workflow:
    """One kind of object's table of steps, and the checks every interface shares."""

    statuses: type[Enum]
    steps: tuple[Step, ...]
    status_of: Callable[[object], str] = field(default=lambda obj: obj.status)
    # The refusal of a step the status does not allow, for the object and the step.
    bad_transition: Callable[[object, Step], str] = field(
        default=lambda obj, step: f"this is {obj.status}; it cannot be {step.refused_as}"
    )

    def __post_init__(self) -> None:
        names = [step.name for step in self.steps]
        verbs = [step.verb for step in self.steps]
        if len(set(names)) != len(names) or len(set(verbs)) != len(verbs):
            raise ValueError(f"a step is declared twice: {names}")
        for step in self.steps:
            clash = next((o for o in self.steps if o is not step and o.name == step.verb), None)
            if clash is not None:
                raise ValueError(f"step {step.name!r}'s verb is the name of step {clash.name!r}")
        known = set(self.statuses)
        for step in self.steps:
            unknown = set(step.sources) - known
            if unknown or (step.target is not None and step.target not in known):
                raise ValueError(f"step {step.name!r} names an unknown status")

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __getitem__(self, name: str) -> Step:
        for step in self.steps:
            if step.name == name or step.verb == name:
                return step
        raise KeyError(name)

    def get(self, name: str) -> Step | None:
        try:
            return self[name]
        except KeyError:
            return None

    @property
    def people_steps(self) -> tuple[Step, ...]:
        """The steps people take."""
        return tuple(step for step in self.steps if step.by_people)

    @property
    def posted_steps(self) -> tuple[Step, ...]:
        """The steps people take on the object itself: its page's buttons, its API actions,
        the admin's actions (creating and editing have forms of their own)."""
        return tuple(step for step in self.people_steps if step.posted)

    @property
    def decisions(self) -> tuple[Step, ...]:
        """The steps only a second person takes: one decision panel offers them together."""
        return tuple(step for step in self.steps if step.four_eyes)

    @property
    def verbs(self) -> tuple[str, ...]:
        return tuple(step.verb for step in self.steps)

    def moves(self) -> Iterable[tuple[str, Step, str | None]]:
        """Every (from status, step, to status) the table allows."""
        for step in self.steps:
            for source in sorted(step.sources):
                yield source, step, step.target

    # --- taking a step --------------------------------------------------------------------

    def check(self, step: Step, obj, actor) -> None:
        """Refuse ``step`` on ``obj`` by ``actor`` unless the table allows it now: the role
        (403), the early guards (four-eyes), the status (409), then the other guards."""
        if step.permission is not None:
            refusal = denial(actor, step.permission, obj)
            if refusal is not None:
                raise NotPermitted(refusal)
        for guard in step.guards:
            if guard.early:
                guard.check(obj, actor)
        self.expect_status(obj, step)
        for guard in step.guards:
            if not guard.early:
                guard.check(obj, actor)

    def expect_status(self, obj, step: Step) -> None:
        if not step.allows(self.status_of(obj)):
            raise Conflict(self.bad_transition(obj, step))

    def refusal(self, obj, actor, steps: Iterable[Step] | None = None) -> Refusal | None:
        """Why ``actor`` may not take ``steps`` (the decisions, unless named) on ``obj`` now,
        as the first of their guards that explains itself and refuses says it; None when
        none refuses. Reads what those guards' checks read."""
        seen: set[str] = set()
        for step in self.decisions if steps is None else steps:
            for guard in step.guards:
                if guard.explain is None or guard.name in seen:
                    continue
                seen.add(guard.name)
                refused = guard.explain(obj, actor)
                if refused is not None:
                    return refused
        return None

    def available(self, user, obj, context=None) -> set[str]:
        """The names of the steps ``user`` may be offered on ``obj`` now; each is checked
        again in full when taken."""
        status = self.status_of(obj)
        return {
            step.name
            for step in self.people_steps
            if step.allows(status)
            and denial(user, step.permission, obj) is None
            and all(guard.shown(obj, user, context) for guard in step.guards)
        }


def require_reason(step: Step, reason: str) -> str:
    """The reason, stripped; refused when the step requires one and none was given."""
    reason = (reason or "").strip()
    if step.reason is Reason.REQUIRED and not reason:
        raise ValidationFailed.on("reason", REASON_REQUIRED)
    return reason
