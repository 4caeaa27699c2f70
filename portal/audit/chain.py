"""Writing to and verifying the audit chain. Pure functions of the stored fields."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import QuerySet

from portal.audit.models import GENESIS_HASH, AuditEvent
from portal.core.hashing import canonical_digest, hashed_instant_text

HASHED_FIELDS = (
    "sequence",
    "occurred_at",
    "actor_id",
    "actor_username",
    "action",
    "object_type",
    "object_id",
    "object_version",
    "before",
    "after",
    "reason",
    "request_id",
    "prev_hash",
)


def event_digest(fields: dict[str, Any]) -> str:
    """SHA-256 over a canonical JSON of the event's content and its predecessor's hash."""
    payload = {name: fields[name] for name in HASHED_FIELDS}
    payload["occurred_at"] = hashed_instant_text(payload["occurred_at"])
    return canonical_digest(payload)


def digest_of(event: AuditEvent) -> str:
    return event_digest({name: getattr(event, name) for name in HASHED_FIELDS})


@dataclass(frozen=True)
class ChainReport:
    checked: int
    broken_sequence: int | None = None
    broken_id: int | None = None
    problem: str = ""
    head: tuple[int, str] | None = None  # the head the walk had to end on, if one was given

    @property
    def ok(self) -> bool:
        return self.broken_sequence is None


def verify(
    events: Iterable[AuditEvent],
    head: tuple[int, str] | None = None,
    kept: Iterable[tuple[int, str]] = (),
) -> ChainReport:
    """Walk events in sequence order; report the first that breaks the chain.

    ``head`` is the recorded (sequence, hash) the walk must end on, so the deletion of
    the newest events shows too. ``kept`` are heads noted down outside the system (a daily
    report prints one): the chain must pass through each, so whoever can rewrite both the
    events and the recorded head (or an exported file) still cannot hide a change or a
    truncated tail from them.
    """
    return replace(_walk(events, head, kept), head=head)


def _walk(
    events: Iterable[AuditEvent], head: tuple[int, str] | None, kept: Iterable[tuple[int, str]]
) -> ChainReport:
    kept_heads = dict(kept)
    expected_prev = GENESIS_HASH
    expected_sequence = 1
    checked = 0
    for event in events:
        problem = ""
        if event.sequence != expected_sequence:
            problem = (
                f"sequence {event.sequence} follows {expected_sequence - 1}: an event is missing"
            )
        elif event.prev_hash != expected_prev:
            problem = "its prev_hash does not match the hash of the event before it"
        elif digest_of(event) != event.hash:
            problem = "its content does not match its hash (the event was altered)"
        elif kept_heads.get(event.sequence, event.hash) != event.hash:
            problem = (
                f"its hash is not {kept_heads[event.sequence]}, the head kept outside the "
                "system: the chain was rewritten from here or before"
            )
        if problem:
            return ChainReport(checked, event.sequence, event.pk, problem)
        checked += 1
        expected_prev = event.hash
        expected_sequence += 1
    last = expected_sequence - 1
    if head is not None and head != (last, expected_prev):
        return ChainReport(
            checked,
            expected_sequence,
            None,
            f"the chain ends at event #{last} but its recorded head is "
            f"#{head[0]}: the newest events are missing",
        )
    beyond = [sequence for sequence in kept_heads if sequence > last]
    if beyond:
        return ChainReport(
            checked,
            expected_sequence,
            None,
            f"the chain ends at event #{last} but a head kept outside the system is "
            f"#{max(beyond)}: the newest events are missing",
        )
    return ChainReport(checked)


def stored_head() -> tuple[int, str]:
    from portal.audit.models import AuditHead

    stored = AuditHead.objects.filter(pk=1).values_list("sequence", "hash").first()
    return stored or (0, GENESIS_HASH)


def in_sequence(events: QuerySet[AuditEvent]) -> Iterator[AuditEvent]:
    """The events oldest first, streamed: never the whole table in memory."""
    return events.order_by("sequence").iterator(chunk_size=2000)


def verify_stored(kept: Iterable[tuple[int, str]] = ()) -> ChainReport:
    """The whole stored chain, walked from the first event to the recorded head (and through
    every head in ``kept``). The head is read first and the walk stops there: events written
    meanwhile belong to the next verification, not to a false alarm."""
    head = stored_head()
    return verify(in_sequence(AuditEvent.objects.filter(sequence__lte=head[0])), head, kept)
