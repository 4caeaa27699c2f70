"""Filters on the audit trail, shared by the portal page, the API and the CSV export."""

from __future__ import annotations

import django_filters

from portal.audit.models import AuditEvent
from portal.core.lists import Search, Sort


class AuditEventFilter(django_filters.FilterSet):
    since = django_filters.IsoDateTimeFilter(field_name="occurred_at", lookup_expr="gte")
    until = django_filters.IsoDateTimeFilter(field_name="occurred_at", lookup_expr="lt")
    actor = django_filters.CharFilter(field_name="actor_username", lookup_expr="iexact")
    action = django_filters.CharFilter(field_name="action", lookup_expr="istartswith")
    object_type = django_filters.CharFilter(field_name="object_type")
    object_id = django_filters.CharFilter(field_name="object_id")
    request_id = django_filters.CharFilter(field_name="request_id")
    q = Search("actor_username", "action", "reason", label="Search actor, action or reason")
    sort = Sort(
        sequence="sequence",
        actor="actor_username",
        action="action",
        object="object_type",
    )

    class Meta:
        model = AuditEvent
        fields = [
            "since",
            "until",
            "actor",
            "action",
            "object_type",
            "object_id",
            "request_id",
            "q",
            "sort",
        ]


def filters_given(query) -> dict[str, str]:
    """The trail's filters as the request gave them (for the record of an export)."""
    return {name: query.get(name, "") for name in AuditEventFilter.base_filters}
