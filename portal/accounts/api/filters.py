"""Query filters of the accounts API's lists."""

from __future__ import annotations

import django_filters

from portal.accounts.models import CertificateHolder


class HolderFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    licence_number = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = CertificateHolder
        fields = ["name", "licence_number"]
