"""Which source turns an audit event into notices, by the event's action."""

from __future__ import annotations

from collections.abc import Callable

from portal.audit.models import AuditEvent
from portal.game.models import CorrectionKind
from portal.notifications.kinds import Notice
from portal.notifications.sources.money import (
    deposit_made,
    limits_changed,
    round_corrected,
    withdrawal_changed,
)
from portal.notifications.sources.players import (
    account_accessed,
    complaint_changed,
    list_attention,
    player_listed,
)
from portal.notifications.sources.records import (
    DECISIONS,
    RECORDS,
    record_decided,
    record_submitted,
    table_changed,
)

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
