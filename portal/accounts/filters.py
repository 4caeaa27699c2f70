"""A list filtered by certificate holder, for every app's lists: the holder choice is
offered only to those who see more than their own holder, and holds only what they see."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from portal.access import policy
from portal.access.roles import holder_id_of
from portal.accounts.models import CertificateHolder


def _visible_holders(request) -> QuerySet:
    return policy.visible(request.user, CertificateHolder.objects.order_by("name"))


class HolderScopedFilterSet(django_filters.FilterSet):
    holder = django_filters.ModelChoiceFilter(
        queryset=_visible_holders, label="Holder", empty_label="Any holder"
    )

    def __init__(self, *args, request=None, **kwargs):
        super().__init__(*args, request=request, **kwargs)
        if request is not None and holder_id_of(request.user) is not None:
            del self.filters["holder"]  # a manager sees one holder: theirs
