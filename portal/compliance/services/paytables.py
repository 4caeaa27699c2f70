"""Paytable configurations (§ 617b.8(f)): odds per wager kind, never below the minimum."""

from __future__ import annotations

from django.db import transaction

import jinzi
from portal.access.policy import Action, require
from portal.accounts.models import CertificateHolder
from portal.compliance import messages as msg
from portal.compliance.models import Paytable
from portal.compliance.services import workflow
from portal.compliance.services.audited import create_with_audit
from portal.core.errors import ValidationFailed

MAX_NAME = 200


def checked_odds(odds) -> dict[str, str]:
    """Validate odds as given (ints or "N" / "N/D" strings) through jinzi; the stored form."""
    try:
        return jinzi.Paytable.from_dict(odds).as_dict()
    except jinzi.JinziError as exc:
        raise ValidationFailed.on("odds", str(exc)) from None


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ValidationFailed.on("name", "give the paytable a name")
    if len(name) > MAX_NAME:
        raise ValidationFailed.on("name", f"the name is longer than {MAX_NAME} characters")
    return name


@transaction.atomic
def paytable_create(*, actor, holder: CertificateHolder, name: str, odds) -> Paytable:
    require(actor, Action.DRAFT, holder)
    paytable = Paytable(holder=holder, name=_name(name), odds=checked_odds(odds), created_by=actor)
    return create_with_audit(paytable, actor=actor)


@transaction.atomic
def paytable_update(*, actor, paytable: Paytable, name=None, odds=None) -> Paytable:
    def build(_locked: Paytable) -> dict:
        changes: dict = {}
        if name is not None:
            changes["name"] = _name(name)
        if odds is not None:
            changes["odds"] = checked_odds(odds)
        return changes

    return workflow.update_draft(paytable, actor=actor, build=build)


def paytable_flags(
    paytable: Paytable, stakes: jinzi.Stakes = jinzi.EVERY_EVEN_STAKE
) -> tuple[jinzi.SpotEdge, ...]:
    """Spots where this paytable gives the house an edge of zero or less at some allowed
    stake, each return rounded up to the cent as it is paid (reading:round-up). Before any
    table lists it, every even stake from 2 cents is allowed (reading:even-stakes)."""
    return jinzi.paytable_flags(paytable.to_domain(), stakes=stakes)


def paytable_approve(
    *,
    actor,
    paytable: Paytable,
    reason: str = "",
    override_reason: str = "",
    impact: str | None = None,
) -> Paytable:
    override_reason = (override_reason or "").strip()

    def check(locked: Paytable) -> None:
        flags = paytable_flags(locked)
        if flags and not override_reason:
            raise ValidationFailed.on(
                "override_reason", msg.EDGE_OVERRIDE_REQUIRED.format(spots=msg.spots_named(flags))
            )

    return workflow.take(
        paytable,
        "approve",
        actor=actor,
        reason=(reason or "").strip() or override_reason,
        check=check,
        changes={"edge_override_reason": override_reason},
        impact=impact,
    )


# The steps with nothing of a paytable's own, as the workflow's table declares them.
paytable_submit = workflow.step_entry("submit", kind="paytable", keyword="paytable")
paytable_reject = workflow.step_entry("reject", kind="paytable", keyword="paytable")
paytable_request_changes = workflow.step_entry(
    "request_changes", kind="paytable", keyword="paytable"
)
paytable_withdraw = workflow.step_entry("withdraw", kind="paytable", keyword="paytable")
paytable_amend = workflow.step_entry("amend", kind="paytable", keyword="paytable")
