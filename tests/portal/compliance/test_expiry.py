import datetime

import pytest
import time_machine
from django.utils import timezone

from portal.compliance.models import RecordStatus
from portal.compliance.services.layouts import layout_approve, layout_submit
from portal.compliance.tasks import expire_due_records
from portal.core.padates import pa_date
from tests.portal.factories import make_layout

pytestmark = pytest.mark.django_db


def test_expiry_task_expires_a_lapsed_approval(manager_a, officer, holder_a):
    now = timezone.now()
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    layout_approve(
        actor=officer,
        layout=layout,
        reference_number="BGO-SOON",
        effective_date=datetime.date(2025, 7, 1),
        expiry_date=pa_date(now) + datetime.timedelta(days=1),
    )
    assert expire_due_records.delay().get() == 0  # still holds today

    with time_machine.travel(now + datetime.timedelta(days=1)):
        assert expire_due_records.delay().get() == 1
    layout.refresh_from_db()
    assert layout.status == RecordStatus.EXPIRED
