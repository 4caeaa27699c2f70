"""Query filters of the compliance records' and offerings' API lists."""

from __future__ import annotations

import django_filters
from django import forms
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from portal.compliance.models import (
    Layout,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
)
from portal.core.validation import MAX_ID


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(django_filters.NumberFilter):
    """A whole number id: ``holder=1.5`` is refused, not rounded; so is one no column holds."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class RecordFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=RecordStatus.choices)
    holder = IdFilter(field_name="holder_id")
    series = django_filters.UUIDFilter()
    version = IdFilter()


class LayoutFilter(RecordFilter):
    class Meta:
        model = Layout
        fields = ["status", "holder", "series", "version"]


class PaytableFilter(RecordFilter):
    class Meta:
        model = Paytable
        fields = ["status", "holder", "series", "version"]


class RulesSubmissionFilter(RecordFilter):
    class Meta:
        model = RulesSubmission
        fields = ["status", "holder", "series", "version"]


class OfferingFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=OfferingStatus.choices)
    holder = IdFilter(field_name="holder_id")
    rules_submission = IdFilter(field_name="rules_submission_id")
    layout = IdFilter(field_name="layout_id")
    paytable = IdFilter(field_name="paytable_id")

    class Meta:
        model = Offering
        fields = ["status", "holder", "rules_submission", "layout", "paytable"]
