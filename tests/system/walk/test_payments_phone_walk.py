"""The payments staff's queue on a phone (390 px): every field and button of a pending
withdrawal's card lies whole inside the screen and inside its card, none cut by a box
that hides what overflows it, the page never scrolls sideways, and a withdrawal is paid from
there (§ 812a.10)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.game.models import GamingAccount, Withdrawal, WithdrawalStatus
from portal.game.money.services.withdrawals import withdrawal_request
from tests.portal.browser import needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

PHONE = {"width": 390, "height": 844}
SLIVER = 0.5  # px of rounding a box may stick out by

# Each visible field and button in the page's main part: where it is, and every box around it
# (up to <main>) that it does not fit inside, or that hides it where it overflows.
CONTROLS = """() => {
  const outside = (inner, outer) => inner.left < outer.left - 0.5
    || inner.right > outer.right + 0.5 || inner.top < outer.top - 0.5
    || inner.bottom > outer.bottom + 0.5;
  const name = (el) => [el.tagName.toLowerCase(), ...el.classList].join(".");
  const main = document.querySelector("main");
  return [...main.querySelectorAll("input, select, textarea, button")]
    .filter((el) => el.type !== "hidden" && el.getClientRects().length > 0)
    .map((el) => {
      const r = el.getBoundingClientRect();
      const sticksOut = [];
      for (let box = el.parentElement; box && box !== main.parentElement; box = box.parentElement) {
        const b = box.getBoundingClientRect();
        const hides = getComputedStyle(box).overflowX !== "visible";
        if (outside(r, b)) sticksOut.push(name(box) + (hides ? " (hides it)" : ""));
        if (hides && box.scrollWidth > box.clientWidth + 0.5) {
          sticksOut.push(name(box) + " scrolls");
        }
      }
      return {
        control: (el.placeholder || el.textContent.trim()) + (el.id ? ` #${el.id}` : ""),
        left: r.left, right: r.right, width: r.width,
        overflows: el.scrollWidth > el.clientWidth + 0.5,
        sticksOut,
      };
    });
}"""


# What it proves is the queue's fit on a phone; paying is proved by the account walk.
@pytest.mark.clause("812a.10", kind="related")
def test_812a10_the_payments_queue_fits_a_390px_phone_and_pays_from_there(
    walk, payments_a, funded_player, live_offering
):
    account = GamingAccount.objects.get(player=funded_player)
    first = withdrawal_request(player=funded_player, account_id=account.pk, amount=2_500)
    second = withdrawal_request(player=funded_player, account_id=account.pk, amount=12_345)
    page = walk.page
    walk.sign_in(payments_a.username)
    page.set_viewport_size(PHONE)
    walk.open("/play/payments/")
    expect(page.get_by_role("heading", name="Payments", level=1)).to_be_visible()
    expect(page.locator(".pending-withdrawal")).to_have_count(2)
    page.wait_for_load_state("load")

    controls = page.evaluate(CONTROLS)
    width = page.evaluate("document.documentElement.clientWidth")
    # Each pending withdrawal's two fields and two buttons.
    for pk in (first.pk, second.pk):
        for field in (f"#pay-{pk}", f"#refuse-{pk}"):
            assert any(control["control"].endswith(field) for control in controls), field
    assert len(controls) >= 8
    off_screen = [
        c["control"] for c in controls if c["left"] < -SLIVER or c["right"] > width + SLIVER
    ]
    assert not off_screen, f"controls past the screen's edge at 390 px: {off_screen}"
    clipped = [f"{c['control']} in {c['sticksOut']}" for c in controls if c["sticksOut"]]
    assert not clipped, f"controls outside their boxes at 390 px: {clipped}"
    cut = [c["control"] for c in controls if c["overflows"]]
    assert not cut, f"controls whose own text is cut at 390 px: {cut}"
    sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert sideways <= 0, f"the page scrolls sideways by {sideways}px at 390 px"
    walk.shot("phone-queue")

    card = page.locator(".pending-withdrawal").filter(
        has=page.get_by_role("link", name=f"#{first.pk}", exact=True)
    )
    card.get_by_label(f"Payout reference for withdrawal #{first.pk}").fill("ACH 2026-1201-78")
    card.get_by_role("button", name="Record as paid").click()
    expect(page.locator(".messages")).to_contain_text(
        f"Withdrawal {first.pk} of $25.00 recorded as paid."
    )
    expect(page.locator(".pending-withdrawal")).to_have_count(1)
    decided = page.get_by_role("table", name=re.compile("Withdrawals decided"))
    expect(decided.get_by_role("row", name=re.compile(rf"#{first.pk}\b"))).to_contain_text(
        "ACH 2026-1201-78"
    )
    first.refresh_from_db()
    assert first.status == WithdrawalStatus.PAID
    assert first.payout_reference == "ACH 2026-1201-78"
    assert Withdrawal.objects.get(pk=second.pk).status == WithdrawalStatus.PENDING
    sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert sideways <= 0, f"the page scrolls sideways by {sideways}px after paying"
    walk.shot("phone-paid")
