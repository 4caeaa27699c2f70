"""``/api/offerings/``: Jinzi Roulette tables, and whether each is live right now (§ 617b.8(a))."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.decorators import action

from portal.access.policy import Action, may, visible
from portal.api.base import ApiViewSet
from portal.api.fields import ChangesInput, StrictInput, VisibleRecordField, WholeNumberField
from portal.compliance import selectors
from portal.compliance.api.fields import OfferingStatusField
from portal.compliance.api.workflow import ReasonInput, holder_for_create
from portal.compliance.filtersets import OfferingFilter
from portal.compliance.models import IN_SERVICE, Layout, Offering, Paytable, RulesSubmission
from portal.compliance.services import offerings as offering_services


class OfferingSerializer(serializers.ModelSerializer):
    holder_name = serializers.CharField(source="holder.name", read_only=True)
    status = OfferingStatusField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True)
    live = serializers.SerializerMethodField(help_text="Players may bet on it now.")
    not_live_reasons = serializers.SerializerMethodField()

    class Meta:
        model = Offering
        fields = (
            "id",
            "holder",
            "holder_name",
            "name",
            "rules_submission",
            "layout",
            "paytable",
            "status",
            "live",
            "not_live_reasons",
            "created_by",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # One evaluation per row serves both fields (one serializer serves a whole page).
        self._liveness_by_pk: dict[int, selectors.Liveness] = {}

    def _liveness(self, offering: Offering) -> selectors.Liveness:
        if offering.pk not in self._liveness_by_pk:
            self._liveness_by_pk[offering.pk] = selectors.offering_is_live(offering)
        return self._liveness_by_pk[offering.pk]

    def get_live(self, offering: Offering) -> bool:
        return self._liveness(offering).live

    def get_not_live_reasons(self, offering: Offering) -> list[str]:
        return list(self._liveness(offering).reasons)


class OfferingCreateInput(StrictInput):
    read_only_from = OfferingSerializer

    holder = WholeNumberField(
        required=False, min_value=1, help_text="A manager's own holder unless given."
    )
    name = serializers.CharField()
    rules_submission = VisibleRecordField(RulesSubmission)
    layout = VisibleRecordField(Layout)
    paytable = VisibleRecordField(Paytable)


class OfferingUpdateInput(ChangesInput):
    read_only_from = OfferingSerializer

    name = serializers.CharField(required=False)
    rules_submission = VisibleRecordField(RulesSubmission, required=False)
    layout = VisibleRecordField(Layout, required=False)
    paytable = VisibleRecordField(Paytable, required=False)


@extend_schema_view(
    create=extend_schema(request=OfferingCreateInput),
    partial_update=extend_schema(request=OfferingUpdateInput),
)
class OfferingViewSet(ApiViewSet):
    """Tables (offerings): a holder's table of Jinzi Roulette on an approved rules
    submission, layout and paytable, and whether it is live (playable) now."""

    operation_descriptions = {
        "list": (
            "The tables you may see, with whether each is live now and, if not, why. "
            "Compliance officers and auditors see every holder's; a manager sees their own "
            "holder's; a player sees every active table. Filter by status."
        ),
        "retrieve": (
            "One table, with whether it is live now and, if not, why (a player: active "
            "tables only)."
        ),
        "create": (
            "Set up a table for a holder on one of its rules submissions, with a layout and "
            "a paytable that submission lists: a manager for their own holder, or a "
            "superuser naming one. It is live only while all three are approved and in force."
        ),
        "partial_update": (
            "Rename an active table, or move it to another rules submission, layout or "
            "paytable of its holder: only the fields you send change."
        ),
        "retire": (
            "Retire the table for good, saying why: it closes at once and cannot be changed "
            "or reopened. A manager for their own holder, or a superuser."
        ),
    }

    read_action = Action.VIEW_TABLES
    queryset = Offering.objects.all()
    serializer_class = OfferingSerializer
    filterset_class = OfferingFilter

    def get_queryset(self):
        parts = selectors.offerings_with_parts().select_related("created_by")
        user = self.request.user
        if not may(user, Action.VIEW) and may(user, Action.PLAY):
            return parts.filter(status__in=IN_SERVICE)
        return visible(user, parts)

    def create(self, request):
        data = self.parse(OfferingCreateInput)
        holder = holder_for_create(request.user, data.pop("holder", None))
        offering = offering_services.offering_create(actor=request.user, holder=holder, **data)
        return self.respond(offering, status=201)

    def partial_update(self, request, pk=None):
        offering = self.get_object()
        data = self.parse(OfferingUpdateInput)
        return self.respond(
            offering_services.offering_update(actor=request.user, offering=offering, **data)
        )

    @extend_schema(request=ReasonInput, summary="Retire the table for good")
    @action(detail=True, methods=["post"], policy_action=Action.DRAFT)
    def retire(self, request, pk=None):
        offering = self.get_object()
        data = self.parse(ReasonInput)
        return self.respond(
            offering_services.offering_retire(actor=request.user, offering=offering, **data)
        )
