import pytest
from django.core.management import call_command

from portal.audit.chain import verify
from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, Offering, Paytable, RecordStatus, RulesSubmission
from portal.compliance.selectors import offering_is_live
from portal.core.software import running_identity
from portal.demo.services import DEMO_PASSWORD
from portal.software.models import SoftwareApproval
from tests.portal.factories import sign_in

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


def test_seed_demo_has_every_status_but_expired_a_live_offering_and_an_intact_trail(client):
    call_command("seed_demo")

    # Everything is approved today, so nothing can honestly have expired yet (see
    # test_seed_demo_shows_nothing_expired_before_its_expiry_date).
    every_but_expired = set(RecordStatus.values) - {RecordStatus.EXPIRED}
    assert set(Layout.objects.values_list("status", flat=True)) == every_but_expired
    assert set(RulesSubmission.objects.values_list("status", flat=True)) == every_but_expired
    assert set(Paytable.objects.values_list("status", flat=True)) == every_but_expired
    assert any(offering_is_live(o).live for o in Offering.objects.all())
    assert verify(AuditEvent.objects.order_by("sequence")).ok
    sign_in(client, "officer", DEMO_PASSWORD)


def test_seed_demo_plays_rounds_and_runs_one_report_of_each_kind(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    from portal.game.chain import verify_rounds
    from portal.game.models import Round
    from portal.reports.models import ReportRun

    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo")

    rounds = Round.objects.order_by("player_id", "sequence").prefetch_related("bets")
    assert rounds.count() == 20 and verify_rounds(rounds).ok
    runs = {run.kind: run for run in ReportRun.objects.all()}
    assert set(runs) == {"expiry", "audit"}
    assert runs["audit"].status == "succeeded"
    # JSON, CSV, XLSX, PDF, and the Parquet of its detail (the expiry report has no detail).
    files = set(runs["audit"].files.values_list("format", flat=True))
    assert files == {"json", "csv", "xlsx", "pdf", "parquet"}
    assert set(runs["expiry"].files.values_list("format", flat=True)) == {
        "json",
        "csv",
        "xlsx",
        "pdf",
    }


def test_812a4_812a10_the_demo_player_has_an_account_with_each_holder_and_a_payments_queue(
    capsys,
):
    from portal.access.roles import Role, holder_id_of, roles_of
    from portal.compliance.models import CertificateHolder
    from portal.game.models import GamingAccount, LedgerEntry, Withdrawal

    call_command("seed_demo")

    out = capsys.readouterr().out
    holders = {h.licence_number: h for h in CertificateHolder.objects.all()}
    for username, licence in (("payments", "PA-DEMO-001"), ("payments2", "PA-DEMO-002")):
        assert f"  {username}" in out
        user = django_user(username)
        assert roles_of(user) == {Role.PAYMENTS}
        assert holder_id_of(user) == holders[licence].pk
        assert user.check_password(DEMO_PASSWORD)
    accounts = GamingAccount.objects.filter(player__username="player")
    assert {a.holder_id for a in accounts} == {h.pk for h in holders.values()}
    for account in accounts:
        entries = list(account.entries.order_by("pk"))
        assert (entries[0].kind, entries[0].amount) == ("deposit", 100_000)
        assert account.balance == sum(e.amount for e in entries) == entries[-1].balance_after
        pending = Withdrawal.objects.filter(account=account, status="pending")
        assert pending.exists() and account.held == sum(w.amount for w in pending)
    assert set(Withdrawal.objects.values_list("status", flat=True)) == {
        "pending",
        "paid",
        "refused",
    }
    assert LedgerEntry.objects.filter(kind="withdrawal").count() == 1
    assert not LedgerEntry.objects.filter(kind="top_up").exists()


def django_user(username):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def test_the_readme_names_every_demo_user():
    """A newcomer signs in from the README's table: every user ``seed_demo`` makes is in it."""
    from pathlib import Path

    from portal.demo.services import USERS

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    table = [line for line in readme.splitlines() if line.startswith("| `")]
    missing = [name for name, _, _ in USERS if not any(f"`{name}`" in row for row in table)]
    assert missing == []


def test_a_fresh_installs_notices_of_submissions_are_of_records_still_waiting():
    """The demo submits and decides most records at once: the inboxes tell officers only of
    those still waiting for a decision."""
    from portal.notifications.models import Notification
    from tests.portal.notifications.helpers import dispatch_twice

    call_command("seed_demo")
    dispatch_twice()

    waiting = Notification.objects.filter(kind="record_submitted")
    links = set(waiting.values_list("link", flat=True))
    submitted = {
        record.get_absolute_url()
        for model in (Layout, Paytable, RulesSubmission)
        for record in model.objects.filter(status=RecordStatus.SUBMITTED)
    }
    assert links and links <= submitted


@pytest.mark.clause("reading:software-approval", kind="related")
def test_461a4_the_demo_approves_the_software_it_runs_and_again_after_a_code_change(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo")
    approval = SoftwareApproval.objects.get()
    assert (approval.status, approval.digest) == ("approved", running_identity().digest)
    assert (approval.created_by.username, approval.decided_by.username) == ("officer", "officer2")
    assert approval.document.read().startswith(b"%PDF-")
    # The code changed (a new identity runs): the demo's tables close until it is approved,
    # and seeding again, as `make run` does at each start, approves it.
    SoftwareApproval.objects.filter(pk=approval.pk).update(status="withdrawn")
    assert not any(offering_is_live(o).live for o in Offering.objects.all())

    call_command("seed_demo")

    assert SoftwareApproval.objects.filter(status="approved").count() == 1
    assert any(offering_is_live(o).live for o in Offering.objects.all())
