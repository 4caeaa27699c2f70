from celery import shared_task

from portal.compliance.services.availability import availability_sweep
from portal.compliance.services.expiry import records_expire_due


@shared_task(name="compliance.expire_due_records", autoretry_for=(Exception,), max_retries=3)
def expire_due_records() -> int:
    """At Pennsylvania midnight: approvals whose expiry date has come become ``expired``,
    then every table the calendar opened or closed is logged (§ 811a.7(f)). Returns how
    many approvals expired. Both steps are idempotent, so a retry is harmless."""
    expired = records_expire_due()
    availability_sweep()
    return expired
