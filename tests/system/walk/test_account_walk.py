"""A player keeps their account with a holder: reads it, asks for a withdrawal and lowers a
spend limit; the holder's payments staff pay the withdrawal from the queue; the player,
signing in again, is told when the previous session was and sees the payout
(§ 812a.9(a)(4), § 812a.10, § 814a.2)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.game.models import GamingAccount, Withdrawal, WithdrawalStatus
from tests.portal.browser import needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_812a10_a_player_asks_for_a_withdrawal_and_payments_staff_pay_it(
    walk, funded_player, payments_a, live_offering
):
    page = walk.page
    account = GamingAccount.objects.get(player=funded_player)
    walk.sign_in(funded_player.username)
    walk.open("/play/account/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    row = page.locator(f"#account-{account.pk}")
    expect(row.locator(".balance")).to_have_text("$1,000.00")
    walk.shot("my-account")

    page.fill("#withdraw_amount", "250")
    page.locator("section.withdraw button[type=submit]").click()
    expect(page.locator(".pending-withdrawal")).to_contain_text("$250.00")
    walk.shot("withdrawal-pending")
    assert GamingAccount.objects.get(pk=account.pk).held == 25_000

    walk.sign_out()
    walk.sign_in(payments_a.username)
    walk.open("/play/payments/")
    queue = page.get_by_role("row", name=re.compile(r"\$250\.00"))
    expect(queue).to_be_visible()
    walk.shot("payments-queue")
    withdrawal = Withdrawal.objects.get()
    walk.open(f"/play/payments/withdrawals/{withdrawal.pk}/")
    page.get_by_label("Payout reference").fill("ACH 2026-1201-77")
    page.get_by_role("button", name="Record as paid").click()
    expect(page.locator(".messages")).to_be_visible()
    walk.shot("paid")
    withdrawal.refresh_from_db()
    assert withdrawal.status == WithdrawalStatus.PAID
    assert withdrawal.payout_reference == "ACH 2026-1201-77"

    walk.sign_out()
    walk.sign_in(funded_player.username)
    expect(page.locator(".messages")).to_contain_text("Your previous session began")
    walk.open("/play/account/")
    expect(row.locator(".balance")).to_have_text("$750.00")
    walk.shot("after-payout")
