"""A record's history: each of its audit events with the values it changed, before and
after, as people read them (names for user ids, Pennsylvania time for instants)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from portal.compliance.presenters.diffs import MISSING, text_of
from portal.core.padates import pa_time
from portal.core.pictures import ABSENT, compare


@dataclass(frozen=True)
class FieldChange:
    """One value an audit event changed: where it sits in the record's picture, and its
    value before and after."""

    field: str  # "status", "odds.straight", "games[0].chip_unit"
    before: str
    after: str


_USER_FIELDS = ("created_by_id", "submitted_by_id", "decided_by_id", "actor_id")


def _user_ids(pictures) -> set[int]:
    ids: set[int] = set()
    for picture in pictures:
        for key, value in picture.items():
            if key in _USER_FIELDS and isinstance(value, int):
                ids.add(value)
            elif key == "author_ids" and isinstance(value, list):
                ids.update(v for v in value if isinstance(v, int))
    return ids


def _instant(value: str) -> str:
    """A stored instant (ISO 8601, UTC) in Pennsylvania time with its zone
    (reading:pennsylvania-dates)."""
    try:
        instant = datetime.datetime.fromisoformat(value)
    except ValueError:
        return value
    if instant.tzinfo is None:
        return value
    return pa_time(instant).strftime("%Y-%m-%d %H:%M:%S %Z")


def _shown(path: str, value, usernames: dict[int, str]) -> str:
    if path.endswith("_at") and isinstance(value, str) and value:
        return _instant(value)
    if path in _USER_FIELDS and isinstance(value, int):
        return usernames.get(value, f"user #{value}")
    if path == "author_ids" and isinstance(value, list):
        return ", ".join(usernames.get(v, f"user #{v}") for v in value) or MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    return text_of(value)


def history_rows(events) -> list[dict]:
    """Each audit event with the values it changed, before and after (an event without a
    before picture, such as a creation, changed nothing that existed)."""
    events = list(events)
    pictures = [p for e in events for p in (e.before, e.after) if isinstance(p, dict)]
    ids = _user_ids(pictures)
    users = get_user_model().objects.filter(pk__in=ids) if ids else []
    usernames = {user.pk: user.get_username() for user in users}
    rows = []
    for event in events:
        before, after = event.before or {}, event.after or {}
        changes = []
        if before:
            for change in sorted(compare(before, after, nested=True), key=lambda c: c.path):
                if change.changed:
                    old = None if change.before is ABSENT else change.before
                    new = None if change.after is ABSENT else change.after
                    changes.append(
                        FieldChange(
                            change.path,
                            _shown(change.path, old, usernames),
                            _shown(change.path, new, usernames),
                        )
                    )
        changed = sorted({change.field.split(".")[0].split("[")[0] for change in changes})
        rows.append({"event": event, "changes": changes, "changed": changed})
    return rows
