"""A wallet top-up is an event of the audit trail (§ 811a.7), written with its ledger entry."""

import pytest
from rest_framework.test import APIClient

from portal.audit.chain import verify_stored
from portal.audit.models import AuditEvent
from portal.core.errors import ValidationFailed
from portal.game.funds import MAX_DEMO_BALANCE, TOP_UP_ACTION
from portal.game.models import LedgerEntry
from portal.integrity.records import verify_records
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import MONEY_TESTS

pytestmark = MONEY_TESTS


def _top_up_events():
    return AuditEvent.objects.filter(action=TOP_UP_ACTION).order_by("sequence")


def test_811a7_a_top_up_writes_exactly_one_event_naming_its_entry(player):
    wallet_top_up(player=player, amount=2_000)
    head = AuditEvent.objects.order_by("-sequence").first()

    wallet = wallet_top_up(player=player, amount=5_000)

    entry = LedgerEntry.objects.get(wallet=wallet, amount=5_000)
    (event,) = AuditEvent.objects.filter(sequence__gt=head.sequence)
    assert (event.action, event.object_type, event.object_id) == (
        "wallet.top_up",
        "wallet",
        str(wallet.pk),
    )
    assert (event.actor_id, event.actor_username) == (player.pk, "player")
    assert event.before == {"balance": 2_000}
    assert event.after == {"ledger_entry": entry.pk, "amount": 5_000, "balance_after": 7_000}
    assert verify_stored().ok
    assert verify_records().ok


@pytest.mark.parametrize("amount", [0, 1, 3.5, "100", 100_001])
def test_811a7_a_refused_top_up_writes_no_event_and_no_entry(player, amount):
    with pytest.raises(ValidationFailed):
        wallet_top_up(player=player, amount=amount)

    assert not _top_up_events().exists()
    assert not LedgerEntry.objects.exists()


def test_811a7_a_top_up_over_the_balance_cap_writes_no_event(player):
    for _ in range(MAX_DEMO_BALANCE // 100_000):
        wallet_top_up(player=player, amount=100_000)
    events = _top_up_events().count()

    with pytest.raises(ValidationFailed):
        wallet_top_up(player=player, amount=2)

    assert _top_up_events().count() == events == MAX_DEMO_BALANCE // 100_000


def test_811a7_a_top_up_through_the_api_is_audited(player):
    api = APIClient()
    api.force_login(player)

    answer = api.post("/api/wallet/top-up/", {"amount": 4_000}, format="json")

    assert answer.status_code == 200
    (event,) = _top_up_events()
    entry = LedgerEntry.objects.get()
    assert event.actor_id == player.pk
    assert event.after == {"ledger_entry": entry.pk, "amount": 4_000, "balance_after": 4_000}
    assert api.post("/api/wallet/top-up/", {"amount": 1}, format="json").status_code == 400
    assert _top_up_events().count() == 1
