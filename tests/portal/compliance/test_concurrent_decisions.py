"""Two officers deciding the same record at once: exactly one decision wins."""

import datetime

import pytest

from portal.audit.chain import verify
from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, RecordStatus
from portal.compliance.services.layouts import layout_approve, layout_reject, layout_submit
from portal.core.errors import Conflict
from tests.portal.concurrency import run_together
from tests.portal.factories import make_layout

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_officers_deciding_one_layout_at_once_exactly_one_wins(
    manager_a, officer, officer2, holder_a
):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    outcomes = run_together(
        lambda: layout_approve(
            actor=officer,
            layout=Layout.objects.get(pk=layout.pk),
            reference_number="BGO-1",
            effective_date=datetime.date(2026, 1, 1),
            expiry_date=datetime.date(2028, 1, 1),
        ),
        lambda: layout_reject(
            actor=officer2, layout=Layout.objects.get(pk=layout.pk), reason="Artwork unclear"
        ),
    )

    winners = [o for o in outcomes if isinstance(o, Layout)]
    losers = [o for o in outcomes if isinstance(o, Conflict)]
    assert (len(winners), len(losers)) == (1, 1), outcomes
    assert "already decided" in losers[0].message
    layout.refresh_from_db()
    assert layout.status == winners[0].status
    assert layout.status in (RecordStatus.APPROVED, RecordStatus.REJECTED)
    decisions = AuditEvent.objects.filter(
        object_type="layout",
        object_id=str(layout.pk),
        action__in=["layout.approve", "layout.reject"],
    )
    assert decisions.count() == 1
    assert verify(AuditEvent.objects.order_by("sequence")).ok


def test_many_concurrent_audited_writes_keep_one_unbroken_chain(manager_a, holder_a):
    outcomes = run_together(
        *[
            (lambda n=n: make_layout(manager_a, holder_a, title=f"Layout {n}", artwork=None))
            for n in range(8)
        ]
    )

    assert all(isinstance(o, Layout) for o in outcomes), outcomes
    report = verify(AuditEvent.objects.order_by("sequence"))
    assert report.ok, report
    assert AuditEvent.objects.filter(action="layout.create").count() == 8
