"""A holder's supervisor proposes a void of a settled round on its record (§ 617a.6); a
compliance officer finds it in the queue, reads the round and its replay, and approves it;
the player then reads on their game's record and replay that it is void, and why. An
adjustment typed with odd cents is refused on its field (§ 812a.7(a)(9)). axe-core runs on
each page of the flow."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.game.models import CorrectionStatus, GamingAccount, RoundCorrection
from tests.portal.browser import needs_chromium
from tests.portal.game.conftest import play_round

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

WHY = "The wheel's sensor repeated a reading: a malfunction"


def _checked(walk, axe, name: str, path: str | None = None) -> None:
    """Open ``path`` (or stay), wait for the main heading, keep a screenshot, run axe-core."""
    if path is not None:
        walk.open(path)
    expect(walk.page.get_by_role("heading", level=1).first).to_be_visible()
    walk.shot(name)
    axe.check(name)


def test_617a6_a_void_is_proposed_decided_by_another_and_read_by_the_player(
    walk, axe, funded_player, live_offering, supervisor_a, officer
):
    page = walk.page
    round_obj = play_round(funded_player, live_offering, "walk-void-1").round
    other = play_round(funded_player, live_offering, "walk-void-2").round
    account = GamingAccount.objects.get(player=funded_player)
    before = account.balance

    walk.sign_in(supervisor_a.username)
    _checked(walk, axe, "round record, supervisor", f"/play/rounds/{other.pk}/")
    page.get_by_label("Amount").fill("2.005")
    page.locator("#adjustment_reason").fill("Dispute upheld")
    page.get_by_label("Notification to the player").fill("We credited you.")
    page.get_by_role("button", name="Propose the adjustment").click()
    expect(page.get_by_label("Amount")).to_have_attribute("aria-invalid", "true")
    _checked(walk, axe, "round record, adjustment refused")
    assert not RoundCorrection.objects.exists()

    walk.open(f"/play/rounds/{round_obj.pk}/")
    page.get_by_label("Why the round is void").fill(WHY)
    page.get_by_role("button", name="Propose the void").click()
    expect(page.locator(".messages")).to_contain_text("Void of round")
    _checked(walk, axe, "correction, its proposer")
    expect(page.get_by_role("button", name="Approve and apply")).to_have_count(0)
    expect(page.get_by_text("You proposed this void: someone else decides it.")).to_be_visible()

    walk.sign_out()
    walk.sign_in(officer.username)
    page.get_by_role("link", name="Voids and adjustments", exact=True).click()
    _checked(walk, axe, "voids and adjustments queue")
    void = RoundCorrection.objects.get()
    page.get_by_role("link", name=f"Void #{void.pk}").click()
    _checked(walk, axe, "correction, its decider")
    page.get_by_role("link", name=f"replay of round #{round_obj.pk}").click()
    _checked(walk, axe, "replay, before deciding")
    page.go_back()
    page.locator("#decide_reason").fill("The sensor log confirms it")
    page.once("dialog", lambda dialog: dialog.accept())  # "the money moves at once"
    page.get_by_role("button", name="Approve and apply").click()
    expect(page.locator("#correction-status")).to_have_text("Approved and applied")
    _checked(walk, axe, "correction, approved")
    void.refresh_from_db()
    assert void.status == CorrectionStatus.APPROVED and void.decided_by == officer
    account.refresh_from_db()
    assert account.balance == before - round_obj.total_returned + round_obj.total_staked

    walk.sign_out()
    walk.sign_in(funded_player.username)
    walk.open(f"/play/rounds/{round_obj.pk}/")
    state = page.locator("#round-state")
    expect(state.get_by_role("heading", name="Void")).to_be_visible()
    expect(state).to_contain_text(WHY)
    expect(state).to_contain_text("by officer")
    _checked(walk, axe, "round record, the player's void")
    _checked(walk, axe, "replay, the player's void", f"/play/rounds/{round_obj.pk}/replay/")
    expect(page.locator("#round-state")).to_contain_text("Your stakes were given back")
    _checked(walk, axe, "my games, with the state", "/play/history/")
    row = page.get_by_role("row", name=re.compile(rf"#{round_obj.pk}\b"))
    expect(row.locator('td[data-label="State"]')).to_have_text("Void")
    axe.assert_no_serious_violations()
