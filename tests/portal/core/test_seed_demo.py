import pytest
from django.core.management import call_command

from portal.audit.chain import verify
from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, Offering, Paytable, RecordStatus, RulesSubmission
from portal.compliance.selectors import offering_is_live
from portal.core.demo import DEMO_PASSWORD

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_prints_credentials(capsys):
    call_command("seed_demo")
    counts = (Layout.objects.count(), Offering.objects.count(), AuditEvent.objects.count())
    call_command("seed_demo")

    assert (Layout.objects.count(), Offering.objects.count(), AuditEvent.objects.count()) == counts
    out = capsys.readouterr().out
    for username in ("admin", "officer", "manager", "auditor", "player"):
        assert f"  {username}" in out
    assert DEMO_PASSWORD in out


def test_seed_demo_has_every_status_a_live_offering_and_an_intact_trail(client):
    call_command("seed_demo")

    every = set(RecordStatus.values)
    assert set(Layout.objects.values_list("status", flat=True)) == every
    assert set(RulesSubmission.objects.values_list("status", flat=True)) == every
    # Paytables carry no expiry date, so only the sunset could expire one.
    assert set(Paytable.objects.values_list("status", flat=True)) == every - {"expired"}
    assert any(offering_is_live(o).live for o in Offering.objects.all())
    assert verify(AuditEvent.objects.order_by("sequence")).ok
    assert client.login(username="officer", password=DEMO_PASSWORD)


def test_expiry_task_expires_a_lapsed_approval(manager_a, officer, holder_a, monkeypatch):
    import datetime

    from django.utils import timezone

    from portal.compliance import services
    from portal.compliance.services import expiry
    from portal.compliance.tasks import expire_due_records
    from tests.portal.factories import make_layout

    now = timezone.now()
    layout = services.layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    services.layout_approve(
        actor=officer,
        layout=layout,
        reference_number="BGO-SOON",
        effective_date=datetime.date(2025, 7, 1),
        expiry_date=now.date() + datetime.timedelta(days=1),
    )
    assert expire_due_records.delay().get() == 0  # still holds today

    monkeypatch.setattr(expiry.timezone, "now", lambda: now + datetime.timedelta(days=1))
    assert expire_due_records.delay().get() == 1
    layout.refresh_from_db()
    assert layout.status == RecordStatus.EXPIRED
