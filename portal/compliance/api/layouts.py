"""``/api/layouts/``: table layouts and their wheels, for Bureau approval (§ 601a.10(a),
§ 617b.8(b), (c)). Create and update take JSON or a multipart form with the artwork file."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser

import jinzi
from portal.api.fields import ChangesInput, StrictInput, WholeNumberField
from portal.api.parsers import JSONParser
from portal.compliance.api.descriptions import record_descriptions
from portal.compliance.api.fields import ReasonField, WheelOrderField
from portal.compliance.api.workflow import (
    RECORD_FIELDS,
    RecordSerializer,
    RecordViewSet,
    holder_for_create,
    with_impact,
)
from portal.compliance.filtersets import LayoutFilter
from portal.compliance.models import Layout
from portal.compliance.selectors import records_for
from portal.compliance.services.layouts import (
    layout_create,
    layout_update,
)

# The portal page that shows a layout's artwork; until it exists the link is left out.
ARTWORK_ROUTE = "compliance:layout-artwork"

COLOURS_SCHEMA = {
    "type": "object",
    "description": "Each number's colour on this wheel: 0 white, then red and black "
    "alternately, starting from first_colour.",
    "additionalProperties": {"type": "string", "enum": [c.value for c in jinzi.Colour]},
    "example": {"0": "white", "1": "red", "2": "black"},
}


@extend_schema_field(
    {
        "type": "string",
        "enum": [jinzi.Colour.RED.value, jinzi.Colour.BLACK.value],
        "description": "Colour of the compartment after 0 (§ 617b.8(c)); the others "
        "alternate from it. A new layout is red first unless given.",
    }
)
class FirstColourField(serializers.Field):
    """Passed on as given: whether it is red or black is jinzi's to say, citing (c)."""

    def validate_empty_values(self, data):
        # null is no colour either: it goes to jinzi too, and is refused citing (c).
        if data is None:
            return False, data
        return super().validate_empty_values(data)

    def to_internal_value(self, data):
        return data

    def to_representation(self, value) -> str:
        return str(value)


class LayoutSerializer(RecordSerializer):
    wheel_order = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    # The same field as the input's, so the schema has one enum for it.
    first_colour = FirstColourField(read_only=True)
    colours = serializers.SerializerMethodField()
    artwork_url = serializers.SerializerMethodField(
        help_text="Left out while the layout has no artwork or the portal page is not served."
    )

    class Meta:
        model = Layout
        fields = (
            *RECORD_FIELDS,
            "title",
            "wheel_order",
            "first_colour",
            "colours",
            "signage_text",
            "artwork_url",
            "artwork_sha256",
            "artwork_content_type",
            "review_due",
            "reference_number",
            "conditions",
        )
        read_only_fields = fields

    @extend_schema_field(COLOURS_SCHEMA)
    def get_colours(self, layout: Layout) -> dict[str, str] | None:
        try:
            wheel = layout.wheel()
        except jinzi.JinziError:
            return None
        return {str(number): wheel.color(number).value for number in jinzi.NUMBERS}

    @extend_schema_field(OpenApiTypes.URI)
    def get_artwork_url(self, layout: Layout) -> str | None:
        if not layout.artwork:
            return None
        try:
            path = reverse(ARTWORK_ROUTE, kwargs={"pk": layout.pk})
        except NoReverseMatch:
            return None
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def to_representation(self, layout: Layout) -> dict:
        data = super().to_representation(layout)
        if data.get("artwork_url") is None:
            data.pop("artwork_url", None)
        return data


class LayoutCreateInput(StrictInput):
    read_only_from = LayoutSerializer

    holder = WholeNumberField(
        required=False, min_value=1, help_text="A manager's own holder unless given."
    )
    title = serializers.CharField(max_length=200)
    wheel_order = WheelOrderField()
    first_colour = FirstColourField(required=False)
    signage_text = serializers.CharField(required=False, allow_blank=True)
    artwork = serializers.FileField(
        required=False, allow_empty_file=True, help_text="PDF, PNG or SVG (multipart only)."
    )


class LayoutUpdateInput(ChangesInput):
    read_only_from = LayoutSerializer

    title = serializers.CharField(required=False, max_length=200)
    wheel_order = WheelOrderField(required=False)
    first_colour = FirstColourField(required=False)
    signage_text = serializers.CharField(required=False, allow_blank=True)
    artwork = serializers.FileField(required=False, allow_empty_file=True)


class LayoutApproveInput(StrictInput):
    """The Bureau of Gaming Operations' decision, as recorded (§ 601a.10(a))."""

    read_only_from = LayoutSerializer

    reference_number = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default=""
    )
    effective_date = serializers.DateField(required=False, allow_null=True, default=None)
    expiry_date = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="Never after 2028-06-14."
    )
    conditions = serializers.CharField(required=False, allow_blank=True, default="")
    reason = ReasonField()


def _form_or_json(serializer) -> dict:
    return {"application/json": serializer, "multipart/form-data": serializer}


@extend_schema_view(
    create=extend_schema(request=_form_or_json(LayoutCreateInput)),
    partial_update=extend_schema(request=_form_or_json(LayoutUpdateInput)),
    approve=extend_schema(request=with_impact(LayoutApproveInput)),
    amend=extend_schema(responses={201: LayoutSerializer}),
)
class LayoutViewSet(RecordViewSet):
    """Table layouts (§ 617b.8(b), (c)): the wheel's order and colours and the artwork,
    drafted by a holder's manager and approved by compliance under § 601a.10(a)."""

    operation_descriptions = record_descriptions("layout", "layouts", clause="§ 601a.10(a)")
    queryset = Layout.objects.all()
    serializer_class = LayoutSerializer
    filterset_class = LayoutFilter
    parser_classes = [JSONParser, MultiPartParser]
    approve_input = LayoutApproveInput

    def get_queryset(self):
        return records_for(self.request.user, Layout).select_related("decided_by")

    def create(self, request):
        data = self.parse(LayoutCreateInput)
        holder = holder_for_create(request.user, data.pop("holder", None))
        layout = layout_create(actor=request.user, holder=holder, **data)
        return self.respond(layout, status=201)

    def partial_update(self, request, pk=None):
        layout = self.get_object()
        data = self.parse(LayoutUpdateInput)
        return self.respond(layout_update(actor=request.user, layout=layout, **data))
