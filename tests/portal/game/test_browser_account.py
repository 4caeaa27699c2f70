"""A real headless Chromium: a player deposits, asks for a withdrawal and sees it pending,
held from play (§ 812a.7, § 812a.10)."""

import pytest

from portal.game.models import GamingAccount, WithdrawalStatus
from tests.portal.browser import ARTIFACTS, needs_chromium
from tests.portal.factories import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_812a7_812a10_a_player_deposits_withdraws_and_sees_the_withdrawal_pending(
    page, live_server, player, holder_a
):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", player.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/play/account/")
    assert "You have no account yet" in page.inner_text("main")

    page.select_option("#deposit_holder", str(holder_a.pk))
    page.fill("#deposit_amount", "120.50")
    page.select_option("#deposit_method", "card")
    page.fill("#deposit_reference", "VISA-4242")
    page.click("section.deposit button[type=submit]")
    page.wait_for_selector(".messages")
    assert "Deposited $120.50 into your account with Keystone Casino." in page.inner_text(
        ".messages"
    )
    account = GamingAccount.objects.get(player=player, holder=holder_a)
    assert account.balance == 12_050
    row = f"#account-{account.pk}"
    assert page.inner_text(f"{row} .balance") == "$120.50"

    page.fill("#withdraw_amount", "20")
    page.click("section.withdraw button[type=submit]")
    page.wait_for_selector(".pending-withdrawal")

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-account.png"), full_page=True)
    withdrawal = account.withdrawals.get()
    assert (withdrawal.amount, withdrawal.status) == (2_000, WithdrawalStatus.PENDING)
    pending = page.inner_text(".pending-withdrawal")
    assert f"#{withdrawal.pk}" in pending and "$20.00" in pending
    assert page.inner_text(f"{row} .held") == "$20.00"
    assert page.inner_text(f"{row} .available") == "$100.50"
    assert page.is_visible(f"button[aria-label='Cancel withdrawal #{withdrawal.pk}']")
