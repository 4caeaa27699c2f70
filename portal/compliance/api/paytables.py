"""``/api/paytables/``: payout odds per wager kind (§ 617b.8(f)) and their exact house edge."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.api.fields import ChangesInput, StrictInput, WholeNumberField
from portal.compliance.api.descriptions import record_descriptions
from portal.compliance.api.fields import OddsField, ReasonField
from portal.compliance.api.workflow import (
    RECORD_FIELDS,
    RecordSerializer,
    RecordViewSet,
    edge_acknowledged_field,
    holder_for_create,
    with_impact,
)
from portal.compliance.filtersets import PaytableFilter
from portal.compliance.models import Paytable
from portal.compliance.presenters.edge import edge_report
from portal.compliance.presenters.par import checked_sheet, stakes_asked
from portal.compliance.selectors import records_for
from portal.compliance.services.paytables import (
    paytable_create,
    paytable_update,
)


class KindEdgeSerializer(serializers.Serializer):
    """One wager kind's odds and exact house edge (a range when its spots differ)."""

    kind = serializers.CharField()
    label = serializers.CharField()
    odds = serializers.CharField(help_text='"11 to 1"')
    spots = serializers.IntegerField()
    house_edge = serializers.CharField(help_text='Exact: "1/26", or "1/26 – 1/13".')
    house_edge_percent = serializers.CharField(help_text="Rounded, for display.")
    lowest = serializers.CharField()
    highest = serializers.CharField()
    flagged = serializers.BooleanField(help_text="Some spot gives the house no edge.")


class HoldBandSerializer(serializers.Serializer):
    """The house edge of one group of wagers: lowest and highest over its spots."""

    label = serializers.CharField()
    spots = serializers.IntegerField()
    house_edge = serializers.CharField(help_text='Exact: "1/26", or "-1/26 – 1/26".')
    house_edge_percent = serializers.CharField(help_text="Rounded, for display.")
    lowest = serializers.CharField(help_text="Exact fraction.")
    highest = serializers.CharField(help_text="Exact fraction.")


class HoldRangeSerializer(serializers.Serializer):
    """The range of hold: a period's expected hold follows the mix of bets, each stake
    earning the edge of its spot, so it lies between these (reading:expected-win)."""

    not_covering_zero = HoldBandSerializer(
        help_text="Wagers not covering 0, which get half back on 0 (§ 617b.8(g)(2)): "
        "1/26 under the minimum paytable."
    )
    covering_zero = HoldBandSerializer(
        help_text="Wagers covering 0 (straight 0, splits 0-1/0-2/0-3, three numbers): "
        "1/13 under the minimum paytable."
    )


class HouseEdgeSerializer(serializers.Serializer):
    per_kind = KindEdgeSerializer(many=True)
    hold_range = HoldRangeSerializer(
        help_text="Replaces theoretical_hold (a mean over the 52 spots, which no mix of "
        "bets earns)."
    )
    flagged = serializers.BooleanField(help_text="Approval needs an override reason.")
    flagged_spots = serializers.ListField(child=serializers.CharField())


class PaytableSerializer(RecordSerializer):
    odds = serializers.DictField(
        child=serializers.CharField(),
        read_only=True,
        help_text='Stored form: "N" or "N/D" per wager kind.',
    )
    house_edge = serializers.SerializerMethodField()

    class Meta:
        model = Paytable
        fields = (*RECORD_FIELDS, "name", "odds", "house_edge", "edge_override_reason")
        read_only_fields = fields

    @extend_schema_field(HouseEdgeSerializer)
    def get_house_edge(self, paytable: Paytable) -> dict:
        return edge_report(paytable).as_json()


class PaytableCreateInput(StrictInput):
    read_only_from = PaytableSerializer

    holder = WholeNumberField(
        required=False, min_value=1, help_text="A manager's own holder unless given."
    )
    name = serializers.CharField()
    odds = OddsField()


class PaytableUpdateInput(ChangesInput):
    read_only_from = PaytableSerializer

    name = serializers.CharField(required=False)
    odds = OddsField(required=False)


class PaytableApproveInput(StrictInput):
    read_only_from = PaytableSerializer

    reason = ReasonField()
    override_reason = ReasonField(
        help_text="Needed when the paytable leaves the house an edge of zero or less."
    )
    edge_acknowledged = edge_acknowledged_field()


@extend_schema_view(
    create=extend_schema(request=PaytableCreateInput),
    partial_update=extend_schema(request=PaytableUpdateInput),
    approve=extend_schema(request=with_impact(PaytableApproveInput)),
    amend=extend_schema(responses={201: PaytableSerializer}),
)
class PaytableViewSet(RecordViewSet):
    """Paytables (§ 617b.8(f), (g)): the odds each wager pays, drafted by a holder's manager
    and approved by compliance."""

    operation_descriptions = {
        **record_descriptions("paytable", "paytables", clause="§ 617b.8(f)"),
        "list": (
            "The paytables you may see, every version, newest change first, each with its "
            "exact house edge. Compliance officers and auditors see every holder's; a "
            "manager sees their own holder's. Filter by status."
        ),
    }
    queryset = Paytable.objects.all()
    serializer_class = PaytableSerializer
    filterset_class = PaytableFilter
    approve_input = PaytableApproveInput

    def get_queryset(self):
        return records_for(self.request.user, Paytable).select_related("decided_by")

    def create(self, request):
        data = self.parse(PaytableCreateInput)
        holder = holder_for_create(request.user, data.pop("holder", None))
        paytable = paytable_create(actor=request.user, holder=holder, **data)
        return self.respond(paytable, status=201)

    def partial_update(self, request, pk=None):
        paytable = self.get_object()
        data = self.parse(PaytableUpdateInput)
        return self.respond(paytable_update(actor=request.user, paytable=paytable, **data))

    @extend_schema(
        summary="The paytable's PAR sheet",
        description=(
            "Per wager kind, apart for the spots covering 0: the chances of a win, of "
            "zero's half-back (§ 617b.8(g)(2)) and of a loss; the pay, return to player and "
            "house edge as paid over the stakes (rounded up, lowest and highest); the hit "
            "frequencies and the standard deviation per unit staked; then the hold of one "
            "unit on every spot over 1,000 to 1,000,000 rounds with its 95 % band. Exact "
            'figures as fractions ("n/d"), square roots as decimals. The stakes are the '
            "latest rules submission's listing, or every even stake to $1,000, unless "
            "the query's unit, lowest and highest (in cents) say otherwise."
        ),
        parameters=[
            OpenApiParameter(name, int, required=False, description=text)
            for name, text in (
                ("unit", "The step between stakes, in cents (even)."),
                ("lowest", "The lowest stake, in cents (a multiple of the unit)."),
                ("highest", "The highest stake, in cents (a multiple of the unit)."),
            )
        ],
        responses={200: OpenApiTypes.OBJECT},
        filters=False,
    )
    @action(detail=True, methods=["get"], url_path="par")
    def par(self, request, pk=None):
        return Response(checked_sheet(self.get_object(), stakes_asked(request.query_params)))
