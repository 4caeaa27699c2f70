"""The player's account page (Chapter 812a, § 814a.2), through HTTP: balances per holder,
movements, deposits, withdrawals, limits, a break, the account's status and the previous
session. Every refusal is a 4xx with nothing moved."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from portal.access.roles import Role
from portal.core.money import cents_of
from portal.core.templatetags.pa_time import pa_time
from portal.game.models import (
    AccountLimit,
    AccountStatus,
    Deposit,
    GamingAccount,
    LedgerEntry,
    PlaySession,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.withdrawals import withdrawal_request
from portal.game.play.services import round_play
from tests.portal.factories import in_session, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits
from tests.portal.page_helpers import field_errors, text

pytestmark = pytest.mark.django_db

URL = "/play/account/"


def _account(player, holder) -> GamingAccount:
    return GamingAccount.objects.get(player=player, holder=holder)


def _moved() -> tuple:
    """Everything a refused form must leave as it was."""
    return (
        Deposit.objects.count(),
        Withdrawal.objects.count(),
        LedgerEntry.objects.count(),
        sorted(GamingAccount.objects.values_list("pk", "balance", "held")),
        sorted(AccountLimit.objects.values_list("pk", "account", "kind", "amount")),
    )


def _section(page: str, holder) -> str:
    start = page.index(f'id="holder-{holder.pk}"')
    end = page.find("</section>", start)
    return page[start:end]


# Reading amounts


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("25", 2500),
        ("25.5", 2550),
        ("25.05", 2505),
        ("$1,234.56", 123456),
        (" 0.01 ", 1),
        ("1000000", 100000000),
    ],
)
def test_amounts_typed_in_dollars_are_read_as_exact_cents(typed, cents):
    assert cents_of(typed) == cents


@pytest.mark.parametrize("typed", ["12.345", "-5", "1e3", "12.3.4", "abc", "1,23.00", "", "0x10"])
def test_anything_else_is_not_an_amount(typed):
    assert cents_of(typed) is None


# The page


def test_812a4_the_page_shows_balance_held_and_available_per_holder(
    login, funded_player, holder_a, holder_b
):
    wallet_top_up(player=funded_player, amount=5_000, holder=holder_b)
    account_a = _account(funded_player, holder_a)
    withdrawal_request(player=funded_player, account_id=account_a.pk, amount=25_000)

    page = text(login(funded_player).get(URL))

    row_a = re.search(rf'<tr id="account-{account_a.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "Keystone Casino" in row_a
    assert "$1,000.00" in row_a and "$250.00" in row_a and "$750.00" in row_a
    account_b = _account(funded_player, holder_b)
    row_b = re.search(rf'<tr id="account-{account_b.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "Susquehanna Gaming" in row_b and "$50.00" in row_b
    # The latest movements, each with its reference; the statement of each account.
    section = _section(page, holder_a)
    assert "Deposit" in section and "Demo top-up" in section
    assert "Demo top-up: " not in section  # a demo top-up has no payment to refer to
    assert f'href="/play/account/{account_a.pk}/statement/"' in page


def test_812a4_a_player_without_accounts_is_told_how_to_open_one(login, player, holder_a):
    response = login(player).get(URL)

    assert response.status_code == 200
    assert "You have no account yet" in text(response)
    assert 'name="action" value="withdraw"' not in text(response)


def test_the_movements_link_their_rounds(login, funded_player, live_offering, holder_a):
    played = round_play(
        player=funded_player,
        session=in_session(funded_player),
        offering_id=live_offering.pk,
        wagers=[{"kind": "red", "stake": 200}],
        idempotency_key="account-page-round",
        rng=FixedBits(3),
    ).round

    section = _section(text(login(funded_player).get(URL)), holder_a)

    assert f'<a href="/play/rounds/{played.pk}/">Round #{played.pk}</a>' in section
    assert "Round stake" in section and "-$2.00" in section


@pytest.mark.parametrize("role", ["auditor", "officer", "manager_a", "payments_a", "superuser"])
def test_only_players_have_an_account_page(login, request, role):
    response = login(request.getfixturevalue(role)).get(URL)

    assert response.status_code == 403


def test_signed_out_visitors_are_sent_to_sign_in(client):
    response = client.get(URL)

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_812a9_a_4_the_page_shows_the_previous_session(login, player):
    earlier = timezone.now() - datetime.timedelta(days=2)
    PlaySession.objects.create(
        user=player, started_at=earlier, ended_at=earlier + datetime.timedelta(hours=1)
    )

    client = login(player)  # signing in begins the current session
    assert PlaySession.objects.filter(user=player).count() == 2
    page = text(client.get(URL))

    assert f"Your previous session began {pa_time(earlier)}" in page


def test_the_header_offers_my_account_to_players_only(login, player, auditor):
    assert 'href="/play/account/"' in text(login(player).get("/play/"))
    assert 'href="/play/account/"' not in text(login(auditor).get("/compliance/"))


def test_812a4_the_table_page_links_the_account_in_play(login, funded_player, live_offering):
    page = text(login(funded_player).get(f"/play/{live_offering.pk}/"))

    assert f'href="/play/account/#holder-{live_offering.holder_id}"' in page


def test_812a4_the_table_page_without_an_account_links_the_deposit(login, player, live_offering):
    page = text(login(player).get(f"/play/{live_offering.pk}/"))

    assert "You have no account with Keystone Casino yet" in page
    assert '<a href="/play/account/">make a deposit</a>' in page


def test_812a4_my_games_show_the_balance_and_hold_per_account(
    login, funded_player, holder_a, holder_b
):
    wallet_top_up(player=funded_player, amount=5_000, holder=holder_b)
    account = _account(funded_player, holder_a)
    withdrawal_request(player=funded_player, account_id=account.pk, amount=10_000)

    page = text(login(funded_player).get("/play/history/"))

    assert "<strong>$1,000.00</strong> with Keystone Casino ($100.00 held for withdrawals)" in page
    assert "<strong>$50.00</strong> with Susquehanna Gaming" in page


# Deposits (§ 812a.7)


def test_812a7_a_player_deposits_dollars_and_cents_as_exact_cents(login, player, holder_a):
    client = login(player)

    response = client.post(
        URL,
        {
            "action": "deposit",
            "holder": holder_a.pk,
            "amount": "12.34",
            "method": "card",
            "reference": "VISA-1234",
        },
    )

    assert response.status_code == 302 and response["Location"] == URL
    deposit = Deposit.objects.get()
    assert (deposit.amount, deposit.method, deposit.reference) == (1234, "card", "VISA-1234")
    assert _account(player, holder_a).balance == 1234
    page = text(client.get(URL))
    assert "Deposited $12.34 into your account with Keystone Casino." in page
    assert "Debit or credit card: VISA-1234" in page


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"amount": "12.345"}, "amount", "at most two digits of cents"),
        ({"amount": "-5"}, "amount", "dollars and cents"),
        ({"amount": "1e3"}, "amount", "dollars and cents"),
        ({"amount": "0"}, "amount", "whole number of cents from 1"),
        ({"amount": ""}, "amount", "Enter the amount"),
        ({"method": "credit"}, "method", "Select a valid choice"),
        ({"method": "cash"}, "method", "Select a valid choice"),
        ({"holder": "999999"}, "holder", "Select a valid choice"),
        ({"reference": ""}, "reference", "give the payment"),
    ],
)
def test_812a7_an_odd_deposit_is_refused_with_nothing_moved(
    login, funded_player, holder_a, changes, field, says
):
    posted = {
        "action": "deposit",
        "holder": holder_a.pk,
        "amount": "10.00",
        "method": "card",
        "reference": "VISA-1",
    }
    before = _moved()

    response = login(funded_player).post(URL, posted | changes)

    assert response.status_code == 400
    assert says in field_errors(response, f"deposit_{field}")
    assert _moved() == before


def test_812a6_a_self_excluded_account_takes_no_deposit_but_pays_out(
    login, funded_player, holder_a, officer
):
    account = _account(funded_player, holder_a)
    account_set_status(
        actor=officer, account_id=account.pk, status="self_excluded", reason="Board list 7"
    )
    client = login(funded_player)
    before = _moved()

    refused = client.post(
        URL,
        {
            "action": "deposit",
            "holder": holder_a.pk,
            "amount": "10",
            "method": "card",
            "reference": "V",
        },
    )
    assert refused.status_code == 409
    assert "§ 812a.6" in text(refused) and "no play and no deposits" in text(refused)
    assert _moved() == before
    page = text(client.get(URL))
    assert "Self-excluded (§ 812a.6): no play and no deposits; you can still withdraw" in page
    assert "Board list 7" in page

    allowed = client.post(URL, {"action": "withdraw", "account": account.pk, "amount": "100"})
    assert allowed.status_code == 302
    assert _account(funded_player, holder_a).held == 10_000


def test_812a12_a_suspended_account_is_explained_in_plain_words(
    login, funded_player, holder_a, manager_a
):
    account = _account(funded_player, holder_a)
    account_set_status(
        actor=manager_a, account_id=account.pk, status="suspended", reason="Checking ID"
    )

    section = _section(text(login(funded_player).get(URL)), holder_a)

    assert "Suspended by the holder (§ 812a.12): no play and no deposits" in section
    assert "Checking ID" in section


# Withdrawals (§ 812a.10)


def test_812a10_a_withdrawal_is_held_at_once_and_listed_pending_with_cancel(
    login, funded_player, holder_a
):
    account = _account(funded_player, holder_a)
    client = login(funded_player)

    response = client.post(URL, {"action": "withdraw", "account": account.pk, "amount": "250.00"})

    assert response.status_code == 302
    account.refresh_from_db()
    assert (account.balance, account.held, account.available) == (100_000, 25_000, 75_000)
    withdrawal = Withdrawal.objects.get()
    assert (withdrawal.amount, withdrawal.status) == (25_000, WithdrawalStatus.PENDING)
    section = _section(text(client.get(URL)), holder_a)
    row = re.search(r'<tr class="pending-withdrawal">(.*?)</tr>', section, re.S).group(1)
    assert f"#{withdrawal.pk}" in row and "$250.00" in row
    assert 'name="action" value="cancel"' in row
    assert f'name="withdrawal" value="{withdrawal.pk}"' in row


@pytest.mark.parametrize(
    ("amount", "says"),
    [
        ("1000.01", "more than the available balance $1,000.00"),
        ("0.001", "at most two digits of cents"),
        ("0", "whole number of cents from 1"),
        ("ten", "dollars and cents"),
    ],
)
def test_812a10_a_withdrawal_over_the_available_balance_or_odd_is_refused(
    login, funded_player, holder_a, amount, says
):
    account = _account(funded_player, holder_a)
    before = _moved()

    response = login(funded_player).post(
        URL, {"action": "withdraw", "account": account.pk, "amount": amount}
    )

    assert response.status_code == 400
    assert says in field_errors(response, "withdraw_amount")
    assert _moved() == before


def test_812a10_a_second_request_that_would_overdraw_is_refused(login, funded_player, holder_a):
    account = _account(funded_player, holder_a)
    client = login(funded_player)
    assert (
        client.post(URL, {"action": "withdraw", "account": account.pk, "amount": "600"})
    ).status_code == 302
    before = _moved()

    response = client.post(URL, {"action": "withdraw", "account": account.pk, "amount": "500"})

    assert response.status_code == 400
    assert "$600.00 already held" in field_errors(response, "withdraw_amount")
    assert _moved() == before


def test_812a10_another_players_account_is_not_found_and_nothing_moves(
    login, funded_player, holder_a
):
    other = make_user("player2", Role.PLAYER)
    theirs = wallet_top_up(player=other, amount=10_000, holder=holder_a)
    client = login(funded_player)
    before = _moved()

    withdraw = client.post(URL, {"action": "withdraw", "account": theirs.pk, "amount": "1"})
    limit = client.post(
        URL, {"action": "limit", "account": theirs.pk, "kind": "deposit_day", "value": "1"}
    )

    assert withdraw.status_code == 404 and limit.status_code == 404
    assert _moved() == before


def test_812a10_the_player_cancels_a_pending_withdrawal_once(login, funded_player, holder_a):
    account = _account(funded_player, holder_a)
    withdrawal = withdrawal_request(player=funded_player, account_id=account.pk, amount=5_000)
    client = login(funded_player)

    response = client.post(URL, {"action": "cancel", "withdrawal": withdrawal.pk})

    assert response.status_code == 302
    withdrawal.refresh_from_db()
    assert withdrawal.status == WithdrawalStatus.CANCELLED
    assert _account(funded_player, holder_a).held == 0
    again = client.post(URL, {"action": "cancel", "withdrawal": withdrawal.pk})
    assert again.status_code == 409
    assert "only a pending one can be cancelled" in text(again)


def test_812a10_a_player_cannot_cancel_someone_elses_withdrawal(login, funded_player, holder_a):
    other = make_user("player2", Role.PLAYER)
    theirs = wallet_top_up(player=other, amount=10_000, holder=holder_a)
    withdrawal = withdrawal_request(player=other, account_id=theirs.pk, amount=1_000)

    response = login(funded_player).post(URL, {"action": "cancel", "withdrawal": withdrawal.pk})

    assert response.status_code == 404
    withdrawal.refresh_from_db()
    assert withdrawal.status == WithdrawalStatus.PENDING


def test_a_post_naming_no_action_is_a_400(login, funded_player):
    response = login(funded_player).post(URL, {"action": "transfer"})

    assert response.status_code == 400
    assert "say what to do" in text(response)


# Limits and a break (§ 814a.2)


def test_814a2_a_lower_limit_applies_at_once_and_a_deposit_over_it_is_refused(
    login, funded_player, holder_a
):
    account = _account(funded_player, holder_a)
    client = login(funded_player)

    response = client.post(
        URL, {"action": "limit", "account": account.pk, "kind": "deposit_day", "value": "50"}
    )

    assert response.status_code == 302
    assert _account(funded_player, holder_a).limits == {"deposit_day": 5_000}
    section = _section(text(client.get(URL)), holder_a)
    assert re.search(r"Daily deposit limit</td>\s*<td[^>]*>\$50.00</td>", section)
    before = _moved()
    over = client.post(
        URL,
        {
            "action": "deposit",
            "holder": holder_a.pk,
            "amount": "50.01",
            "method": "card",
            "reference": "V",
        },
    )
    assert over.status_code == 400
    assert "daily deposit limit of $50.00" in field_errors(over, "deposit_amount")
    assert _moved() == before


def test_814a2_a_raise_waits_for_the_period_then_is_confirmed(login, funded_player, holder_a):
    account = _account(funded_player, holder_a)
    client = login(funded_player)
    client.post(URL, {"action": "limit", "account": account.pk, "kind": "loss_week", "value": "20"})

    raised = client.post(
        URL, {"action": "limit", "account": account.pk, "kind": "loss_week", "value": "80"}
    )

    assert raised.status_code == 302
    account.refresh_from_db()
    assert account.limits == {"loss_week": 2_000}
    waiting = account.pending_limits["loss_week"]
    assert waiting["value"] == 8_000
    section = _section(text(client.get(URL)), holder_a)
    assert "$80.00, from " in section
    assert 'name="action" value="confirm"' not in section  # not due yet
    early = client.post(URL, {"action": "confirm", "account": account.pk, "kind": "loss_week"})
    assert early.status_code == 409 and "confirm it from" in text(early)

    # The period has ended: the page offers the confirmation, which applies it.
    past = timezone.now() - datetime.timedelta(minutes=1)
    AccountLimit.objects.filter(
        account=account, kind="loss_week", pending_until__isnull=False
    ).update(pending_until=past)
    section = _section(text(client.get(URL)), holder_a)
    assert 'name="action" value="confirm"' in section
    confirmed = client.post(URL, {"action": "confirm", "account": account.pk, "kind": "loss_week"})
    assert confirmed.status_code == 302
    account.refresh_from_db()
    assert (account.limits, account.pending_limits) == ({"loss_week": 8_000}, {})


def test_814a2_the_time_limit_is_in_minutes_and_an_odd_value_is_refused(
    login, funded_player, holder_a
):
    account = _account(funded_player, holder_a)
    client = login(funded_player)
    before = _moved()

    odd = client.post(
        URL, {"action": "limit", "account": account.pk, "kind": "time_day", "value": "1.5"}
    )
    assert odd.status_code == 400
    assert "whole minutes" in field_errors(odd, f"limit{account.pk}_value")
    too_long = client.post(
        URL, {"action": "limit", "account": account.pk, "kind": "time_day", "value": "2000"}
    )
    assert too_long.status_code == 400
    assert _moved() == before

    fine = client.post(
        URL, {"action": "limit", "account": account.pk, "kind": "time_day", "value": "90"}
    )
    assert fine.status_code == 302
    assert _account(funded_player, holder_a).limits == {"time_day": 90}


def test_814a2_a_break_stops_deposits_until_it_ends(login, funded_player, holder_a):
    account = _account(funded_player, holder_a)
    client = login(funded_player)

    response = client.post(
        URL, {"action": "pause", "account": account.pk, "length": "2", "unit": "days"}
    )

    assert response.status_code == 302
    account.refresh_from_db()
    assert account.paused_until > timezone.now() + datetime.timedelta(days=1, hours=23)
    assert "you suspended your own play with Keystone Casino until" in text(client.get(URL))
    before = _moved()
    refused = client.post(
        URL,
        {
            "action": "deposit",
            "holder": holder_a.pk,
            "amount": "5",
            "method": "card",
            "reference": "V",
        },
    )
    assert refused.status_code == 409
    assert _moved() == before
    shorter = client.post(
        URL, {"action": "pause", "account": account.pk, "length": "1", "unit": "hours"}
    )
    assert shorter.status_code == 409 and "only lengthens" in text(shorter)


@pytest.mark.parametrize("length", ["0", "721", "x", ""])
def test_814a2_an_odd_break_is_refused(login, funded_player, holder_a, length):
    account = _account(funded_player, holder_a)

    response = login(funded_player).post(
        URL, {"action": "pause", "account": account.pk, "length": length, "unit": "hours"}
    )

    assert response.status_code == 400
    assert _account(funded_player, holder_a).paused_until is None


def test_every_limit_is_listed_with_its_value(login, funded_player, holder_a):
    section = _section(text(login(funded_player).get(URL)), holder_a)

    for label in (
        "Daily deposit limit",
        "Weekly deposit limit",
        "Monthly deposit limit",
        "Daily spend limit",
        "Weekly spend limit",
        "Monthly spend limit",
        "Largest single wager",
        "Daily time limit",
    ):
        assert label in section
    assert section.count("no limit") >= 8


def test_account_status_choices_are_the_models():
    assert {value for value, _ in AccountStatus.choices} == {"open", "suspended", "self_excluded"}
