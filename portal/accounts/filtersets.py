"""The accounts' filters: the holders list of the API, and the holder filter of every app's
lists, offered only to those who see more than their own holder, holding only what they see."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from portal.access import policy
from portal.access.roles import holder_id_of
from portal.accounts.models import CertificateHolder
from portal.core.lists import ListFilterSet


def _visible_holders(request) -> QuerySet:
    return policy.visible(request.user, CertificateHolder.objects.order_by("name"))


class HolderScopedFilterSet(ListFilterSet):
    """A list with a holder choice on its page; a manager, who sees one holder (theirs), has
    none. (An API reading of ``holder`` is the subclass's own ``api_holder``.)"""

    holder = django_filters.ModelChoiceFilter(
        queryset=_visible_holders, label="Holder", empty_label="Any holder"
    )

    def __init__(self, *args, request=None, **kwargs):
        super().__init__(*args, request=request, **kwargs)
        if self.on_page and request is not None and holder_id_of(request.user) is not None:
            self.filters.pop("holder", None)


class HolderFilter(ListFilterSet):
    """``/api/holders/``: by part of the name, or the licence number (any case)."""

    name = django_filters.CharFilter(lookup_expr="icontains")
    licence_number = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = CertificateHolder
        fields = ["name", "licence_number"]
