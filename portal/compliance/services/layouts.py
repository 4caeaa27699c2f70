"""Layout approval records (§ 601a.10(a), § 617b.8(b), (c))."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.files.base import ContentFile
from django.db import transaction

import jinzi
from portal.access.policy import Action, require
from portal.accounts.models import CertificateHolder
from portal.compliance import messages as msg
from portal.compliance.artwork import ArtworkRejected, check_artwork
from portal.compliance.dates import date_errors
from portal.compliance.models import Layout
from portal.compliance.services import workflow
from portal.compliance.services.audited import create_with_audit
from portal.core.errors import ValidationFailed
from portal.core.padates import pa_date, pa_today
from portal.core.validation import clean_text

REVIEW_DAYS = 15  # § 601a.10(a): the Bureau reviews within 15 calendar days


def _wheel_order(order) -> list[int]:
    if isinstance(order, str):
        try:
            return list(jinzi.Wheel.from_text(order).order)
        except jinzi.JinziError as exc:
            raise ValidationFailed.on("wheel_order", str(exc)) from None
    if not isinstance(order, Sequence):
        raise ValidationFailed.on("wheel_order", "the wheel order is a list of the 13 numbers")
    try:
        return list(jinzi.Wheel(tuple(order)).order)
    except (jinzi.JinziError, TypeError) as exc:
        raise ValidationFailed.on("wheel_order", str(exc)) from None


def _wheel_fields(order, first_colour) -> dict:
    """The wheel's two stored fields, checked together by ``jinzi.Wheel`` (§ 617b.8(c))."""
    order = _wheel_order(order)
    try:
        wheel = jinzi.Wheel(tuple(order), first_colour)
    except jinzi.JinziError as exc:
        # The order has passed, so what is refused is the colour after 0.
        raise ValidationFailed.on("first_colour", str(exc)) from None
    return {"wheel_order": list(wheel.order), "first_colour": wheel.first.value}


def _artwork_fields(upload) -> dict:
    if upload is None:
        return {}
    try:
        checked = check_artwork(upload)
    except ArtworkRejected as exc:
        raise ValidationFailed.on("artwork", str(exc)) from None
    upload.seek(0)
    stored = ContentFile(upload.read(), name=f"{checked.sha256[:32]}.{checked.extension}")
    return {
        "artwork": stored,
        "artwork_sha256": checked.sha256,
        "artwork_content_type": checked.content_type,
    }


def _title(title: str) -> str:
    return clean_text("title", title, what="the layout a title", max_length=200)


@transaction.atomic
def layout_create(
    *,
    actor,
    holder: CertificateHolder,
    title: str,
    wheel_order,
    first_colour: str = "red",
    signage_text: str = "",
    artwork=None,
) -> Layout:
    require(actor, Action.DRAFT, holder)
    layout = Layout(
        holder=holder,
        title=_title(title),
        **_wheel_fields(wheel_order, first_colour),
        signage_text=signage_text or "",
        created_by=actor,
        **_artwork_fields(artwork),
    )
    return create_with_audit(layout, actor=actor)


_UNSET = object()


@transaction.atomic
def layout_update(
    *,
    actor,
    layout: Layout,
    title=_UNSET,
    wheel_order=_UNSET,
    first_colour=_UNSET,
    signage_text=_UNSET,
    artwork=None,
) -> Layout:
    def build(locked: Layout) -> dict:
        changes: dict = {}
        if title is not _UNSET:
            changes["title"] = _title(title)
        if wheel_order is not _UNSET or first_colour is not _UNSET:
            # Either one alone still makes a new wheel with the other as stored.
            changes.update(
                _wheel_fields(
                    locked.wheel_order if wheel_order is _UNSET else wheel_order,
                    locked.first_colour if first_colour is _UNSET else first_colour,
                )
            )
        if signage_text is not _UNSET:
            changes["signage_text"] = signage_text or ""
        changes.update(_artwork_fields(artwork))
        return changes

    return workflow.update_draft(layout, actor=actor, build=build)


def _has_artwork(layout: Layout) -> None:
    if not layout.artwork:
        raise ValidationFailed.on("artwork", msg.ARTWORK_REQUIRED)


def layout_submit(*, actor, layout: Layout) -> Layout:
    return workflow.take(
        layout,
        "submit",
        actor=actor,
        check=_has_artwork,
        changes=lambda now: {"review_due": pa_date(now) + datetime.timedelta(days=REVIEW_DAYS)},
    )


def layout_approve(
    *,
    actor,
    layout: Layout,
    reference_number: str,
    effective_date: datetime.date | None,
    expiry_date: datetime.date | None,
    conditions: str = "",
    reason: str = "",
    impact: str | None = None,
) -> Layout:
    """Record the Bureau of Gaming Operations' approval (§ 601a.10(a))."""

    def check(_locked: Layout) -> None:
        errors: dict[str, list[str]] = {}
        if not (reference_number or "").strip():
            errors["reference_number"] = [msg.REFERENCE_REQUIRED]
        if effective_date is None or expiry_date is None:
            errors["expiry_date" if effective_date else "effective_date"] = [msg.DATES_REQUIRED]
        # Every date error with the others, so that one answer names them all.
        dates = date_errors(effective_date, expiry_date, today=pa_today())
        for field, messages in dates.items():
            errors.setdefault(field, []).extend(messages)
        if errors:
            raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)

    def changes(_now) -> dict:
        # Read after the table's checks and ``check``, as the approval's own fields.
        return {
            "conditions": conditions or "",
            "effective_date": effective_date,
            "expiry_date": expiry_date,
            "reference_number": clean_text(
                "reference_number", reference_number, what="the reference number", max_length=64
            ),
        }

    return workflow.take(
        layout,
        "approve",
        actor=actor,
        reason=reason,
        check=check,
        changes=changes,
        impact=impact,
    )


# The steps with nothing of a layout's own, as the workflow's table declares them
# (a request for changes is the Bureau asking for more information).
layout_reject = workflow.step_entry("reject", kind="layout", keyword="layout")
layout_request_changes = workflow.step_entry("request_changes", kind="layout", keyword="layout")
layout_withdraw = workflow.step_entry("withdraw", kind="layout", keyword="layout")
layout_amend = workflow.step_entry("amend", kind="layout", keyword="layout")
