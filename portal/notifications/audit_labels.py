"""The audit trail's words for what the notifications app writes: a person's choice of how
each kind of notice reaches them (in the portal, by email each time, or in a daily digest)."""

from __future__ import annotations

from portal.audit import labels

# After the reports, before the trail's own exports.
ORDER = 60


def register() -> None:
    labels.register_actions(
        {"notification_preferences.update": "Notification choices changed"}, order=ORDER
    )
    labels.register_action_groups({"notification_preferences": "Notification choices"})
    labels.register_object_kinds(["notification_preferences"])
