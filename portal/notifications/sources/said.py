"""The words every source of notices shares: when, by whom, why, for which holder."""

from __future__ import annotations

from portal.accounts.models import CertificateHolder
from portal.audit.models import AuditEvent
from portal.core.padates import pa_stamp


def when(event: AuditEvent) -> str:
    return pa_stamp(event.occurred_at)


def reason_said(text: str) -> str:
    return f"\n\nReason given: {text.strip()}" if text and text.strip() else ""


def actor_said(event: AuditEvent) -> str:
    return "the system" if event.actor_id is None else event.actor_username


def holder_name(holder_id) -> str:
    return CertificateHolder.objects.filter(pk=holder_id).values_list("name", flat=True).first()


def except_actor(ids, event: AuditEvent) -> frozenset[int]:
    return frozenset(ids) - {event.actor_id}
