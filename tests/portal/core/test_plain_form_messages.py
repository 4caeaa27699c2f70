"""Each refused form speaks plain words: what to type, never a field name (``min_wager``,
``max_round_stake``), a Python type ("(str)") or the value echoed back as code ("got 'abc'").
A regulatory refusal keeps its clause."""

from __future__ import annotations

import pytest

from tests.portal.factories import MINIMUM_ODDS, approved_layout, approved_paytable, png_upload
from tests.portal.page_helpers import error_summary, rules_form, text
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db

FIELD_NAMES = (
    "chip_unit",
    "min_wager",
    "max_wager",
    "max_round_stake",
    "first_colour",
    "wheel_order",
    "three_numbers",
    "effective_date",
    "expiry_date",
)


def _odds(**odds) -> dict:
    return {k: str(v) for k, v in {**MINIMUM_ODDS, **odds}.items()}


def _assert_plain(page: str) -> str:
    shown = shown_text(page)
    assert not developer_words(shown), developer_words(shown)
    for name in FIELD_NAMES:
        assert name not in shown, name
    for code in ("(str)", "(int)", "got '", "!r", "minor units", "NoneType"):
        assert code not in shown, code
    return shown


@pytest.fixture
def parts(manager_a, officer, holder_a):
    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )


def test_the_paytable_form_says_how_to_write_odds(login, manager_a):
    data = {"name": "", **_odds(straight="abc", split="4", three_numbers="1e3", column="")}

    response = login(manager_a).post("/compliance/paytables/new/", data)

    assert response.status_code == 400
    shown = _assert_plain(text(response))
    assert "Enter the odds for Straight up as a whole number like 11" in shown
    assert "§ 617b.8(f): Split pays 4 to 1, below the minimum 5 to 1" in shown
    assert "Enter the odds for Column, at least 2 to 1" in shown


def test_the_paytable_preview_says_it_in_the_same_words(login, manager_a):
    response = login(manager_a).post(
        "/compliance/paytables/preview/", _odds(straight="abc", three_numbers="99999999999")
    )

    shown = _assert_plain(text(response))
    assert "Enter the odds for Straight up as a whole number like 11" in shown
    assert "Enter the odds for Three numbers as a whole number" in shown


@pytest.mark.clause("617b.8(c)", kind="cites-in-message")
def test_617b8_c_the_layout_form_names_the_choice_not_the_value(login, manager_a):
    data = {"title": "Main floor", "wheel_order": "0,1,7,8,2,3,9,10,4,5,11,12,6"}

    response = login(manager_a).post(
        "/compliance/layouts/new/", {**data, "first_colour": "green", "artwork": png_upload()}
    )

    assert response.status_code == 400
    shown = _assert_plain(text(response))
    assert "§ 617b.8(c): choose red or black as the first colour after 0" in shown


def test_the_rules_form_names_amounts_in_words_and_dollars(login, manager_a, parts):
    response = login(manager_a).post(
        "/compliance/rules/new/",
        rules_form(*parts, chip_unit="1.01", min_wager="abc", max_round_stake="0.00"),
    )

    assert response.status_code == 400
    shown = _assert_plain(text(response))
    assert "§ 617b.8(g)" in shown
    assert "Enter the minimum wager per spot in dollars and cents, like 2.00" in shown


def test_the_rules_form_says_the_order_of_the_limits_in_words(login, manager_a, parts):
    response = login(manager_a).post(
        "/compliance/rules/new/", rules_form(*parts, max_wager="3000.00")
    )

    assert response.status_code == 400
    summary = error_summary(text(response))
    assert "the maximum stake per round at least the maximum wager" in summary
    _assert_plain(text(response))


def test_the_api_token_form_says_how_many_days(login, manager_a):
    response = login(manager_a).post("/accounts/tokens/", {"name": "", "days": "9999"})

    assert response.status_code == 400
    shown = _assert_plain(text(response))
    assert "Enter what the token is for" in shown
    assert "Enter how many days the token lasts: a whole number from 1 to" in shown


def test_a_refused_deposit_says_how_to_type_the_amount(login, player, holder_a):
    posted = {"action": "deposit", "holder": holder_a.pk, "amount": "abc", "method": "card"}

    response = login(player).post("/play/account/", posted)

    assert response.status_code == 400
    shown = _assert_plain(text(response))
    assert "Enter an amount in dollars and cents, e.g. 25.00" in shown
