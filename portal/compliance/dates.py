"""The date rules of approvals: § 617b.8's life (2025-06-14 to its sunset, 2028-06-14) and an
approval's own effective and expiry dates, all Pennsylvania dates (reading:pennsylvania-dates)."""

from __future__ import annotations

import datetime

from portal.compliance import messages as msg
from portal.compliance.models import EFFECTIVE, SUNSET
from portal.core.errors import Conflict, ValidationFailed
from portal.core.padates import pa_today


def refuse_after_sunset(what: str, verb: str) -> None:
    """Once no approval could hold (on or after the sunset, a Pennsylvania date), nothing
    new is created or submitted for the game: it could never be approved or played."""
    if pa_today() >= SUNSET:
        raise Conflict(msg.NOTHING_CAN_HOLD.format(what=what, verb=verb))


def date_errors(
    effective: datetime.date | None,
    expiry: datetime.date | None,
    *,
    today: datetime.date | None = None,
) -> dict[str, list[str]]:
    """What is wrong with an approval's dates (Pennsylvania dates), by field: within
    § 617b.8's life, expiry after effect and, given ``today``, after today."""
    errors: dict[str, list[str]] = {}
    if effective is not None and effective < EFFECTIVE:
        errors["effective_date"] = [
            msg.EFFECTIVE_BEFORE_RULE.format(effective=effective.isoformat())
        ]
    if effective is not None and effective >= SUNSET:
        errors["effective_date"] = [
            msg.EFFECTIVE_AFTER_SUNSET.format(effective=effective.isoformat())
        ]
    if expiry is not None and expiry > SUNSET:
        errors["expiry_date"] = [msg.EXPIRY_AFTER_SUNSET.format(expiry=expiry.isoformat())]
    if effective is not None and expiry is not None and expiry <= effective:
        errors.setdefault("expiry_date", []).append(msg.EXPIRY_NOT_AFTER_EFFECTIVE)
    if today is not None and expiry is not None and expiry <= today:
        errors.setdefault("expiry_date", []).append(
            msg.EXPIRY_IN_THE_PAST.format(expiry=expiry.isoformat())
        )
    return errors


def check_dates(
    effective: datetime.date | None,
    expiry: datetime.date | None,
    *,
    today: datetime.date | None = None,
) -> None:
    """``date_errors``, raised as one ``ValidationFailed`` with every field's errors."""
    errors = date_errors(effective, expiry, today=today)
    if errors:
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)
