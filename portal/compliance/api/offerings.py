"""``/api/offerings/``: Jinzi Roulette tables, and whether each is live right now (§ 617b.8(a))."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import Action, may, visible
from portal.api.base import ApiViewSet
from portal.api.fields import ChangesInput, StrictInput, VisibleRecordField, WholeNumberField
from portal.api.schema import ErrorSerializer
from portal.compliance import selectors
from portal.compliance.api.fields import OfferingStatusField
from portal.compliance.api.workflow import ReasonInput, holder_for_create
from portal.compliance.filtersets import OfferingFilter
from portal.compliance.models import IN_SERVICE, Layout, Offering, Paytable, RulesSubmission
from portal.compliance.services import offerings as offering_services

# No such table, or one of another holder than the supervisor's own.
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such table that you may act on.")


def _table_id(pk: str) -> int:
    """The address's table id; 0 (no table: the service answers 404) when it is not one."""
    return int(pk) if pk.isascii() and pk.isdigit() and len(pk) <= 18 else 0


def _tables():
    """Every table with the parts its liveness reads, and who set it up."""
    return selectors.offerings_with_parts().select_related("created_by")


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
            "suspended_at",
            "suspension_reason",
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
        "suspend": (
            "Close the table at once while a suspected malfunction is checked, saying why "
            "(reading:table-suspension): rounds already in play finish, no new one starts, "
            "and players see that the table is closed while it is checked. A compliance "
            "officer, or a supervisor of the table's holder (another holder's table: 404)."
        ),
        "reopen": (
            "Reopen a suspended table, saying why: someone other than who suspended it. It "
            "is live again only if everything a table needs still holds."
        ),
    }

    read_action = Action.VIEW_TABLES
    queryset = Offering.objects.all()
    serializer_class = OfferingSerializer
    filterset_class = OfferingFilter

    def read_denial(self, user) -> str | None:
        # A supervisor reads no list of tables, yet suspends and reopens their holder's:
        # those two routes are gated by their own action alone.
        if self.action in ("suspend", "reopen"):
            return None
        return super().read_denial(user)

    def get_queryset(self):
        parts = _tables()
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

    @extend_schema(
        request=ReasonInput,
        summary="Suspend the table while it is checked",
        responses={200: OfferingSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], policy_action=Action.SUSPEND_TABLES)
    def suspend(self, request, pk=None):
        # Not through get_object: a supervisor reads no table list, and the service finds
        # the table, answering 404 for one of another holder.
        data = self.parse(ReasonInput)
        return self._acted_on(
            offering_services.offering_suspend(
                actor=request.user, offering_id=_table_id(pk), reason=data["reason"]
            )
        )

    @extend_schema(
        request=ReasonInput,
        summary="Reopen a suspended table",
        responses={200: OfferingSerializer, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"], policy_action=Action.SUSPEND_TABLES)
    def reopen(self, request, pk=None):
        data = self.parse(ReasonInput)
        return self._acted_on(
            offering_services.offering_reopen(
                actor=request.user, offering_id=_table_id(pk), reason=data["reason"]
            )
        )

    def _acted_on(self, offering: Offering) -> Response:
        """The table as it now is, for whoever suspended or reopened it (a supervisor has
        no list of tables to read it from)."""
        fresh = _tables().get(pk=offering.pk)
        return Response(self.get_serializer(fresh).data)

    @extend_schema(request=ReasonInput, summary="Retire the table for good")
    @action(detail=True, methods=["post"], policy_action=Action.DRAFT)
    def retire(self, request, pk=None):
        offering = self.get_object()
        data = self.parse(ReasonInput)
        return self.respond(
            offering_services.offering_retire(actor=request.user, offering=offering, **data)
        )
