"""The holder's side of players' accounts, through HTTP: the payments queue and each
withdrawal (§ 812a.10), the holder's player accounts, and one account's page where
deposits made at the holder are recorded (§ 812a.7(a)) and the account restricted
(§ 812a.6, § 812a.12). Each holder's staff see only its accounts."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.utils import timezone

from portal.access.roles import Role
from portal.game.models import (
    AccountStatus,
    Deposit,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.withdrawals import withdrawal_request
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up
from tests.portal.page_helpers import field_errors, text

pytestmark = pytest.mark.django_db

QUEUE = "/play/payments/"


def _moved() -> tuple:
    return (
        Deposit.objects.count(),
        LedgerEntry.objects.count(),
        sorted(Withdrawal.objects.values_list("pk", "status")),
        sorted(GamingAccount.objects.values_list("pk", "balance", "held", "status")),
    )


@pytest.fixture
def requests_(funded_player, holder_a, holder_b):
    """Two pending withdrawals at holder A (the older first) and one at holder B."""
    player2 = make_user("player2", Role.PLAYER)
    account_a = GamingAccount.objects.get(player=funded_player, holder=holder_a)
    account_a2 = wallet_top_up(player=player2, amount=20_000, holder=holder_a)
    account_b = wallet_top_up(player=player2, amount=20_000, holder=holder_b)
    with time_machine.travel(timezone.now() - datetime.timedelta(hours=5), tick=False):
        older = withdrawal_request(player=player2, account_id=account_a2.pk, amount=7_500)
    newer = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=30_000)
    at_b = withdrawal_request(player=player2, account_id=account_b.pk, amount=1_000)
    return {"older": older, "newer": newer, "at_b": at_b, "account_a": account_a}


def page_html(response) -> str:
    return response.content.decode()


def _queue_ids(page: str) -> list[int]:
    body = page[page.index("Pending withdrawals") : page.index("Recently decided")]
    return [int(pk) for pk in re.findall(r'<a href="/play/payments/withdrawals/(\d+)/">', body)]


# The queue


def test_812a10_payments_staff_see_their_holders_pending_withdrawals_oldest_first(
    login, payments_a, requests_
):
    response = login(payments_a).get(QUEUE)

    page = text(response)
    assert response.status_code == 200
    assert _queue_ids(page) == [requests_["older"].pk, requests_["newer"].pk]
    assert requests_["at_b"].pk not in _queue_ids(page)  # holder B's
    assert "player2" in page and "$75.00" in page and "$300.00" in page
    assert "5\xa0hours" in page  # the older one's age
    # Each button names what it does.
    assert "Record as paid</button>" in page_html(response)
    assert "Refuse and release the hold</button>" in page_html(response)


def test_812a10_the_superuser_sees_every_holders_queue(login, superuser, requests_):
    page = text(login(superuser).get(QUEUE))

    assert sorted(_queue_ids(page)) == sorted(
        w.pk for k, w in requests_.items() if k != "account_a"
    )


@pytest.mark.parametrize("role", ["player", "auditor", "officer", "manager_a"])
def test_812a10_the_queue_is_for_those_who_pay(login, request, role):
    assert login(request.getfixturevalue(role)).get(QUEUE).status_code == 403


def test_the_header_offers_payments_and_player_accounts_by_role(
    login, payments_a, manager_a, auditor, player
):
    as_payments = text(login(payments_a).get(QUEUE))
    as_manager = text(login(manager_a).get("/compliance/"))
    as_auditor = text(login(auditor).get("/compliance/"))

    assert '<a href="/play/payments/">Payments</a>' in as_payments
    assert '<a href="/play/players/">Player accounts</a>' in as_payments
    assert 'href="/play/payments/"' not in as_manager
    assert '<a href="/play/players/">Player accounts</a>' in as_manager
    assert '<a href="/play/players/">Player accounts</a>' in as_auditor


# Paying and refusing


def test_812a10_payments_staff_pay_with_the_payout_reference(login, payments_a, requests_):
    withdrawal = requests_["newer"]
    client = login(payments_a)

    response = client.post(
        f"/play/payments/withdrawals/{withdrawal.pk}/",
        {"action": "pay", "payout_reference": "ACH-2026-0042"},
    )

    assert response.status_code == 302 and response["Location"] == QUEUE
    withdrawal.refresh_from_db()
    assert (withdrawal.status, withdrawal.payout_reference) == ("paid", "ACH-2026-0042")
    account = requests_["account_a"]
    account.refresh_from_db()
    assert (account.balance, account.held) == (70_000, 0)
    assert withdrawal.entry.kind == LedgerKind.WITHDRAWAL and withdrawal.entry.amount == -30_000
    page = text(client.get(QUEUE))
    assert withdrawal.pk not in _queue_ids(page)
    decided = page[page.index("Recently decided") :]
    assert "ACH-2026-0042" in decided and "payments_a" in decided


def test_812a10_a_payout_without_its_reference_is_refused_with_nothing_moved(
    login, payments_a, requests_
):
    before = _moved()

    response = login(payments_a).post(
        f"/play/payments/withdrawals/{requests_['newer'].pk}/",
        {"action": "pay", "payout_reference": "  "},
    )

    assert response.status_code == 400
    assert "give the payout&#x27;s reference" in field_errors(response, "pay_payout_reference")
    assert _moved() == before


def test_812a10_refusing_needs_a_reason_and_releases_the_hold(login, payments_a, requests_):
    withdrawal = requests_["newer"]
    client = login(payments_a)
    before = _moved()

    blank = client.post(
        f"/play/payments/withdrawals/{withdrawal.pk}/", {"action": "refuse", "reason": ""}
    )
    assert blank.status_code == 400
    assert "give the reason" in field_errors(blank, "refuse_reason")
    assert _moved() == before

    refused = client.post(
        f"/play/payments/withdrawals/{withdrawal.pk}/",
        {"action": "refuse", "reason": "Bank details do not match"},
    )
    assert refused.status_code == 302
    withdrawal.refresh_from_db()
    assert (withdrawal.status, withdrawal.reason) == ("refused", "Bank details do not match")
    assert GamingAccount.objects.get(pk=requests_["account_a"].pk).held == 0


def test_812a10_a_decided_withdrawal_is_not_decided_again(login, payments_a, requests_):
    withdrawal = requests_["newer"]
    client = login(payments_a)
    client.post(
        f"/play/payments/withdrawals/{withdrawal.pk}/", {"action": "pay", "payout_reference": "A1"}
    )
    before = _moved()

    again = client.post(
        f"/play/payments/withdrawals/{withdrawal.pk}/", {"action": "refuse", "reason": "oops"}
    )

    assert again.status_code == 409
    assert "only a pending one can be refused" in text(again)
    assert _moved() == before


def test_812a10_another_holders_withdrawal_is_not_there_for_payments_staff(
    login, payments_b, requests_
):
    before = _moved()
    path = f"/play/payments/withdrawals/{requests_['newer'].pk}/"

    assert login(payments_b).get(path).status_code == 404
    response = login(payments_b).post(path, {"action": "pay", "payout_reference": "X"})

    assert response.status_code == 404
    assert _moved() == before


@pytest.mark.parametrize("role", ["auditor", "manager_a", "officer"])
def test_812a10_those_who_only_look_may_not_pay(login, request, role, requests_):
    path = f"/play/payments/withdrawals/{requests_['newer'].pk}/"
    client = login(request.getfixturevalue(role))
    before = _moved()

    page = client.get(path)
    response = client.post(path, {"action": "pay", "payout_reference": "X"})

    assert page.status_code == 200 and 'value="pay"' not in text(page)
    assert response.status_code == 403
    assert _moved() == before


# The holder's player accounts


def test_812a4_the_holders_staff_list_only_its_accounts(
    login, payments_a, manager_b, officer, requests_, holder_a, holder_b
):
    as_a = text(login(payments_a).get("/play/players/"))
    as_b = text(login(manager_b).get("/play/players/"))
    as_officer = text(login(officer).get("/play/players/"))

    a_ids = set(GamingAccount.objects.filter(holder=holder_a).values_list("pk", flat=True))
    b_ids = set(GamingAccount.objects.filter(holder=holder_b).values_list("pk", flat=True))

    def listed(page):
        return {int(pk) for pk in re.findall(r'<a href="/play/players/(\d+)/">', page)}

    assert listed(as_a) == a_ids
    assert listed(as_b) == b_ids
    assert listed(as_officer) == a_ids | b_ids


def test_the_player_accounts_list_filters_by_player_and_status(
    login, officer, requests_, funded_player
):
    account = requests_["account_a"]
    account_set_status(actor=officer, account_id=account.pk, status="suspended", reason="r")
    client = login(officer)

    by_name = text(client.get("/play/players/?q=player2"))
    suspended = text(client.get("/play/players/?status=suspended"))

    assert f'href="/play/players/{account.pk}/"' not in by_name
    assert re.findall(r'<a href="/play/players/(\d+)/">', suspended) == [str(account.pk)]


def test_players_have_no_staff_pages(login, funded_player, requests_):
    client = login(funded_player)

    assert client.get("/play/players/").status_code == 403
    assert client.get(f"/play/players/{requests_['account_a'].pk}/").status_code == 403


# One account's page


def test_812a4_the_account_page_shows_balance_movements_withdrawals_and_deposits(
    login, manager_a, requests_
):
    account = requests_["account_a"]

    response = login(manager_a).get(f"/play/players/{account.pk}/")

    page = text(response)
    assert response.status_code == 200
    assert re.search(r'id="balance">\$1,000.00<', page)
    assert re.search(r'id="held">\$300.00<', page)
    assert re.search(r'id="available">\$700.00<', page)
    assert f'href="/play/payments/withdrawals/{requests_["newer"].pk}/"' in page
    assert "Demo top-up" in page and "the player" in page
    assert 'value="status"' in page and 'value="deposit"' not in page  # managers restrict only


def test_812a7a_payments_staff_record_a_deposit_made_at_the_holder(login, payments_a, requests_):
    account = requests_["account_a"]
    client = login(payments_a)

    response = client.post(
        f"/play/players/{account.pk}/",
        {"action": "deposit", "amount": "40.25", "method": "cash", "reference": "CAGE-7"},
    )

    assert response.status_code == 302
    deposit = Deposit.objects.latest("pk")
    assert (deposit.amount, deposit.method, deposit.made_by) == (4_025, "cash", payments_a)
    account.refresh_from_db()
    assert account.balance == 104_025
    assert "CAGE-7" in text(client.get(f"/play/players/{account.pk}/"))


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"method": "card"}, "method", "Select a valid choice"),
        ({"amount": "4.255"}, "amount", "two digits of cents"),
        ({"amount": "0"}, "amount", "whole number of cents"),
        ({"reference": ""}, "reference", "reference"),
    ],
)
def test_812a7a_an_odd_recorded_deposit_is_refused_with_nothing_moved(
    login, payments_a, requests_, changes, field, says
):
    account = requests_["account_a"]
    before = _moved()

    response = login(payments_a).post(
        f"/play/players/{account.pk}/",
        {"action": "deposit", "amount": "10", "method": "cash", "reference": "R"} | changes,
    )

    assert response.status_code == 400
    assert says in field_errors(response, f"deposit_{field}")
    assert _moved() == before


def test_812a7a_another_holders_account_is_not_there(login, payments_b, requests_):
    account = requests_["account_a"]
    before = _moved()

    response = login(payments_b).post(
        f"/play/players/{account.pk}/",
        {"action": "deposit", "amount": "10", "method": "cash", "reference": "R"},
    )

    assert response.status_code == 404
    assert _moved() == before


def test_auditors_read_the_account_and_change_nothing(login, auditor, requests_):
    account = requests_["account_a"]
    client = login(auditor)
    before = _moved()

    page = text(client.get(f"/play/players/{account.pk}/"))
    deposit = client.post(
        f"/play/players/{account.pk}/",
        {"action": "deposit", "amount": "10", "method": "cash", "reference": "R"},
    )
    status = client.post(
        f"/play/players/{account.pk}/", {"action": "status", "status": "suspended", "reason": "r"}
    )

    assert 'value="deposit"' not in page and 'value="status"' not in page
    assert deposit.status_code == 403 and status.status_code == 403
    assert _moved() == before


def test_812a12_a_manager_suspends_with_a_reason_and_reopens(
    login, manager_a, requests_, funded_player
):
    account = requests_["account_a"]
    client = login(manager_a)
    before = _moved()

    blank = client.post(
        f"/play/players/{account.pk}/", {"action": "status", "status": "suspended", "reason": ""}
    )
    assert blank.status_code == 400 and "give the reason" in field_errors(blank, "status_reason")
    assert _moved() == before

    suspended = client.post(
        f"/play/players/{account.pk}/",
        {"action": "status", "status": "suspended", "reason": "Source of funds review"},
    )
    assert suspended.status_code == 302
    account.refresh_from_db()
    assert (account.status, account.status_reason) == ("suspended", "Source of funds review")
    page = text(client.get(f"/play/players/{account.pk}/"))
    assert "Suspended by the holder (§ 812a.12)" in page and "Source of funds review" in page

    client.post(
        f"/play/players/{account.pk}/", {"action": "status", "status": "open", "reason": "Cleared"}
    )
    account.refresh_from_db()
    assert account.status == AccountStatus.OPEN


def test_812a6_compliance_records_a_self_exclusion_from_the_boards_list(login, officer, requests_):
    account = requests_["account_a"]

    response = login(officer).post(
        f"/play/players/{account.pk}/",
        {"action": "status", "status": "self_excluded", "reason": "PGCB list entry 2026-117"},
    )

    assert response.status_code == 302
    account.refresh_from_db()
    assert account.status == "self_excluded"


def test_an_unknown_status_is_refused(login, officer, requests_):
    account = requests_["account_a"]
    before = _moved()

    response = login(officer).post(
        f"/play/players/{account.pk}/", {"action": "status", "status": "closed", "reason": "r"}
    )

    assert response.status_code == 400
    assert _moved() == before


def test_a_withdrawal_pending_shows_its_age(login, payments_a, requests_):
    page = text(login(payments_a).get(f"/play/payments/withdrawals/{requests_['older'].pk}/"))

    assert "5\xa0hours ago" in page
    assert WithdrawalStatus.PENDING.label in page
