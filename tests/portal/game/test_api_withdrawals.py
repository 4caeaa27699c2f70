"""``/api/withdrawals/``: the requests to be paid from an account (§ 812a.10). A player
lists and cancels their own; the holder's payments staff list theirs, pay them (with the
payout's reference) or refuse them (with the reason); nobody else acts on them, and odd
input is refused with a 4xx and nothing moved."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

from portal.audit.models import AuditEvent
from portal.game.models import GamingAccount, LedgerEntry, Withdrawal
from portal.game.money.services.withdrawals import withdrawal_request
from tests.portal.game.account_helpers import nothing_moved

pytestmark = pytest.mark.django_db

WITHDRAWAL_KEYS = [
    *("id", "account", "holder", "holder_name", "player", "amount", "status", "requested_at"),
    *("age_seconds", "decided_at", "decided_by", "payout_reference", "reason", "ledger_entry"),
]


@pytest.fixture
def pending(funded_player, account_a) -> Withdrawal:
    """$300 asked for from the player's account with holder A, an hour ago."""
    with time_machine.travel(timezone.now() - datetime.timedelta(hours=1), tick=False):
        return withdrawal_request(player=funded_player, account_id=account_a.pk, amount=30_000)


@pytest.fixture
def theirs(other_player, holder_b) -> Withdrawal:
    """Another player's request at holder B."""
    account = GamingAccount.objects.get(player=other_player, holder=holder_b)
    return withdrawal_request(player=other_player, account_id=account.pk, amount=10_000)


def listed(client, **query) -> list[dict]:
    answer = client.get("/api/withdrawals/", query)
    assert answer.status_code == 200
    return answer.json()["results"]


def test_812a10_a_player_lists_their_own_requests_with_their_age(
    api_as, funded_player, pending, theirs
):
    client = api_as(funded_player)

    [shown] = listed(client)
    assert list(shown) == WITHDRAWAL_KEYS
    assert (shown["id"], shown["status"], shown["amount"]) == (pending.pk, "pending", 30_000)
    assert (shown["holder_name"], shown["player"]) == ("Keystone Casino", "player")
    assert 3_600 <= shown["age_seconds"] < 3_700
    assert client.get(f"/api/withdrawals/{pending.pk}/").json()["id"] == pending.pk
    assert client.get(f"/api/withdrawals/{theirs.pk}/").status_code == 404


@pytest.mark.parametrize(
    ("role", "sees"),
    [
        ("payments_a", {"a"}),
        ("manager_a", {"a"}),
        ("payments_b", {"b"}),
        ("officer", {"a", "b"}),
        ("auditor", {"a", "b"}),
    ],
)
def test_812a10_staff_see_the_requests_of_the_holders_the_policy_shows_them(
    request, api_as, role, sees, pending, theirs
):
    client = api_as(request.getfixturevalue(role))
    by_holder = {"a": pending, "b": theirs}

    assert {row["id"] for row in listed(client)} == {by_holder[h].pk for h in sees}
    for key, withdrawal in by_holder.items():
        status = 200 if key in sees else 404
        assert client.get(f"/api/withdrawals/{withdrawal.pk}/").status_code == status


def test_812a10_the_queue_filters_by_status_and_refuses_an_unknown_one(
    api_as, payments_a, funded_player, account_a, pending
):
    later = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=1_000)
    client = api_as(payments_a)
    client.post(f"/api/withdrawals/{later.pk}/refuse/", {"reason": "Duplicate"}, "json")

    assert [row["id"] for row in listed(client, status="pending")] == [pending.pk]
    [refused] = listed(client, status="refused")
    assert (refused["id"], refused["age_seconds"], refused["reason"]) == (
        later.pk,
        None,
        "Duplicate",
    )
    for odd in ("nope", "PENDING", "1"):
        assert client.get("/api/withdrawals/", {"status": odd}).status_code == 400


def test_812a10_the_player_cancels_a_pending_request_and_the_hold_is_released(
    api_as, funded_player, account_a, pending
):
    client = api_as(funded_player)

    answer = client.post(f"/api/withdrawals/{pending.pk}/cancel/", {}, "json")

    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["decided_by"]) == ("cancelled", "player")
    account_a.refresh_from_db()
    assert (account_a.balance, account_a.held) == (100_000, 0)
    with nothing_moved():
        again = client.post(f"/api/withdrawals/{pending.pk}/cancel/", {}, "json")
    assert again.status_code == 409


@pytest.mark.parametrize("body", [{"reason": "x"}, [], "x", {"status": "cancelled"}])
def test_812a10_cancel_takes_no_body(api_as, funded_player, pending, body):
    with nothing_moved():
        answer = api_as(funded_player).post(f"/api/withdrawals/{pending.pk}/cancel/", body, "json")

    assert answer.status_code == 400


def test_812a10_a_player_cannot_cancel_another_players_request(api_as, funded_player, theirs):
    with nothing_moved():
        answer = api_as(funded_player).post(f"/api/withdrawals/{theirs.pk}/cancel/", {}, "json")

    assert answer.status_code == 404


@pytest.mark.parametrize("role", ["payments_a", "manager_a", "officer", "auditor", "superuser"])
def test_812a10_only_the_player_cancels_their_request(request, api_as, role, pending):
    client = api_as(request.getfixturevalue(role))

    with nothing_moved():
        answer = client.post(f"/api/withdrawals/{pending.pk}/cancel/", {}, "json")

    assert answer.status_code == 403


def test_812a10_payments_staff_pay_a_request_and_the_money_leaves_the_account(
    api_as, payments_a, account_a, pending
):
    answer = api_as(payments_a).post(
        f"/api/withdrawals/{pending.pk}/pay/", {"payout_reference": "ACH 7781"}, "json"
    )

    assert answer.status_code == 200
    body = answer.json()
    assert (body["status"], body["decided_by"], body["payout_reference"]) == (
        "paid",
        "payments_a",
        "ACH 7781",
    )
    entry = LedgerEntry.objects.get(pk=body["ledger_entry"])
    assert (entry.kind, entry.amount, entry.balance_after) == ("withdrawal", -30_000, 70_000)
    account_a.refresh_from_db()
    assert (account_a.balance, account_a.held) == (70_000, 0)
    event = AuditEvent.objects.filter(action="withdrawal.pay").latest("sequence")
    assert (event.actor_id, event.object_id) == (payments_a.pk, str(pending.pk))
    with nothing_moved():
        twice = api_as(payments_a).post(
            f"/api/withdrawals/{pending.pk}/pay/", {"payout_reference": "ACH 7782"}, "json"
        )
    assert twice.status_code == 409


def test_812a10_payments_staff_refuse_a_request_saying_why_and_the_hold_is_released(
    api_as, payments_a, account_a, pending
):
    answer = api_as(payments_a).post(
        f"/api/withdrawals/{pending.pk}/refuse/", {"reason": "Bring photo ID"}, "json"
    )

    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["reason"]) == ("refused", "Bring photo ID")
    account_a.refresh_from_db()
    assert (account_a.balance, account_a.held) == (100_000, 0)


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("payments_b", 404),  # another holder's request is not there to them
        ("manager_b", 403),  # a manager never pays, whatever the holder
        ("manager_a", 403),
        ("officer", 403),
        ("auditor", 403),
        ("funded_player", 403),
    ],
)
def test_812a10_only_the_holders_payments_staff_pay_or_refuse(
    request, api_as, role, status, pending
):
    client = api_as(request.getfixturevalue(role))

    with nothing_moved():
        paid = client.post(
            f"/api/withdrawals/{pending.pk}/pay/", {"payout_reference": "ACH 1"}, "json"
        )
        refused = client.post(f"/api/withdrawals/{pending.pk}/refuse/", {"reason": "x"}, "json")

    assert (paid.status_code, refused.status_code) == (status, status)


@pytest.mark.parametrize(
    ("step", "body"),
    [
        ("pay", {}),
        ("pay", {"payout_reference": ""}),
        ("pay", {"payout_reference": "   "}),
        ("pay", {"payout_reference": "x" * 101}),
        ("pay", {"payout_reference": 7781}),
        ("pay", {"payout_reference": ["ACH"]}),
        ("pay", {"payout_reference": "ACH 1", "amount": 1}),
        ("pay", []),
        ("refuse", {}),
        ("refuse", {"reason": ""}),
        ("refuse", {"reason": None}),
        ("refuse", {"reason": {"text": "x"}}),
        ("refuse", {"reason": "x" * 2001}),
        ("refuse", {"reason": "x", "status": "paid"}),
        ("refuse", "x"),
    ],
)
def test_812a10_an_odd_decision_is_refused_and_moves_nothing(
    api_as, payments_a, pending, step, body
):
    client = api_as(payments_a)

    with nothing_moved():
        answer = client.post(f"/api/withdrawals/{pending.pk}/{step}/", body, "json")

    assert answer.status_code == 400


@pytest.mark.parametrize("withdrawal_id", ["abc", "1.5", "0", "-3", "99999999999999999999999"])
def test_a_withdrawal_id_that_names_none_is_a_404(api_as, payments_a, pending, withdrawal_id):
    client = api_as(payments_a)

    with nothing_moved():
        answer = client.post(
            f"/api/withdrawals/{withdrawal_id}/pay/", {"payout_reference": "ACH 1"}, "json"
        )

    assert answer.status_code == 404
    assert client.get(f"/api/withdrawals/{withdrawal_id}/").status_code == 404


def test_withdrawals_are_never_created_replaced_or_deleted_at_the_list(
    api_as, funded_player, pending
):
    client = api_as(funded_player)

    with nothing_moved():
        assert client.post("/api/withdrawals/", {"amount": 1}, "json").status_code == 405
        assert client.put(f"/api/withdrawals/{pending.pk}/", {}, "json").status_code == 405
        assert client.delete(f"/api/withdrawals/{pending.pk}/").status_code == 405


def test_the_withdrawal_list_answers_in_a_fixed_number_of_queries(
    api_as, payments_a, funded_player, account_a, pending, django_assert_num_queries
):
    client = api_as(payments_a)
    with django_assert_num_queries(5):
        assert len(listed(client)) == 1
    for _ in range(4):
        withdrawal_request(player=funded_player, account_id=account_a.pk, amount=1_000)
    with django_assert_num_queries(5):
        assert len(listed(client)) == 5
