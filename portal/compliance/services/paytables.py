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
from portal.compliance.zero_edges import FIELD, paytable_zero_edges, require_acknowledged
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


def paytable_approve(
    *,
    actor,
    paytable: Paytable,
    reason: str = "",
    override_reason: str = "",
    edge_acknowledged: str | None = None,
    impact: str | None = None,
) -> Paytable:
    """Approve a paytable. One that leaves any wager with a house edge of zero or less
    (over every even stake, each return rounded up) needs the acknowledgement of exactly
    that list and an override reason (§ 617b.8(f), reading:edge-acknowledgement)."""
    override_reason = (override_reason or "").strip()
    acknowledged: dict = {}

    def check(locked: Paytable) -> None:
        found = paytable_zero_edges(locked.to_domain())
        require_acknowledged(found, edge_acknowledged)
        if found and not override_reason:
            raise ValidationFailed.on("override_reason", msg.EDGE_OVERRIDE_REQUIRED)
        if found:
            acknowledged[FIELD] = list(found.lines)  # recorded by the approval's event

    return workflow.take(
        paytable,
        "approve",
        actor=actor,
        reason=(reason or "").strip() or override_reason,
        check=check,
        changes={"edge_override_reason": override_reason},
        impact=impact,
        noted=acknowledged,
    )


# The steps with nothing of a paytable's own, as the workflow's table declares them.
paytable_submit = workflow.step_entry("submit", kind="paytable", keyword="paytable")
paytable_reject = workflow.step_entry("reject", kind="paytable", keyword="paytable")
paytable_request_changes = workflow.step_entry(
    "request_changes", kind="paytable", keyword="paytable"
)
paytable_withdraw = workflow.step_entry("withdraw", kind="paytable", keyword="paytable")
paytable_amend = workflow.step_entry("amend", kind="paytable", keyword="paytable")
