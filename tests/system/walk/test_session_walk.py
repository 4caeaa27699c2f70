"""A player signs in and plays; an hour on, the next spin waits on the notice of time and
money played until they have read it; idle 16 minutes, they are signed out and sign in
again; they pause their own play and the table says so. The help line heads every page
(§ 812a.3(a)(6), § 814a.1, § 814a.1(b), § 814a.2). The clock is moved on the server."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from playwright.sync_api import expect

from portal.game.models import PlaySession, Round
from tests.portal.browser import needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

START = datetime.datetime(2027, 3, 3, 15, 0, tzinfo=datetime.UTC)  # 10:00 EST
HELP = "CALL 1-800-GAMBLER"


def _bet_and_spin(page) -> None:
    page.get_by_role("radio", name="$5.00").check(force=True)
    page.get_by_role("group", name="Betting layout").get_by_role(
        "button", name="Red", exact=True
    ).click()
    page.get_by_role("button", name="Confirm bets and spin").click()


def test_812a3_a_6_814a1_a_player_reads_the_hourly_notice_and_signs_in_again_after_idling(
    walk, axe, funded_player, live_offering
):
    page = walk.page
    table = f"/play/{live_offering.pk}/"
    with time_machine.travel(START, tick=True) as clock:
        walk.sign_in(funded_player.username)
        expect(page.locator(".gambling-help")).to_contain_text(HELP)
        walk.open(table)
        expect(page.locator(".game-clock")).to_contain_text("Pennsylvania time")
        _bet_and_spin(page)
        expect(page.get_by_role("heading", name=re.compile(r"^Round #\d+"))).to_be_visible()
        walk.shot("first-round")

        for _ in range(6):  # an hour at the table, a page every ten minutes
            clock.shift(datetime.timedelta(minutes=10))
            walk.open(table)
            expect(page.locator(".gambling-help")).to_contain_text(HELP)
        # The notice is due: the table shows it before the layout (§ 814a.1).
        notice = page.locator(".play-notice")
        expect(notice).to_contain_text("Since then you played 1 round, wagered $5.00")
        expect(page.get_by_role("button", name="Confirm bets and spin")).to_have_count(0)
        walk.shot("hourly-notice")
        axe.check("hourly-notice")
        page.get_by_role("button", name="I have read this: play on").click()
        expect(page.get_by_text("Thank you. You may play on.")).to_be_visible()
        _bet_and_spin(page)
        expect(page.get_by_role("heading", name=re.compile(r"^Round #\d+"))).to_be_visible()
        assert Round.objects.count() == 2
        walk.shot("played-on")

        # Sixteen minutes without a request: signed out, and asked to sign in again.
        clock.shift(datetime.timedelta(minutes=16))
        walk.open(table)
        expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
        expect(page.get_by_text("15 minutes without activity")).to_be_visible()
        expect(page.locator(".gambling-help")).to_contain_text(HELP)
        walk.shot("signed-out-idle")
        axe.check("signed-out-idle")
        first = PlaySession.objects.filter(user=funded_player).earliest("started_at")
        assert first.ended_at is not None and first.ended_at < START + datetime.timedelta(
            minutes=62
        )
        walk.sign_in(funded_player.username)
        expect(page.locator(".messages")).to_contain_text("Your previous session began")
        walk.open(table)
        expect(page.get_by_role("button", name="Confirm bets and spin")).to_be_visible()

        # A pause of their own: the table says so and offers no bet (§ 814a.2).
        walk.open("/play/account/")
        page.locator("input[id^=pause][id$=_length]").first.fill("2")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Suspend my play").first.click()
        expect(
            page.get_by_text(re.compile(r"Your play with .* is suspended until"))
        ).to_be_visible()
        walk.open(table)
        expect(page.get_by_role("heading", name="You cannot bet here now")).to_be_visible()
        expect(page.get_by_role("button", name="Confirm bets and spin")).to_have_count(0)
        walk.shot("paused")
        axe.check("paused")
    axe.assert_no_serious_violations()
