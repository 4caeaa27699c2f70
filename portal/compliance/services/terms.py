"""A certificate holder's terms and conditions for players (§ 811a.3): a versioned record,
drafted by the holder's manager and approved by a second person, like a paytable.

A holder keeps one series of terms: its first version is created once, and every change
after that is an amendment (``terms_amend``), a new version of the same series that
supersedes the approved one when it is approved. The version approved is the one in force,
which players acknowledge (§ 812a.5; ``selectors.terms_in_force``).

The text is plain text: kept as typed (line breaks as ``\\n``), shown with its line breaks
and never read as HTML.
"""

from __future__ import annotations

from django.db import transaction

from portal.access.policy import Action, require
from portal.accounts.models import CertificateHolder
from portal.compliance import messages as msg
from portal.compliance.models import TermsAndConditions
from portal.compliance.services import workflow
from portal.compliance.services.audited import create_with_audit
from portal.core.errors import Conflict, ValidationFailed

MAX_TITLE = TermsAndConditions.MAX_TITLE
MAX_BODY = TermsAndConditions.MAX_BODY


def _text(field: str, value, *, what: str) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationFailed.on(field, msg.TERMS_NOT_TEXT.format(what=what))
    if "\x00" in value:
        raise ValidationFailed.on(field, msg.TERMS_NUL.format(what=what))
    # Line breaks as one character, however the browser sent them.
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


def checked_title(title) -> str:
    title = _text("title", title, what="title")
    if not title:
        raise ValidationFailed.on("title", msg.TERMS_TITLE_REQUIRED)
    if len(title) > MAX_TITLE:
        raise ValidationFailed.on(
            "title", msg.TERMS_TITLE_TOO_LONG.format(limit=MAX_TITLE, length=len(title))
        )
    return title


def checked_body(body) -> str:
    body = _text("body", body, what="text of the terms and conditions")
    if not body:
        raise ValidationFailed.on("body", msg.TERMS_BODY_REQUIRED)
    if len(body) > MAX_BODY:
        raise ValidationFailed.on(
            "body", msg.TERMS_BODY_TOO_LONG.format(limit=MAX_BODY, length=len(body))
        )
    return body


def existing_terms(holder_id: int) -> TermsAndConditions | None:
    """The latest version of the holder's one series of terms, if it has one."""
    return (
        TermsAndConditions.objects.filter(holder_id=holder_id)
        .order_by("-version", "-pk")
        .select_related("holder")
        .first()
    )


def refuse_second_series(holder: CertificateHolder) -> None:
    """A holder keeps one series of terms (§ 811a.3): refuse to start another."""
    latest = existing_terms(holder.pk)
    if latest is not None:
        raise Conflict(
            msg.TERMS_ONE_SERIES.format(
                holder=holder.name, title=latest.title, version=latest.version
            )
        )


def _checked_fields(title, body) -> dict:
    """Both fields, each refusal on its own field, all at once."""
    fields, errors = {}, {}
    for name, check, value in (("title", checked_title, title), ("body", checked_body, body)):
        try:
            fields[name] = check(value)
        except ValidationFailed as error:
            errors.update(error.field_errors)
    if errors:
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)
    return fields


@transaction.atomic
def terms_create(*, actor, holder: CertificateHolder, title: str, body: str) -> TermsAndConditions:
    """Start the holder's terms and conditions as a draft (version 1 of its one series)."""
    require(actor, Action.DRAFT, holder)
    # The holder's row, locked: of two first drafts started at once, one is refused.
    CertificateHolder.objects.select_for_update().filter(pk=holder.pk).first()
    refuse_second_series(holder)
    terms = TermsAndConditions(holder=holder, created_by=actor, **_checked_fields(title, body))
    return create_with_audit(terms, actor=actor)


@transaction.atomic
def terms_update(*, actor, terms: TermsAndConditions, title=None, body=None) -> TermsAndConditions:
    """Edit a draft: only the fields given change."""

    def build(locked: TermsAndConditions) -> dict:
        return _checked_fields(
            locked.title if title is None else title, locked.body if body is None else body
        )

    return workflow.update_draft(terms, actor=actor, build=build)


# Every step with nothing of the terms' own, as the workflow's table declares them: an
# approval asks only an optional reason (the version approved is in force from then on).
terms_submit = workflow.step_entry("submit", kind="terms", keyword="terms")
terms_approve = workflow.step_entry("approve", kind="terms", keyword="terms")
terms_reject = workflow.step_entry("reject", kind="terms", keyword="terms")
terms_request_changes = workflow.step_entry("request_changes", kind="terms", keyword="terms")
terms_withdraw = workflow.step_entry("withdraw", kind="terms", keyword="terms")
terms_amend = workflow.step_entry("amend", kind="terms", keyword="terms")
