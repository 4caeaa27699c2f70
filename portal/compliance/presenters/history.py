"""A record's history: each of its audit events as the trail reads it (who by name, what by
its label) with the values it changed, before and after, labelled and shown as people read
them (names for people and records, dollars, Pennsylvania time, Yes/No, "—" for nothing).
The labels are the audit trail's own (``portal.audit.presenters``), so both read alike."""

from __future__ import annotations

from portal.audit.presenters import (
    FieldChange,
    action_label,
    actor_name,
    field_changes,
    field_label,
    load_names,
)

__all__ = ["FieldChange", "history_rows"]


def history_rows(events) -> list[dict]:
    """Each audit event with who did it, what it is called, and the values it changed,
    before and after (an event without a before picture, such as a creation, changed
    nothing that existed). The names its events mention are loaded once for them all."""
    events = list(events)
    names = load_names(events)
    rows = []
    for event in events:
        changes = []
        if event.before:
            found = field_changes(event.before, event.after or {}, names, changed_only=True)
            changes = sorted(found, key=lambda change: change.path)
        tops = dict.fromkeys(change.path.split(".")[0].split("[")[0] for change in changes)
        rows.append(
            {
                "event": event,
                "actor": actor_name(event, names),
                "action": action_label(event.action),
                "changes": changes,
                "changed": sorted(field_label(top) for top in tops),
            }
        )
    return rows
