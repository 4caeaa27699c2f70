from celery import shared_task

from portal.compliance.services import records_expire_due


@shared_task(name="compliance.expire_due_records", autoretry_for=(Exception,), max_retries=3)
def expire_due_records() -> int:
    """Daily: approvals whose expiry date has come become ``expired``."""
    return records_expire_due()
