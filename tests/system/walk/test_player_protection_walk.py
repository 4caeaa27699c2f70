"""A newcomer registers, accepts the casino's terms, is verified by its payments staff,
deposits and plays; an officer imports the Board's list naming them; they are refused at
both holders and can still withdraw; another player excludes themselves (§ 812a.2, § 812a.5,
§ 815a.3, § 815a.4)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.game.models import Round, Wallet, Withdrawal
from portal.players.models import PlayerFile
from tests.portal.browser import needs_chromium
from tests.portal.factories import PASSWORD, approved_terms
from tests.portal.players.list_helpers import full_edition, line

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_815a4_a_registered_player_is_verified_plays_and_is_then_excluded_by_the_list(
    walk, axe, live_offering, manager_a, officer, payments_a, holder_b, other_player, tmp_path
):
    page = walk.page
    approved_terms(manager_a, officer, live_offering.holder)

    # Registration, from the sign-in page.
    walk.open("/accounts/login/")
    page.get_by_role("link", name="Register to play").click()
    page.get_by_label("Casino to open your account with").select_option(
        label=live_offering.holder.name
    )
    page.get_by_label("Given names").fill("Maria")
    page.get_by_label("Surname").fill("Kowalczyk")
    page.get_by_label("Date of birth").fill("2010-05-05")  # too young
    page.get_by_label("Residential address").fill("40 Penn Avenue, Scranton, PA 18503")
    page.get_by_label("Email address").fill("maria@example.com")
    page.get_by_label("Telephone").fill("570 555 0142")
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("you must be 21 or older")).not_to_have_count(0)
    walk.shot("under-21-refused")
    axe.check("register-refused")
    page.get_by_label("Date of birth").fill("1984-05-05")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("heading", name="Welcome", level=1)).to_be_visible()
    expect(page.get_by_text("waiting to be verified")).to_be_visible()
    walk.shot("welcome")
    axe.check("welcome")
    maria = PlayerFile.objects.get(player__username="maria").player

    # The casino's terms, accepted before anything else (§ 812a.5).
    walk.open("/play/account/")
    page.get_by_role("link", name=re.compile(r"House terms, version 1")).click()
    page.get_by_role("button", name="I have read and accept these terms").click()
    expect(page.get_by_text("You accepted")).to_be_visible()
    walk.sign_out()

    # Payments staff verify the identity (§ 812a.2(c)).
    walk.sign_in(payments_a.username)
    walk.open("/players/waiting/")
    page.get_by_role("link", name=re.compile(r"maria")).click()
    expect(page.get_by_text("Kowalczyk")).to_be_visible()
    page.get_by_label("Identity document inspected in person").check()
    page.get_by_label("Reference of the document checked").fill("PA-DL 31415926")
    page.get_by_role("button", name="Record as verified").click()
    expect(page.get_by_text("recorded as verified")).to_be_visible()
    walk.shot("verified")
    axe.check("verified")
    walk.sign_out()

    # The player deposits and plays.
    walk.sign_in("maria")
    walk.open("/play/account/")
    page.locator("#deposit_holder").select_option(label=live_offering.holder.name)
    page.fill("#deposit_amount", "50")
    page.locator("#deposit_method").select_option(label="Demo top-up")
    page.locator("section.deposit button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("50.00")
    walk.open(f"/play/{live_offering.pk}/")
    page.get_by_role("group", name="Betting layout").locator(".spot.outside").first.click()
    page.get_by_role("button", name="Confirm bets and spin").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Round #\d+: \d+"), level=2)
    ).to_be_visible()
    assert Round.objects.filter(player=maria).count() == 1
    walk.shot("played")
    walk.sign_out()

    # An officer imports the Board's list naming her.
    data = full_edition(line("Kowalczyk", "Maria", "1984-05-05"))
    listed = tmp_path / "board-list.csv"
    listed.write_bytes(data)
    walk.sign_in(officer.username)
    walk.open("/players/list/")
    page.get_by_label("Full edition").check()
    page.get_by_label("The Board's list file (CSV)").set_input_files(str(listed))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".messages")).to_contain_text("1 players excluded")
    walk.shot("list-imported")
    axe.check("list")
    walk.sign_out()
    assert Wallet.objects.get(player=maria).excluded_since is not None

    # Refused at both holders; a withdrawal stays possible.
    walk.sign_in("maria")
    walk.open("/play/account/")
    page.locator("#deposit_holder").select_option(label=holder_b.name)
    page.fill("#deposit_amount", "10")
    page.locator("#deposit_method").select_option(label="Demo top-up")
    page.locator("section.deposit button[type=submit]").click()
    expect(page.get_by_text("excluded from interactive gaming").first).to_be_visible()
    walk.shot("deposit-refused")
    walk.open("/play/account/")
    page.fill("#withdraw_amount", "5")
    page.locator("section.withdraw button[type=submit]").click()
    expect(page.locator(".pending-withdrawal")).to_contain_text("$5.00")
    assert Withdrawal.objects.filter(account__player=maria).count() == 1
    walk.sign_out()

    # Another player excludes themselves, at every holder at once (§ 815a.3).
    walk.sign_in(other_player.username)
    walk.open("/players/exclude/")
    expect(page.get_by_text("Gaming Control Board").first).to_be_visible()
    page.get_by_label("5 years").check()
    page.get_by_label(re.compile(r"I understand that this cannot be undone")).check()
    page.get_by_role("button", name="Exclude me").click()
    expect(page.locator(".messages")).to_contain_text("in force at every casino")
    walk.shot("self-excluded")
    axe.check("self-excluded")
    assert Wallet.objects.get(player=other_player).excluded_since is not None
    axe.assert_no_serious_violations()
