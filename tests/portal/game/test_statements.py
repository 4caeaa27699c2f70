"""Statements of a player's account (§ 812a.11), through HTTP: any period of Pennsylvania
dates, every movement with its round or reference, the opening and closing balance, as a
page, a CSV and a PDF; to the player and the holder's staff only."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
import time_machine

from portal.access.roles import Role
from portal.core.money import cents_of
from portal.core.padates import day_starts
from portal.game.models import GamingAccount
from portal.game.money.services.deposits import deposit_make
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from portal.game.money.statements import statement
from portal.game.play.services import round_play
from tests.portal.factories import in_session, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 2)  # a Monday
PERIOD = "since=2026-03-02&until=2026-03-03"


def _at(day: datetime.date, hour: float = 12):
    """Pennsylvania ``hour`` o'clock on ``day``."""
    return time_machine.travel(day_starts(day) + datetime.timedelta(hours=hour), tick=False)


@pytest.fixture
def history(player, holder_a, payments_a):
    """$100 the day before the period; in it, a $50 card deposit, a $30 withdrawal paid,
    and a $5 deposit at 23:30 on its last day (04:30 UTC the next); after it, at 00:30
    the next Pennsylvania day, $1 more."""
    with _at(DAY - datetime.timedelta(days=1)):
        account = wallet_top_up(player=player, amount=10_000, holder=holder_a)
    with _at(DAY):
        deposit_make(
            player=player, holder_id=holder_a.pk, amount=5_000, method="card", reference="VISA-1"
        )
    with _at(DAY + datetime.timedelta(days=1), 9):
        withdrawal = withdrawal_request(player=player, account_id=account.pk, amount=3_000)
        withdrawal_pay(actor=payments_a, withdrawal_id=withdrawal.pk, payout_reference="ACH-77")
    with _at(DAY + datetime.timedelta(days=1), 23.5):
        deposit_make(
            player=player, holder_id=holder_a.pk, amount=500, method="bank", reference="LATE-1"
        )
    with _at(DAY + datetime.timedelta(days=2), 0.5):
        deposit_make(
            player=player, holder_id=holder_a.pk, amount=100, method="bank", reference="NEXT-1"
        )
    account.refresh_from_db()
    return account


def _url(account, query=PERIOD) -> str:
    return f"/play/account/{account.pk}/statement/?{query}"


def test_812a11_opening_plus_the_periods_movements_is_the_closing_balance(history):
    found = statement(history, DAY, DAY + datetime.timedelta(days=1))

    assert found.opening == 10_000
    assert [m.amount for m in found.movements] == [5_000, -3_000, 500]
    assert found.opening + sum(m.amount for m in found.movements) == found.closing == 12_500
    assert (found.credits, found.debits) == (5_500, 3_000)
    # The Pennsylvania day decides: 23:30 EST on the 3rd is in, 00:30 on the 4th is not.
    assert [m.reference for m in found.movements] == [
        "Debit or credit card: VISA-1",
        f"Withdrawal {history.withdrawals.get().pk}, paid: ACH-77",
        "Bank transfer (ACH): LATE-1",
    ]


def test_812a11_a_period_without_movements_opens_and_closes_alike(history):
    found = statement(history, DAY + datetime.timedelta(days=10), DAY + datetime.timedelta(days=11))

    assert found.movements == []
    assert found.opening == found.closing == history.balance == 12_600


def test_812a11_the_page_shows_the_period_balances_and_every_movement(login, player, history):
    response = login(player).get(_url(history))

    page = text(response)
    assert response.status_code == 200
    assert re.search(r'id="opening">\$100.00<', page)
    assert re.search(r'id="closing">\$125.00<', page)
    assert re.search(r'id="credits">\$55.00<', page) and re.search(r'id="debits">\$30.00<', page)
    assert "VISA-1" in page and "ACH-77" in page and "LATE-1" in page
    assert "NEXT-1" not in page
    assert f"{PERIOD.replace('&', '&amp;')}&amp;export=csv" in page


def test_812a11_rounds_are_named_and_linked(login, funded_player, live_offering, holder_a):
    played = round_play(
        player=funded_player,
        session=in_session(funded_player),
        offering_id=live_offering.pk,
        wagers=[{"kind": "red", "stake": 200}],
        idempotency_key="statement-round",
        rng=FixedBits(3),
    ).round
    account = GamingAccount.objects.get(player=funded_player, holder=holder_a)

    page = text(login(funded_player).get(f"/play/account/{account.pk}/statement/"))

    assert f'<a href="/play/rounds/{played.pk}/">Round #{played.pk}</a>' in page


def test_812a11_the_csv_carries_every_movement_and_adds_up(login, player, history):
    response = login(player).get(_url(history, PERIOD + "&export=csv"))

    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    opening, *movements, closing = rows
    assert opening["Movement"] == "Opening balance" and closing["Movement"] == "Closing balance"
    assert [row["Reference"] for row in movements][0] == "Debit or credit card: VISA-1"
    # For people, as the page shows it: dollars, Pennsylvania time, rows numbered from 1.
    assert [row["#"] for row in movements] == ["1", "2", "3"]
    assert all(row["Time (Pennsylvania)"].endswith(("EST", "EDT")) for row in movements)
    net = sum(cents_of(row["In"] or "0") - cents_of(row["Out"] or "0") for row in movements)
    assert cents_of(opening["Balance"]) + net == cents_of(closing["Balance"])
    assert closing["Balance"] == "$125.00"
    assert [row["Balance"] for row in movements] == ["$150.00", "$120.00", "$125.00"]


def test_812a11_the_pdf_carries_the_balances_and_references(login, player, history):
    response = login(player).get(_url(history, PERIOD + "&export=pdf"))

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    data = response.content
    assert data.startswith(b"%PDF")
    for figure in (b"$100.00", b"$125.00", b"$50.00", b"$30.00", b"VISA-1", b"ACH-77", b"812a.11"):
        assert figure in data, figure
    assert b"NEXT-1" not in data


def test_812a11_the_period_defaults_to_this_month(login, player, history):
    response = login(player).get(f"/play/account/{history.pk}/statement/")

    assert response.status_code == 200
    assert "Opening balance" in text(response)


@pytest.mark.parametrize(
    "query", ["since=yesterday", "since=2026-03-05&until=2026-03-01", "until=0001-01-01"]
)
@pytest.mark.clause("812a.11", kind="related")
def test_812a11_an_unreadable_period_is_a_400(login, player, history, query):
    response = login(player).get(_url(history, query))

    assert response.status_code == 400


def test_812a11_another_players_statement_is_not_there(login, history, holder_a):
    other = make_user("player2", Role.PLAYER)

    assert login(other).get(_url(history)).status_code == 404


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("payments_a", 200),
        ("manager_a", 200),
        ("auditor", 200),
        ("officer", 200),
        ("payments_b", 404),
        ("manager_b", 404),
    ],
)
def test_812a11_the_holders_staff_read_its_players_statements(
    login, request, history, role, status
):
    response = login(request.getfixturevalue(role)).get(_url(history, PERIOD + "&export=csv"))

    assert response.status_code == status
