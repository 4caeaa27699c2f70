"""The audit trail as a list (§ 811a.7), declared once for the portal page, the API and the
CSV export: its columns, filters and sorts."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Q

from portal.audit.labels import action_choices, actions_called, kind_choices
from portal.audit.models import AuditEvent
from portal.core.lists import Column, Columns, ListFilterSet, Search, Sort

# The CSV names the zone of its one time column: instants are exported in UTC, ISO 8601
# with their offset (reading:pennsylvania-dates); every other column is the event's field.
AUDIT_COLUMNS = Columns(
    Column("sequence", "#", lambda e: e.sequence, sort="sequence", desc_first=True),
    Column("when", "When", lambda e: e.occurred_at.isoformat(), csv="occurred_at_utc"),
    Column("actor", "Who", lambda e: e.actor_username, csv="actor_username", sort="actor_username"),
    Column("action", "What happened", lambda e: e.action, sort="action"),
    Column("object", "To what", lambda e: e.object_type, csv="object_type", sort="object_type"),
    Column("object_id", value=lambda e: e.object_id),
    Column("object_version", value=lambda e: e.object_version),
    Column("reason", "Reason", lambda e: e.reason),
    Column("request", "Request", lambda e: e.request_id, csv="request_id"),
    Column("before", value=lambda e: e.before),
    Column("after", value=lambda e: e.after),
    Column("prev_hash", value=lambda e: e.prev_hash),
    Column("hash", value=lambda e: e.hash),
)


def _instant(label: str) -> dict:
    return {"label": label, "widget": forms.DateTimeInput({"type": "datetime-local"})}


class ActionSearch(Search):
    """The trail's search: a word also finds the events whose action the list shows by a
    label holding it ("Approved", "Signed in"), not only by its stored name."""

    def shown_as(self, word: str) -> Q:
        return Q(action__in=actions_called(word))


class AuditEventFilter(ListFilterSet):
    """The trail, on its page and in the API alike."""

    since = django_filters.IsoDateTimeFilter(
        field_name="occurred_at", lookup_expr="gte", **_instant("From (Pennsylvania time)")
    )
    until = django_filters.IsoDateTimeFilter(
        field_name="occurred_at", lookup_expr="lt", **_instant("Before (Pennsylvania time)")
    )
    actor = django_filters.CharFilter(
        field_name="actor_username", lookup_expr="iexact", label="Who (username)"
    )
    # The page offers what happened and to what by name; the API reads the codes as given
    # (an action by its start: "layout." is every layout event).
    action = django_filters.ChoiceFilter(
        field_name="action",
        lookup_expr="istartswith",
        choices=action_choices,
        label="What happened",
        empty_label="Anything",
    )
    object_type = django_filters.ChoiceFilter(
        field_name="object_type",
        choices=kind_choices,
        label="Kind of record",
        empty_label="Any kind",
    )
    # On the page, carried from an event's "every event of this" link, never typed.
    object_id = django_filters.CharFilter(field_name="object_id", widget=forms.HiddenInput)
    request_id = django_filters.CharFilter(field_name="request_id", label="Request id")
    api_action = django_filters.CharFilter(
        field_name="action", lookup_expr="istartswith", label="Action starts with"
    )
    api_object_type = django_filters.CharFilter(field_name="object_type", label="Object type")
    api_object_id = django_filters.CharFilter(field_name="object_id", label="Object id")
    q = ActionSearch("actor_username", "action", "reason", label="Search who, action or reason")
    sort = Sort(AUDIT_COLUMNS)

    page_parameters = (
        "since",
        "until",
        "actor",
        "action",
        "object_type",
        "object_id",
        "request_id",
        "q",
        "sort",
    )
    api_parameters = page_parameters

    class Meta:
        model = AuditEvent
        fields: list[str] = []


def filters_given(query) -> dict[str, str]:
    """The trail's filters as the request gave them (for the record of an export)."""
    return {name: query.get(name, "") for name in AuditEventFilter.base_filters}
