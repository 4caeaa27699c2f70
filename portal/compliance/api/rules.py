"""``/api/rules-submissions/``: the games a holder offers, with their paytable, layout and
limits (§ 601a.2, § 617b.8(a)). Amounts are whole minor units (cents)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from portal.api.fields import ChangesInput, StrictInput, VisibleRecordField, WholeNumberField
from portal.compliance.api.descriptions import record_descriptions
from portal.compliance.api.fields import ReasonField
from portal.compliance.api.workflow import (
    RECORD_FIELDS,
    RecordSerializer,
    RecordViewSet,
    edge_acknowledged_field,
    holder_for_create,
    with_impact,
)
from portal.compliance.filtersets import RulesSubmissionFilter
from portal.compliance.models import Game, Layout, ListedGame, Paytable, RulesSubmission
from portal.compliance.selectors import records_for
from portal.compliance.services.rules import (
    MAX_MINOR_UNITS,
    GameListing,
    rules_submission_create,
    rules_submission_update,
)

# Far more than there are games to list; only bounds the work one request can ask for.
MAX_GAMES = 20


class ListedGameSerializer(serializers.ModelSerializer):
    class Meta:
        model = ListedGame
        fields = (
            "game",
            "paytable",
            "layout",
            "chip_unit",
            "min_wager",
            "max_wager",
            "max_round_stake",
        )
        read_only_fields = fields


class RulesSubmissionSerializer(RecordSerializer):
    games = ListedGameSerializer(many=True, read_only=True)

    class Meta:
        model = RulesSubmission
        fields = (*RECORD_FIELDS, "title", "notes", "games")
        read_only_fields = fields


def _amount(help_text: str) -> WholeNumberField:
    return WholeNumberField(min_value=1, max_value=MAX_MINOR_UNITS, help_text=help_text)


class GameInput(StrictInput):
    """One listed game; maps to ``GameListing``."""

    game = serializers.ChoiceField(choices=Game.choices, default=Game.JINZI_ROULETTE)
    paytable = VisibleRecordField(Paytable, help_text="Id of one of the holder's paytables.")
    layout = VisibleRecordField(Layout, help_text="Id of one of the holder's layouts.")
    chip_unit = _amount("Minor units; even, so the § 617b.8(g) half-back is exact.")
    min_wager = _amount("Per bet spot, minor units.")
    max_wager = _amount("Per bet spot, minor units.")
    max_round_stake = _amount("All spots of one round, minor units.")


class RulesSubmissionCreateInput(StrictInput):
    read_only_from = RulesSubmissionSerializer

    holder = WholeNumberField(
        required=False, min_value=1, help_text="A manager's own holder unless given."
    )
    title = serializers.CharField(max_length=200)
    notes = serializers.CharField(required=False, allow_blank=True)
    effective_date = serializers.DateField(required=False, allow_null=True)
    expiry_date = serializers.DateField(
        required=False, allow_null=True, help_text="Never after 2028-06-14."
    )
    games = GameInput(many=True, required=False, max_length=MAX_GAMES)


class RulesSubmissionUpdateInput(ChangesInput):
    read_only_from = RulesSubmissionSerializer

    title = serializers.CharField(required=False, max_length=200)
    notes = serializers.CharField(required=False, allow_blank=True)
    effective_date = serializers.DateField(required=False, allow_null=True)
    expiry_date = serializers.DateField(required=False, allow_null=True)
    games = GameInput(many=True, required=False, max_length=MAX_GAMES)


class RulesSubmissionApproveInput(StrictInput):
    read_only_from = RulesSubmissionSerializer

    reason = ReasonField()
    edge_acknowledged = edge_acknowledged_field()


def _listings(data: dict) -> None:
    """Turn the parsed ``games`` into the services' ``GameListing``s, in place."""
    if "games" in data:
        data["games"] = [GameListing(**game) for game in data["games"]]


@extend_schema_view(
    create=extend_schema(request=RulesSubmissionCreateInput),
    partial_update=extend_schema(request=RulesSubmissionUpdateInput),
    approve=extend_schema(request=with_impact(RulesSubmissionApproveInput)),
    amend=extend_schema(responses={201: RulesSubmissionSerializer}),
)
class RulesSubmissionViewSet(RecordViewSet):
    """Rules submissions (§ 601a.2, § 617b.8(a)): the games a holder offers, each with its
    layout and paytable, and its chip and wager limits."""

    operation_descriptions = record_descriptions(
        "rules submission", "rules submissions", clause="§ 601a.2"
    )
    queryset = RulesSubmission.objects.all()
    serializer_class = RulesSubmissionSerializer
    filterset_class = RulesSubmissionFilter
    approve_input = RulesSubmissionApproveInput

    def get_queryset(self):
        return (
            records_for(self.request.user, RulesSubmission)
            .select_related("decided_by")
            .prefetch_related("games")
        )

    def create(self, request):
        data = self.parse(RulesSubmissionCreateInput)
        holder = holder_for_create(request.user, data.pop("holder", None))
        data.setdefault("games", [])
        _listings(data)
        submission = rules_submission_create(actor=request.user, holder=holder, **data)
        return self.respond(submission, status=201)

    def partial_update(self, request, pk=None):
        submission = self.get_object()
        data = self.parse(RulesSubmissionUpdateInput)
        _listings(data)
        return self.respond(
            rules_submission_update(actor=request.user, submission=submission, **data)
        )
