"""The way forward to a new layout or paytable version: one button that starts the rules
submission's amendment listing it (``services.forward``), then its draft to check and submit."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from portal.access.pages import visible_or_404
from portal.compliance.models import Layout, Paytable, RulesSubmission
from portal.compliance.selectors import jinzi_listing
from portal.compliance.services.forward import rules_submission_amend_to_use
from portal.compliance.unlisted import listed_part
from portal.compliance.workflow import label
from portal.core.pages import domain_errors

PARTS = {"layout": Layout, "paytable": Paytable}

DRAFTED = (
    "{Rules} is a draft listing {record} for Jinzi Roulette in place of v{old}; everything "
    "else is as v{previous} had it. Check it, then submit it for review: once it is approved, "
    "the tables on this rules submission move to v{version}."
)


@login_required
@require_POST
@domain_errors
def rules_amend_to_use(request: HttpRequest, pk: int, kind: str, record_pk: int) -> HttpResponse:
    """POST: amend the rules submission ``pk`` to list the ``kind`` version ``record_pk``.
    Done: the draft's edit page, with what was filled in. Refused: the reason and its 4xx
    (unseen records: 404; not the user's to draft: 403; not possible now: 409), nothing
    written."""
    model = PARTS.get(kind)
    if model is None:
        raise Http404("no such part of a table")
    rules = visible_or_404(request.user, RulesSubmission.objects.all(), pk)
    record = visible_or_404(request.user, model.objects.all(), record_pk)
    draft = rules_submission_amend_to_use(actor=request.user, rules_submission=rules, record=record)
    old = getattr(jinzi_listing(rules), listed_part(record))  # what the approved one lists
    text = label(draft)
    messages.success(
        request,
        DRAFTED.format(
            Rules=text[:1].upper() + text[1:],
            record=label(record),
            old=old.version,
            previous=rules.version,
            version=record.version,
        ),
    )
    return redirect("compliance:rules-edit", draft.pk)
