import pytest
from django.core.management import call_command

from portal.audit.chain import verify
from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, Offering, Paytable, RecordStatus, RulesSubmission
from portal.compliance.selectors import offering_is_live
from portal.demo.services import DEMO_PASSWORD

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
