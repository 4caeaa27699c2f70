"""Complaints under /api/complaints/ (reading:complaint-number): a player files one and
reads their own; the holder's supervisors and compliance officers take, note and close
them; auditors read the log. Thin: parse, call a service, answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import NOT_SIGNED_IN, Action
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.api.schema import ErrorSerializer
from portal.game.api_fields import GivenChoice, GivenInteger, GivenList, GivenText, UtcInstantField
from portal.game.complaints import messages as msg
from portal.game.complaints import services
from portal.game.complaints.selectors import complaints_visible_to, may_see_complaints
from portal.game.models import Complaint, ComplaintKind

HIDDEN = "your role may not see complaints"
# A casino the player holds no account with, or a round or movement not theirs (404).
NOT_THERE = OpenApiResponse(
    ErrorSerializer,
    description="No account with that holder, or a round or movement that is not yours.",
)


class ComplaintIn(StrictInput):
    holder = GivenInteger(help_text="The certificate holder whose tables you played.")
    kind = GivenChoice(choices=ComplaintKind.choices)
    subject = GivenText()
    description = GivenText(help_text="What happened.")
    request = GivenText(help_text="What you ask for.")
    rounds = GivenList(child=serializers.IntegerField(), required=False)
    movements = GivenList(
        child=serializers.IntegerField(), required=False, help_text="Ledger entries' ids."
    )


class NoteIn(StrictInput):
    text = GivenText()


class CloseIn(StrictInput):
    outcome = GivenChoice(choices=[("upheld", "Upheld"), ("not_upheld", "Not upheld")])
    answer = GivenText(help_text="The written answer to the player.")
    round = GivenInteger(
        required=False, help_text="Upheld disputes about money: the round to adjust."
    )
    amount = GivenInteger(
        required=False, help_text="The adjustment's credit, in minor units (cents)."
    )
    notice = GivenText(required=False, help_text="The adjustment's notification to the player.")


class ComplaintOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField(help_text="The complaint number to quote to the Board.")
    holder = serializers.IntegerField(source="holder_id")
    kind = serializers.CharField()
    subject = serializers.CharField()
    description = serializers.CharField()
    request = serializers.CharField()
    rounds = serializers.SerializerMethodField()
    movements = serializers.SerializerMethodField()
    status = serializers.CharField()
    opened_at = UtcInstantField()
    closed_at = UtcInstantField(allow_null=True)
    answer = serializers.SerializerMethodField(
        help_text="The written answer, once the player has been sent it; null until then."
    )

    def get_rounds(self, complaint) -> list[int]:
        return sorted(r.pk for r in complaint.rounds.all())

    def get_movements(self, complaint) -> list[int]:
        return sorted(m.pk for m in complaint.movements.all())

    def get_answer(self, complaint) -> str | None:
        if complaint.closed_at is None:
            return None
        return f"{complaint.answer}\n\n{msg.BOARD.format(number=complaint.number)}"


@extend_schema_view(
    create=extend_schema(request=ComplaintIn, responses={201: ComplaintOut, 404: NOT_THERE}),
    take=extend_schema(request=None, responses={200: ComplaintOut}),
    note=extend_schema(request=NoteIn, responses={200: ComplaintOut}),
    close=extend_schema(request=CloseIn, responses={200: ComplaintOut}),
)
class ComplaintViewSet(ApiViewSet):
    """Complaints and disputes, each with its number (reading:complaint-number)."""

    operation_descriptions = {
        "list": (
            "Complaints: a player's own; their holder's for its supervisors; every one for "
            "compliance officers and auditors (the log)."
        ),
        "retrieve": "One complaint you may see.",
        "create": (
            "File a complaint or a dispute about money with the casino whose tables you "
            "played (players; also while suspended or excluded). It is numbered at once."
        ),
        "take": "Take a complaint to investigate it (the holder's supervisors, officers).",
        "note": "Add a dated note to an open complaint.",
        "close": (
            "Close it as upheld or not upheld, with the written answer; an upheld dispute "
            "about money may propose an adjustment (a credit of a round it names), decided by "
            "someone else, after which the answer is sent."
        ),
    }
    serializer_class = ComplaintOut
    filterset_class = None
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {
        "create": Action.PLAY,
        "take": Action.CORRECT_ROUNDS,
        "note": Action.CORRECT_ROUNDS,
        "close": Action.CORRECT_ROUNDS,
    }

    def read_denial(self, user) -> str | None:
        if not user.is_authenticated:
            return NOT_SIGNED_IN
        if may_see_complaints(user):
            return None
        return HIDDEN

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Complaint.objects.none()
        rows = complaints_visible_to(self.request.user)
        return rows.prefetch_related("rounds", "movements").order_by("-opened_at", "-pk")

    def _answer(self, complaint: Complaint, code=status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=complaint.pk)
        return Response(ComplaintOut(fresh).data, status=code)

    def create(self, request):
        data = self.parse(ComplaintIn)
        complaint = services.complaint_file(
            player=request.user,
            holder_id=data["holder"],
            kind=data["kind"],
            subject=data["subject"],
            description=data["description"],
            request=data["request"],
            rounds=data.get("rounds", []),
            movements=data.get("movements", []),
        )
        return self._answer(complaint, status.HTTP_201_CREATED)

    def _id(self, pk):
        return int(pk) if pk.isascii() and pk.isdigit() else pk

    @action(detail=True, methods=["post"])
    def take(self, request, pk=None):
        return self._answer(services.complaint_take(actor=request.user, complaint_id=self._id(pk)))

    @action(detail=True, methods=["post"])
    def note(self, request, pk=None):
        data = self.parse(NoteIn)
        note = services.complaint_note(
            actor=request.user, complaint_id=self._id(pk), text=data["text"]
        )
        return self._answer(note.complaint)

    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        data = self.parse(CloseIn)
        complaint = services.complaint_close(
            actor=request.user,
            complaint_id=self._id(pk),
            outcome=data["outcome"],
            answer=data["answer"],
            adjust_round=data.get("round"),
            amount=data.get("amount"),
            notice=data.get("notice", ""),
        )
        return self._answer(complaint)
