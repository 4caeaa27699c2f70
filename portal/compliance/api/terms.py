"""``/api/terms/``: each certificate holder's terms and conditions for players (§ 811a.3),
the plain text a player acknowledges before their first deposit or round (§ 812a.5)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from portal.api.fields import ChangesInput, StrictInput, WholeNumberField
from portal.compliance.api.descriptions import WHO_SEES, record_descriptions
from portal.compliance.api.fields import ReasonField
from portal.compliance.api.workflow import (
    RECORD_FIELDS,
    RecordSerializer,
    RecordViewSet,
    holder_for_create,
    with_impact,
)
from portal.compliance.filtersets import TermsFilter
from portal.compliance.models import TermsAndConditions
from portal.compliance.selectors import records_for
from portal.compliance.services.terms import terms_create, terms_update

TITLE_HELP = "Up to 200 characters."
# Read as sent, blanks included: whether they are given and fit is the service's to say.
AS_SENT = {"allow_blank": True, "trim_whitespace": False}
BODY_HELP = (
    "Plain text players read and accept, at most 50,000 characters: shown with its line "
    "breaks (an empty line between paragraphs), never as HTML."
)


class TermsSerializer(RecordSerializer):
    class Meta:
        model = TermsAndConditions
        fields = (*RECORD_FIELDS, "title", "body")
        read_only_fields = fields


class TermsCreateInput(StrictInput):
    read_only_from = TermsSerializer

    holder = WholeNumberField(
        required=False, min_value=1, help_text="A manager's own holder unless given."
    )
    title = serializers.CharField(help_text=TITLE_HELP, **AS_SENT)
    body = serializers.CharField(help_text=BODY_HELP, **AS_SENT)


class TermsUpdateInput(ChangesInput):
    read_only_from = TermsSerializer

    title = serializers.CharField(required=False, help_text=TITLE_HELP, **AS_SENT)
    body = serializers.CharField(required=False, help_text=BODY_HELP, **AS_SENT)


class TermsApproveInput(StrictInput):
    read_only_from = TermsSerializer

    reason = ReasonField()


NOUN = "terms and conditions"


@extend_schema_view(
    create=extend_schema(request=TermsCreateInput),
    partial_update=extend_schema(request=TermsUpdateInput),
    approve=extend_schema(request=with_impact(TermsApproveInput)),
    amend=extend_schema(responses={201: TermsSerializer}),
)
class TermsViewSet(RecordViewSet):
    """The certificate holders' terms and conditions for players (§ 811a.3): drafted by a
    holder's manager, approved by compliance; players acknowledge the approved version."""

    operation_descriptions = {
        **record_descriptions(NOUN, NOUN, clause="§ 811a.3"),
        "list": (
            f"The terms and conditions you may see, every version, newest change first. "
            f"{WHO_SEES} A holder keeps one series of them; its approved version is the one "
            "in force. Filter by status."
        ),
        "create": (
            "Start a holder's terms and conditions as a draft (version 1). A holder keeps one "
            "series of them (§ 811a.3): once it has any, starting new ones is refused with "
            "409, and a change is an amendment of the latest version. A manager drafts for "
            "their own holder (no need to name it); a superuser names the holder."
        ),
        "approve": (
            "Approve submitted terms and conditions (§ 811a.3), as a compliance officer who "
            "did not create, edit or submit them (four-eyes): from then on they are the "
            "version in force, which players acknowledge before their first deposit or round "
            "with the holder (§ 812a.5), and the version approved before is superseded."
        ),
        "withdraw": (
            "Withdraw approved terms and conditions, saying why: the holder then has none in "
            "force until an amendment is approved. Compliance officers, or a manager for "
            "their own holder."
        ),
        "amend": (
            "Start the next version of the holder's terms and conditions as a draft, to change "
            "and submit; the approved version stays in force until the new one is approved."
        ),
        "impact": (
            "Terms and conditions take no table live or dark: the answer lists no step. "
            "Answered as for every record, so a client may ask it of any."
        ),
    }
    queryset = TermsAndConditions.objects.all()
    serializer_class = TermsSerializer
    filterset_class = TermsFilter
    approve_input = TermsApproveInput

    def get_queryset(self):
        return records_for(self.request.user, TermsAndConditions).select_related("decided_by")

    def create(self, request):
        data = self.parse(TermsCreateInput)
        holder = holder_for_create(request.user, data.pop("holder", None))
        terms = terms_create(actor=request.user, holder=holder, **data)
        return self.respond(terms, status=201)

    def partial_update(self, request, pk=None):
        terms = self.get_object()
        data = self.parse(TermsUpdateInput)
        return self.respond(terms_update(actor=request.user, terms=terms, **data))
