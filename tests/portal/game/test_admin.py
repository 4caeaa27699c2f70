"""The game records in the admin: money in dollars, filters without duplicates, names."""

import re

import pytest

from portal.game.models import Bet, LedgerEntry, Round
from tests.portal.factories import approved_offering
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


@pytest.fixture
def rounds_at_two_holders(funded_player, manager_a, manager_b, officer, holder_a, holder_b):
    """One round at each holder's "Table 1": the same offering name twice. Each holder's
    table is played from the player's account with that holder (§ 812a.4)."""
    wallet_top_up(player=funded_player, amount=100_000, holder=holder_b)
    at_a = approved_offering(manager_a, officer, holder_a)
    at_b = approved_offering(manager_b, officer, holder_b)
    play_round(funded_player, at_a, "admin-round-a")
    play_round(funded_player, at_b, "admin-round-b", outcome=11)
    return Round.objects.order_by("pk")


def _filters(html: str) -> dict[str, list[str]]:
    """Each filter's title and the labels of its choices, from the changelist's sidebar."""
    sidebar = html[html.index('id="changelist-filter"') :]
    filters = {}
    for title, choices in re.findall(
        r"<summary>\s*(.*?)\s*</summary>(.*?)</details>", sidebar, re.S
    ):
        filters.setdefault(title, []).append(re.findall(r"<a [^>]*>(.*?)</a>", choices))
    return filters


def test_admin_rounds_list_shows_money_in_dollars(admin_client, rounds_at_two_holders):
    page = admin_client.get("/admin/game/round/").content.decode()

    # Ten straight-up wagers of 200 cents: $20.00 staked; the one that won returns $24.00.
    assert "$20.00" in page
    assert "$24.00" in page
    assert ">2000<" not in page
    round_ = rounds_at_two_holders.first()
    assert (round_.total_staked, round_.total_returned) == (2000, 2400)  # stored as cents


def test_admin_round_page_shows_money_in_dollars(admin_client, rounds_at_two_holders):
    round_ = rounds_at_two_holders.first()

    page = admin_client.get(f"/admin/game/round/{round_.pk}/change/").content.decode()

    assert "$20.00" in page  # total staked
    assert "$24.00" in page  # total returned
    assert "$2.00" in page  # each bet's stake, in the bets inline
    assert f"${round_.balance_before // 100:,}.00" in page


def test_admin_rounds_filter_lists_each_offering_once_with_its_holder(
    admin_client, rounds_at_two_holders
):
    filters = _filters(admin_client.get("/admin/game/round/").content.decode())

    assert list(filters) == ["By offering"]  # no title twice
    [choices] = filters["By offering"]
    assert len(choices) == len(set(choices))
    assert "Table 1 (Keystone Casino)" in choices
    assert "Table 1 (Susquehanna Gaming)" in choices


def test_admin_ledger_entries_are_named_and_shown_in_dollars(admin_client, rounds_at_two_holders):
    page = admin_client.get("/admin/game/ledgerentry/").content.decode()

    assert LedgerEntry._meta.verbose_name_plural == "ledger entries"
    assert "entrys" not in page.lower()
    assert "-$20.00" in page  # a stake is a debit
    assert "$1,000.00" in page  # the top-up
    entry = LedgerEntry.objects.filter(kind="stake").first()
    detail = admin_client.get(f"/admin/game/ledgerentry/{entry.pk}/change/").content.decode()
    assert "-$20.00" in detail


def test_admin_index_names_ledger_entries(admin_client):
    page = admin_client.get("/admin/").content.decode()

    assert "Ledger entries" in page
    assert "entrys" not in page.lower()


def test_admin_wallets_and_bets_show_money_in_dollars(admin_client, rounds_at_two_holders):
    wallets = admin_client.get("/admin/game/wallet/").content.decode()
    bets = admin_client.get("/admin/game/bet/").content.decode()
    bet = Bet.objects.first()
    bet_page = admin_client.get(f"/admin/game/bet/{bet.pk}/change/").content.decode()

    assert re.search(r"\$[\d,]+\.\d\d", wallets)
    assert "$2.00" in bets
    assert "$2.00" in bet_page


def test_bets_and_ledger_entries_name_themselves_in_dollars():
    from portal.game.models import Bet, LedgerEntry, LedgerKind

    assert str(Bet(spot="straight:0", stake=200)) == "straight:0 × $2.00"
    assert str(LedgerEntry(kind=LedgerKind.STAKE, amount=-2000)) == "Round stake -$20.00"
    assert str(LedgerEntry(kind=LedgerKind.RETURN, amount=3500)).endswith(" +$35.00")


def test_812a4_the_admin_shows_accounts_deposits_and_withdrawals_look_only(
    admin_client, funded_player, holder_a, holder_b
):
    from portal.game.models import GamingAccount
    from portal.game.money.services.withdrawals import withdrawal_request

    wallet_top_up(player=funded_player, amount=5_000, holder=holder_b)
    account = GamingAccount.objects.get(player=funded_player, holder=holder_a)
    withdrawal = withdrawal_request(player=funded_player, account_id=account.pk, amount=12_345)

    accounts = admin_client.get("/admin/game/gamingaccount/").content.decode()
    deposits = admin_client.get("/admin/game/deposit/").content.decode()
    withdrawals = admin_client.get("/admin/game/withdrawal/").content.decode()
    only_b = admin_client.get(f"/admin/game/gamingaccount/?holder__id__exact={holder_b.pk}")

    assert "$1,000.00" in accounts and "$123.45" in accounts  # balance and held, in dollars
    assert "$50.00" in deposits
    assert "$123.45" in withdrawals
    for page in (accounts, deposits, withdrawals):
        filters = _filters(page)
        assert any("holder" in title.lower() for title in filters), filters
    assert "status" in " ".join(_filters(accounts)).lower()
    assert "status" in " ".join(_filters(withdrawals)).lower()
    assert f"/admin/game/gamingaccount/{account.pk}/" not in only_b.content.decode()
    # Look only: no adding, and a record's page changes nothing.
    assert admin_client.get("/admin/game/withdrawal/add/").status_code == 403
    detail = admin_client.get(f"/admin/game/withdrawal/{withdrawal.pk}/change/")
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
