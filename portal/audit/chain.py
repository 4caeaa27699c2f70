"""Writing to and verifying the audit chain. Pure functions of the stored fields."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from portal.audit.models import GENESIS_HASH, AuditEvent
from portal.core.hashing import canonical_digest, utc_text

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
    payload["occurred_at"] = utc_text(payload["occurred_at"])
    return canonical_digest(payload)


def digest_of(event: AuditEvent) -> str:
    return event_digest({name: getattr(event, name) for name in HASHED_FIELDS})


@dataclass(frozen=True)
class ChainReport:
    checked: int
    broken_sequence: int | None = None
    broken_id: int | None = None
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_sequence is None


def verify(events: Iterable[AuditEvent], head: tuple[int, str] | None = None) -> ChainReport:
    """Walk events in sequence order; report the first that breaks the chain.

    ``head`` is the recorded (sequence, hash) the walk must end on, so the deletion of
    the newest events shows too.
    """
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
        if problem:
            return ChainReport(checked, event.sequence, event.pk, problem)
        checked += 1
        expected_prev = event.hash
        expected_sequence += 1
    if head is not None and head != (expected_sequence - 1, expected_prev):
        return ChainReport(
            checked,
            expected_sequence,
            None,
            f"the chain ends at event #{expected_sequence - 1} but its recorded head is "
            f"#{head[0]}: the newest events are missing",
        )
    return ChainReport(checked)


def stored_head() -> tuple[int, str]:
    from portal.audit.models import AuditHead

    stored = AuditHead.objects.filter(pk=1).values_list("sequence", "hash").first()
    return stored or (0, GENESIS_HASH)


def verify_stored() -> ChainReport:
    """The whole stored chain, walked from the first event to the recorded head."""
    events = AuditEvent.objects.order_by("sequence").iterator(chunk_size=2000)
    return verify(events, stored_head())
