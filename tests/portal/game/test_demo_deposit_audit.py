"""The demo's top-up is a deposit by the demo method (§ 812a.7(a), only with ``JINZI_DEMO``),
and an event of the audit trail (§ 811a.7), written with its ledger entry and deposit."""

import pytest
from rest_framework.test import APIClient

from portal.audit.chain import verify_stored
from portal.audit.models import AuditEvent
from portal.core.errors import ValidationFailed
from portal.game.models import Deposit, LedgerEntry
from portal.game.money.services.deposits import DEPOSIT_ACTION, MAX_DEMO_BALANCE, deposit_make
from portal.integrity.records import verify_records
from tests.portal.funding import wallet_top_up

pytestmark = pytest.mark.django_db


def _deposit_events():
    return AuditEvent.objects.filter(action=DEPOSIT_ACTION).order_by("sequence")


def test_812a7_a_demo_deposit_writes_exactly_one_event_naming_its_entry(player, holder_a):
    wallet_top_up(player=player, amount=2_000, holder=holder_a)  # opens the account
    head = AuditEvent.objects.order_by("-sequence").first()

    account = wallet_top_up(player=player, amount=5_000, holder=holder_a)

    entry = LedgerEntry.objects.get(account=account, amount=5_000)
    deposit = Deposit.objects.get(entry=entry)
    (event,) = AuditEvent.objects.filter(sequence__gt=head.sequence)
    assert (event.action, event.object_type, event.object_id) == (
        "account.deposit",
        "player_account",
        str(account.pk),
    )
    assert (event.actor_id, event.actor_username) == (player.pk, "player")
    assert event.before == {"balance": 2_000}
    assert event.after == {
        "deposit": deposit.pk,
        "ledger_entry": entry.pk,
        "amount": 5_000,
        "method": "demo",
        "reference": "",
        "balance_after": 7_000,
    }
    assert (entry.kind, entry.wallet.player_id) == ("deposit", player.pk)
    assert verify_stored().ok
    assert verify_records().ok


@pytest.mark.parametrize("amount", [0, -1, 3.5, "100", 100_001])
def test_812a7_a_refused_demo_deposit_writes_no_event_and_no_entry(player, holder_a, amount):
    with pytest.raises(ValidationFailed):
        deposit_make(player=player, holder_id=holder_a.pk, amount=amount, method="demo")

    assert not _deposit_events().exists()
    assert not LedgerEntry.objects.exists()
    assert not Deposit.objects.exists()


def test_812a7_a_demo_deposit_over_the_balance_cap_writes_no_event(player, holder_a):
    for _ in range(MAX_DEMO_BALANCE // 100_000):
        wallet_top_up(player=player, amount=100_000, holder=holder_a)
    events = _deposit_events().count()

    with pytest.raises(ValidationFailed):
        wallet_top_up(player=player, amount=2, holder=holder_a)

    assert _deposit_events().count() == events == MAX_DEMO_BALANCE // 100_000


def test_812a7_a_demo_top_up_through_the_api_is_an_audited_deposit(player, holder_a):
    api = APIClient()
    api.force_login(player)

    answer = api.post("/api/wallet/top-up/", {"amount": 4_000}, format="json")

    assert answer.status_code == 200, answer.content
    (event,) = _deposit_events()
    entry = LedgerEntry.objects.get()
    assert event.actor_id == player.pk
    assert event.after["ledger_entry"] == entry.pk
    assert (event.after["amount"], event.after["balance_after"]) == (4_000, 4_000)
    assert api.post("/api/wallet/top-up/", {"amount": 1.5}, format="json").status_code == 400
    assert _deposit_events().count() == 1
    assert verify_records().ok
