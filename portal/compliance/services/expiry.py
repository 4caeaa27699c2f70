"""The job that marks approvals expired once their expiry date (or the sunset) arrives.

It runs at Pennsylvania midnight (the beat schedule), but nothing depends on it having
run: liveness compares the dates itself (``offering_is_live``).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q

from portal.compliance.models import SUNSET, Layout, Paytable, RulesSubmission
from portal.compliance.services.audited import save_with_audit
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.core.padates import pa_today


@transaction.atomic
def records_expire_due(*, today: datetime.date | None = None) -> int:
    """Approved records whose expiry date has come become ``expired``; returns how many.

    An approval holds from its effective date up to, not including, its expiry date;
    after the sunset of § 617b.8 (2028-06-14) nothing approved under it holds.
    """
    today = today or pa_today()
    expire = RECORD_WORKFLOW["expire"]
    due = Q(expiry_date__lte=today)
    if today >= SUNSET:
        due |= Q(expiry_date__isnull=True)
    expired = 0
    for model in (Layout, Paytable, RulesSubmission):
        for record in model.objects.select_for_update().filter(due, status__in=expire.sources):
            reason = (
                f"expired on {record.expiry_date.isoformat()}"
                if record.expiry_date
                else "§ 617b.8 expired on 2028-06-14"
            )
            save_with_audit(
                record,
                actor=None,
                verb=expire.verb,
                changes={"status": expire.target},
                reason=reason,
            )
            expired += 1
    return expired
