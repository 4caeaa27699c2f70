"""A player disputes a game's payout from their account and gets a number; the casino's
supervisor takes it and upholds it with an adjustment; an officer approves the adjustment;
the player reads the answer with how to take it to the Board (reading:complaint-number,
reading:adjustment-grounds, § 812a.7(a)(9))."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.game.models import Complaint, ComplaintStatus, GamingAccount
from tests.portal.browser import needs_chromium
from tests.portal.game.conftest import play_round

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_a_dispute_is_filed_upheld_with_an_adjustment_and_answered(
    walk, axe, funded_player, live_offering, supervisor_a, officer
):
    page = walk.page
    played = play_round(funded_player, live_offering, "walk-disputed").round
    account = GamingAccount.objects.get(player=funded_player)
    before = account.balance

    walk.sign_in(funded_player.username)
    walk.open("/play/account/")
    page.get_by_role("link", name="Make a complaint").click()
    expect(page.get_by_role("heading", name="Make a complaint", level=1)).to_be_visible()
    page.get_by_label("A dispute about money").check()
    page.get_by_label("Subject").fill("Paid short on a straight")
    page.get_by_label("What happened").fill("My straight on 3 won but looked paid short.")
    page.get_by_label("What you ask for").fill("Pay me what I am owed.")
    page.get_by_label(re.compile(rf"#{played.pk}, ")).check()
    walk.shot("complaint-form")
    axe.check("complaint-form")
    page.get_by_role("button", name="Send my complaint").click()
    complaint = Complaint.objects.get()
    expect(page.get_by_role("heading", name=f"Complaint {complaint.number}")).to_be_visible()
    expect(page.get_by_text("The casino is looking into it")).to_be_visible()
    walk.shot("complaint-filed")
    axe.check("complaint-filed")
    walk.sign_out()

    walk.sign_in(supervisor_a.username)
    walk.open("/play/complaints/")
    page.get_by_role("link", name=complaint.number).click()
    page.get_by_role("button", name="Take this complaint").click()
    expect(page.get_by_text("You took complaint")).to_be_visible()
    page.get_by_role("radio", name="Upheld", exact=True).check()
    page.get_by_label("Your written answer to the player").fill(
        "You were right: the straight was paid short. We credit the difference."
    )
    page.get_by_label(re.compile(r"^Adjust the game")).select_option(label=f"#{played.pk}")
    page.get_by_label("Credit to the player, in dollars").fill("2.00")
    page.get_by_label("The adjustment's notification to the player").fill(
        "We credited $2.00 for your straight on 3."
    )
    page.get_by_role("button", name="Close it and answer").click()
    expect(page.get_by_text("the adjustment waits for someone else's decision")).to_be_visible()
    walk.shot("upheld-waiting")
    axe.check("upheld-waiting")
    walk.sign_out()

    walk.sign_in(officer.username)
    adjustment = complaint.adjustments.get()
    walk.open(f"/play/corrections/{adjustment.pk}/")
    page.once("dialog", lambda dialog: dialog.accept())  # "the money moves at once"
    page.get_by_role("button", name="Approve and apply").click()
    expect(page.locator(".messages")).to_be_visible()
    walk.sign_out()

    complaint.refresh_from_db()
    assert complaint.status == ComplaintStatus.UPHELD
    account.refresh_from_db()
    assert account.balance == before + 200

    walk.sign_in(funded_player.username)
    walk.open(f"/play/complaints/{complaint.pk}/")
    expect(page.get_by_role("heading", name="The casino's answer")).to_be_visible()
    expect(page.get_by_text("We credit the difference.")).to_be_visible()
    expect(page.get_by_text(f"quoting complaint number {complaint.number}")).to_be_visible()
    walk.shot("answer-read")
    axe.check("answer-read")
    axe.assert_no_serious_violations()
