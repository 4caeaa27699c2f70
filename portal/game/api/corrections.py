"""``/api/corrections/``: voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds,
proposed by one person and approved or rejected by another (reading:voids-and-adjustments).
Thin: parse, call a service of ``portal.game.corrections``, answer.

Who: compliance officers, auditors and superusers read every one; a holder's supervisors
their own holder's (another holder's is not there: 404); a player those of their own rounds
(another player's: 404). Compliance officers, superusers and the holder's supervisors
propose and decide them, never deciding one they proposed (four-eyes, in the workflow);
every other role is refused with 403 before its body is read. ``POST …/{id}/approve/`` and
``…/reject/`` are the workflow's steps, one action each, as its table declares them.
"""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import status
from rest_framework.decorators import action

from portal.access.policy import NOT_SIGNED_IN, Action, may
from portal.access.workflow import Step
from portal.api.base import ApiViewSet
from portal.api.schema import ErrorSerializer
from portal.core.errors import ValidationFailed
from portal.game import selectors
from portal.game.api.serializers import CorrectionIn, DecisionIn, RoundCorrectionOut
from portal.game.api.views import reads
from portal.game.corrections import SERVICES, WORKFLOW, correction_propose
from portal.game.filtersets import TableIdField
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


class RoundIdField(TableIdField):
    default_error_messages = {"invalid": NOT_A_ROUND_ID}


@extend_schema_field(OpenApiTypes.INT)
class RoundIdFilter(django_filters.Filter):
    field_class = RoundIdField


class CorrectionFilter(django_filters.FilterSet):
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

    def take(self, request, pk=None):
        correction = self.get_object()
        data = self.parse(DecisionIn)
        # Left out, the reason is none: the service says whether the step needs one.
        reason = data.get("reason")
        decided = service(actor=request.user, correction_id=correction.pk, reason=reason)
        return self.respond(decided)

    take.__name__ = take.__qualname__ = step.verb
    routed = action(
        detail=True,
        methods=["post"],
        url_path=step.name,
        url_name=step.name,
        policy_action=step.permission,
    )(take)
    schema = extend_schema(
        request=DecisionIn,
        responses={200: RoundCorrectionOut, 403: REFUSED},
        summary=DECISION_SUMMARIES[step.verb],
    )
    return schema(routed)


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
    filterset_class = CorrectionFilter
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"create": Action.CORRECT_ROUNDS}

    def read_denial(self, user) -> str | None:
        """Players read their own rounds' corrections; compliance, auditors, superusers and
        the holders' supervisors those the policy shows them. A write needs only its own
        action (checked next), and a method with no route is a 405 to anyone."""
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        if (
            not reads(self)
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
        if may(user, Action.PLAY):
            mine = RoundCorrection.objects.select_related(
                "account__holder", "account__player", "proposed_by", "decided_by"
            )
            return mine.filter(account__player=user).order_by("-pk")
        # Staff: the pages' own rule (every holder's, or a supervisor's own holder's).
        return selectors.corrections_visible_to(user).order_by("-pk")

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
        )
        return self.respond(proposed, status=status.HTTP_201_CREATED)
