"""A player who may not play at a holder now is told so before building a bet: on My account,
on the tables list and on the table page, where betting is not offered, each with the reason
a round would give (§ 814a.2 pause, § 812a.12 suspension, § 812a.2 identity)."""

from __future__ import annotations

import re

import pytest

from portal.compliance.services.paytables import paytable_approve, paytable_submit
from portal.game.models import AccountStatus, Wallet
from portal.game.money import standing
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.limit_changes import pause_play
from tests.portal.factories import (
    MINIMUM_ODDS,
    acknowledged,
    approved_layout,
    approved_rules,
    make_offering,
    make_paytable,
)

pytestmark = pytest.mark.django_db

SPIN = "Confirm bets and spin"


def _pages(client, offering) -> tuple[str, str, str]:
    return (
        client.get("/play/account/").content.decode(),
        client.get("/play/").content.decode(),
        client.get(f"/play/{offering.pk}/").content.decode(),
    )


def test_814a2_a_paused_account_says_so_everywhere_and_offers_no_bet(
    client, account_a, live_offering
):
    client.force_login(account_a.player)
    _account, tables, table = _pages(client, live_offering)
    assert SPIN in table and "Not for you now" not in tables
    pause_play(player=account_a.player, account_id=account_a.pk, hours=2)
    account, tables, table = _pages(client, live_offering)
    assert "Paused by you until" in account
    assert "Open: you may deposit, play and withdraw." not in account
    assert "Not for you now" in tables and "you suspended your own play" in tables
    assert "You cannot bet here now" in table and SPIN not in table


def test_812a12_a_suspended_account_says_so_on_the_tables(
    client, account_a, live_offering, payments_a
):
    account_set_status(
        actor=payments_a, account_id=account_a.pk, status=AccountStatus.SUSPENDED, reason="KYC"
    )
    client.force_login(account_a.player)
    _account, tables, table = _pages(client, live_offering)
    assert "suspended by the holder" in tables
    assert "You cannot bet here now" in table and SPIN not in table


def test_812a2_an_unverified_player_is_told_on_the_tables_why_not(client, account_a, live_offering):
    Wallet.objects.filter(player=account_a.player).update(identity_verified_at=None)
    client.force_login(account_a.player)
    _account, tables, table = _pages(client, live_offering)
    assert standing.NOT_VERIFIED.split(";")[0] in tables
    assert SPIN not in table


def test_814a2_suspending_ones_play_asks_for_a_confirmation_first(client, account_a):
    client.force_login(account_a.player)
    page = client.get("/play/account/").content.decode()
    assert "compliance/confirm.js" in page
    assert 'data-confirm="Suspend your play with' in page


def test_the_players_frame_links_the_inbox_with_its_unread_count(client, account_a):
    from portal.notifications.models import Notification

    client.force_login(account_a.player)
    page = client.get("/play/").content.decode()
    assert 'href="/notifications/"' in page and "unread" not in page
    Notification.objects.create(
        recipient=account_a.player, kind="money", key="k1", subject="Hi", body="Deposit", link="/"
    )
    page = client.get("/play/").content.decode()
    assert "Notifications (1 unread)" in page
    inbox = client.get("/notifications/").content.decode()
    assert 'class="game-site"' in inbox  # the player's own frame


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_the_table_shows_what_each_bet_pays_as_paid(
    client, account_a, manager_a, officer, holder_a
):
    generous = {**MINIMUM_ODDS, "split": "31/6"}  # $1.00 wins 31/6 + 1: $6.166..., paid $6.17
    paytable = make_paytable(manager_a, holder_a, odds=generous, name="Split bonus")
    paytable = paytable_approve(
        actor=officer,
        paytable=(submitted := paytable_submit(actor=manager_a, paytable=paytable)),
        override_reason="Promotion: splits favour the player at the smallest stakes",
        edge_acknowledged=acknowledged(submitted),
    )
    layout = approved_layout(manager_a, officer, holder_a)
    rules = approved_rules(manager_a, officer, holder_a, paytable, layout)
    offering = make_offering(manager_a, holder_a, rules, layout, paytable, name="Bonus table")
    client.force_login(account_a.player)
    page = client.get(f"/play/{offering.pk}/").content.decode()
    assert "What each bet pays at this table" in page
    found = re.findall(
        r'<td data-label="Bet">([^<]+)</td><td data-label="Pays">([^<]+)</td>'
        r'<td data-label="[^"]+">([^<]+)</td>',
        page,
    )
    rows = {label: (odds, returned) for label, odds, returned in found}
    assert rows["Split"] == ("31 to 6", "$6.17")  # rounded up, never down
    assert rows["Straight up"] == ("11 to 1", "$12.00")
    assert rows["Red"] == ("1 to 1", "$2.00")


def test_814a1_game_pages_show_the_pennsylvania_time_and_the_time_signed_in(
    client, account_a, live_offering
):
    import datetime

    import time_machine

    from tests.portal.factories import sign_in

    start = datetime.datetime(2026, 12, 4, 19, 0, tzinfo=datetime.UTC)  # 14:00 EST
    with time_machine.travel(start, tick=False):
        sign_in(client, account_a.player.username)
    for minutes in range(10, 65, 10):  # active: a page every ten minutes keeps the session
        with time_machine.travel(start + datetime.timedelta(minutes=minutes), tick=False):
            assert client.get("/play/").status_code == 200
    with time_machine.travel(start + datetime.timedelta(minutes=65), tick=False):
        page = client.get(f"/play/{live_offering.pk}/").content.decode()
    clock = re.search(r'<p class="game-clock".*?</p>', page, re.S).group(0)
    assert "Pennsylvania time" in clock and ">15:05 EST</span>" in clock
    assert 'signed in for <span class="clock-elapsed">1 hour 5 minutes</span>' in clock
    assert "game/clock.js" in page
