"""The voids and adjustments of settled rounds under /api/corrections/ (§ 617a.6,
§ 812a.7(a)(9)): what the API reads (a proposal, a decision) and answers (a correction,
with its round's account), and the viewset. Thin: parse, call a service, answer.

Deciding is one action per step of the workflow (``workflow.WORKFLOW``), each made by the
API's one factory of workflow actions (``portal.api.workflow.step_action``)."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status

from portal.access.policy import NOT_SIGNED_IN, Action, may
from portal.access.workflow import Step
from portal.api.base import ApiViewSet
from portal.api.fields import AsGiven, StrictInput, WholeNumberField
from portal.api.schema import ErrorSerializer
from portal.api.workflow import step_action
from portal.core.errors import ValidationFailed
from portal.game.api_fields import (
    GivenInteger,
    GivenText,
    QueryIdField,
    UtcInstantField,
    enum_schema,
)
from portal.game.corrections.presenters import correction_data
from portal.game.corrections.selectors import corrections_visible_to, may_see_corrections
from portal.game.corrections.services import SERVICES, correction_propose
from portal.game.corrections.workflow import WORKFLOW
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection

CORRECTIONS_HIDDEN = "your role may not see voids and adjustments of rounds"
VOID_HAS_NO_AMOUNT = (
    "§ 617a.6: a void gives back the round's stakes and takes back its returns; its amount "
    "is not given, only an adjustment's is"
)
NOT_A_ROUND_ID = "round filter must be a round id"


# A round named in the body that is not there: the service says so (404).
NO_SUCH_ROUND = OpenApiResponse(ErrorSerializer, description="No round with that id.")
REFUSED = OpenApiResponse(
    ErrorSerializer,
    description="The role may not void or adjust rounds, the round was played at another "
    "certificate holder's table, or (deciding) four-eyes: its proposer, or the round's "
    "player, never decides it.",
)


# Request and answer bodies ------------------------------------------------------------------------


# "kind" and "status" are the names of other fields with other values: each set of values is
# one named schema component, so no enum is renamed after a hash.
@extend_schema_field(enum_schema(CorrectionKind.choices), component_name="CorrectionKindEnum")
class CorrectionKindField(AsGiven, serializers.ChoiceField):
    """Read as given (the service names both kinds, with their clauses); answered as is."""

    def __init__(self, **kwargs) -> None:
        super().__init__(choices=CorrectionKind.choices, **kwargs)


@extend_schema_field(enum_schema(CorrectionStatus.choices), component_name="CorrectionStatusEnum")
class CorrectionStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=CorrectionStatus.choices, **kwargs)


class CorrectionOut(serializers.Serializer):
    """A void (§ 617a.6) or an adjustment (§ 812a.7(a)(9)) of a settled round: who proposed
    it and why, who decided it, and what approving it moved (minor units, times UTC)."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = CorrectionKindField()
    status = CorrectionStatusField()
    amount = serializers.IntegerField(
        help_text="Minor units the player is owed (positive) or owes (negative): for a void, "
        "the round's stakes less its returns; for an adjustment, the difference."
    )
    reason = serializers.CharField(help_text="Why it was proposed.")
    ground = serializers.CharField(
        allow_blank=True,
        help_text="What an adjustment rests on (reading:adjustment-grounds): dispute (an "
        "upheld one), resettled (the round settles otherwise), finding (an officer's), "
        "void_residual; blank for voids and for adjustments made before grounds were kept.",
    )
    notice = serializers.CharField(
        help_text="The notification the player was sent (§ 812a.7(a)(9)); may be blank for a void."
    )
    proposed_by = serializers.CharField(help_text="The proposer's username.")
    proposed_at = UtcInstantField()
    decided_by = serializers.CharField(
        allow_null=True, help_text="Who approved or rejected it; null while proposed."
    )
    decided_at = UtcInstantField(allow_null=True)
    decision_reason = serializers.CharField(help_text="Why it was decided so (may be blank).")
    credited = serializers.IntegerField(help_text="What approving it credited the account.")
    debited = serializers.IntegerField(help_text="What approving it took from the account.")
    uncollected = serializers.IntegerField(
        help_text="What the account could not cover (never the balance held for a pending "
        "withdrawal, never below zero)."
    )

    def to_representation(self, instance) -> dict:
        """Through ``presenters.correction_data``, as the pages show it; given a
        ``RoundCorrection`` (its people loaded), or what ``correction_data`` made of it."""
        if isinstance(instance, RoundCorrection):
            instance = correction_data(instance)
        return super().to_representation(instance)


class RoundCorrectionOut(CorrectionOut):
    """A void or an adjustment, with the account it moves: the player's with the holder
    whose table the round was played at (§ 812a.4)."""

    holder = serializers.IntegerField(help_text="The certificate holder whose table it was.")
    holder_name = serializers.CharField()
    player = serializers.CharField(help_text="The player's username.")

    def to_representation(self, instance) -> dict:
        if isinstance(instance, RoundCorrection):
            account = instance.account
            instance = correction_data(instance) | {
                "holder": account.holder_id,
                "holder_name": account.holder.name,
                "player": account.player.get_username(),
            }
        return super().to_representation(instance)


class CorrectionIn(StrictInput):
    """A void (§ 617a.6) or an adjustment (§ 812a.7(a)(9)) of a settled round, proposed
    with its reason; someone else approves or rejects it."""

    round = WholeNumberField(min_value=1, help_text="The round's id.")
    kind = CorrectionKindField()
    reason = GivenText(help_text="Why; kept with the record and shown to the player.")
    amount = GivenInteger(
        required=False,
        allow_null=True,
        help_text="Adjustments only: minor units (cents), positive to credit the player, "
        "negative to debit, not zero. A void's amount is the round's stakes less its returns.",
    )
    notice = GivenText(
        required=False,
        help_text="The notification the player is sent, kept as sent: required for an "
        "adjustment (§ 812a.7(a)(9)), optional for a void.",
    )
    finding = GivenInteger(
        required=False,
        allow_null=True,
        help_text="Adjustments: the payout finding of the round it rests on (reading:"
        "adjustment-grounds); without one, the round must settle otherwise when settled again.",
    )


class DecisionIn(StrictInput):
    reason = GivenText(required=False, help_text="Why: required to reject, optional to approve.")


# The list's filters and the viewset --------------------------------------------------------------


class RoundIdField(QueryIdField):
    default_error_messages = {"invalid": NOT_A_ROUND_ID}


@extend_schema_field(OpenApiTypes.INT)
class RoundIdFilter(django_filters.Filter):
    field_class = RoundIdField


class CorrectionApiFilter(django_filters.FilterSet):
    """Voids and adjustments by status (``proposed`` is what waits for a decision), kind and
    round. A value the list cannot read is a 400 with its error, never ignored."""

    status = django_filters.ChoiceFilter(field_name="status", choices=CorrectionStatus.choices)
    kind = django_filters.ChoiceFilter(field_name="kind", choices=CorrectionKind.choices)
    round = RoundIdFilter(field_name="round_id")

    class Meta:
        model = RoundCorrection
        fields: list[str] = []


# How the API documents each step of the corrections' workflow.
DECISION_SUMMARIES = {
    "approve": "Approve a proposed void or adjustment and move its money (not its proposer)",
    "reject": "Reject a proposed void or adjustment, saying why (not its proposer)",
}


def decision_action(step: Step):
    """The API action of the corrections' workflow step ``step``: ``POST
    /api/corrections/{id}/<step>/`` with its reason, allowed to whom the step's permission
    allows, answered with the correction as it now is."""
    service = SERVICES[step.verb]

    def take(self, request, correction):
        data = self.parse(DecisionIn)
        # Left out, the reason is none: the service says whether the step needs one.
        reason = data.get("reason")
        decided = service(actor=request.user, correction_id=correction.pk, reason=reason)
        return self.respond(decided)

    return step_action(
        step,
        take,
        request=DecisionIn,
        responses={200: RoundCorrectionOut, 403: REFUSED},
        summary=DECISION_SUMMARIES[step.verb],
    )


# One action per step people post, as the workflow's table declares them.
DecisionActions = type(
    "DecisionActions",
    (),
    {step.verb: decision_action(step) for step in WORKFLOW.posted_steps},
)


class CorrectionViewSet(DecisionActions, ApiViewSet):
    """Voids and adjustments of settled rounds, newest first."""

    operation_descriptions = {
        "list": (
            "Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds, newest "
            "first: every holder's for compliance officers, auditors and superusers; their "
            "own holder's for its supervisors; a player's own rounds' for the player. "
            "Filter by status (proposed: waiting for a decision), kind or round."
        ),
        "retrieve": "One void or adjustment, with its round, amounts and decision.",
        "create": (
            "Propose a void or an adjustment of a settled round, saying why: nothing moves "
            "until someone else approves it (four-eyes). Compliance officers, or a "
            "supervisor of the round's holder."
        ),
        "approve": (
            "Approve a proposed void or adjustment, as a compliance officer or a supervisor "
            "of the round's holder who did not propose it: its money moves at once and the "
            "player is told."
        ),
        "reject": (
            "Reject a proposed void or adjustment, saying why, as someone other than its "
            "proposer: nothing moves."
        ),
    }

    serializer_class = RoundCorrectionOut
    filterset_class = CorrectionApiFilter
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"create": Action.CORRECT_ROUNDS}

    def read_denial(self, user) -> str | None:
        """Players read their own rounds' corrections; compliance, auditors, superusers and
        the holders' supervisors those the policy shows them. A write needs only its own
        action (checked next), and a method with no route is a 405 to anyone."""
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        if (
            not self.reads()
            or may(user, Action.PLAY)
            or may(user, Action.VIEW_ROUNDS)
            or may(user, Action.CORRECT_ROUNDS)
        ):
            return None
        return CORRECTIONS_HIDDEN

    def get_queryset(self) -> QuerySet[RoundCorrection]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return RoundCorrection.objects.none()
        user = self.request.user
        # Staff: the pages' own rule (every holder's, or a supervisor's own holder's).
        staff = corrections_visible_to(user) if may_see_corrections(user) else None
        if may(user, Action.PLAY):
            mine = RoundCorrection.objects.select_related(
                "account__holder", "account__player", "proposed_by", "decided_by"
            ).filter(account__player=user)
            if staff is not None:  # a member of staff who also plays: both
                mine = mine | staff
            return mine.order_by("-pk")
        return corrections_visible_to(user).order_by("-pk")

    @extend_schema(
        request=CorrectionIn,
        responses={201: RoundCorrectionOut, 403: REFUSED, 404: NO_SUCH_ROUND},
        summary="Propose a void or an adjustment of a settled round",
    )
    def create(self, request):
        data = self.parse(CorrectionIn)
        if data["kind"] == CorrectionKind.VOID and data.get("amount") is not None:
            raise ValidationFailed.on("amount", VOID_HAS_NO_AMOUNT)
        proposed = correction_propose(
            actor=request.user,
            round_id=data["round"],
            kind=data["kind"],
            reason=data["reason"],
            amount=data.get("amount"),
            notice=data.get("notice", ""),
            finding_id=data.get("finding"),
        )
        return self.respond(proposed, status=status.HTTP_201_CREATED)
