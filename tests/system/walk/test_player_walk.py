"""A player opens a live table, places bets, spins, sees the settlement and the balance, then
reads the game in My games, its full record (§ 810a.11) and the last-game replay."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import jinzi
from portal.game.models import Round
from portal.game.templatetags.game_money import dollars
from tests.portal.browser import needs_chromium

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_a_player_bets_spins_and_reads_the_round_record_and_the_replay(
    walk, funded_player, live_offering
):
    page = walk.page
    walk.sign_in(funded_player.username)
    expect(page.get_by_role("heading", name="tables", level=1)).to_be_visible()
    table_row = page.get_by_role("row", name=live_offering.name)
    expect(table_row).to_contain_text("Keystone Casino")
    expect(table_row).to_contain_text("Open")
    walk.shot("tables")

    table_row.get_by_role("link", name=live_offering.name).click()
    expect(page.get_by_role("heading", name=live_offering.name, level=1)).to_be_visible()
    # § 812a.4: the table says which account, with which holder, is in play.
    balance = page.get_by_text(re.compile(r"^Your account with Keystone Casino:"))
    expect(balance).to_contain_text("$1,000.00")
    spin = page.get_by_role("button", name="Confirm bets and spin")
    expect(spin).to_be_disabled()  # nothing on the layout yet
    walk.shot("table-open")

    page.get_by_role("radio", name="$5.00").check(force=True)  # the chip: a styled radio
    layout = page.get_by_role("group", name="Betting layout")
    layout.get_by_role("button", name="Straight up 7", exact=True).click()
    layout.get_by_role("button", name="Red", exact=True).click()
    expect(page.get_by_text(re.compile(r"^Total staked:"))).to_contain_text("$10.00")
    expect(spin).to_be_enabled()
    walk.shot("bets-placed")

    spin.click()
    result = page.get_by_role("heading", name=re.compile(r"^Round #\d+: \d+"), level=2)
    expect(result).to_be_visible()
    played = Round.objects.get()
    colour = jinzi.Wheel.standard().color(played.outcome).value  # the table's approved wheel
    expect(result).to_have_text(f"Round #{played.pk}: {played.outcome} ({colour})")
    bets = {bet.spot: bet for bet in played.bets.all()}
    assert sorted(bets) == ["red", "straight:7"]
    settlement = page.get_by_role("listitem").filter(has_text="staked $5.00")
    expect(settlement).to_have_text(
        [
            f"Straight up 7: staked $5.00, returned {dollars(bets['straight:7'].returned)}",
            f"Red: staked $5.00, returned {dollars(bets['red'].returned)}",
        ]
    )
    expect(page.get_by_role("status")).to_contain_text(f"{played.outcome}")
    expect(balance).to_contain_text(dollars(played.balance_after))
    assert played.balance_before == 100_000
    walk.shot("settled")

    page.get_by_role("link", name="My games").first.click()
    expect(page.get_by_role("heading", name="My games", level=1)).to_be_visible()
    game_row = page.get_by_role("row", name=f"#{played.pk}")
    expect(game_row).to_contain_text("$10.00")
    expect(game_row).to_contain_text(dollars(played.balance_after))
    walk.shot("my-games")

    game_row.get_by_role("link", name=f"#{played.pk}", exact=True).click()
    expect(page.get_by_role("heading", name=f"Round #{played.pk}", level=1)).to_be_visible()
    record = page.get_by_role("main")
    expect(record).to_contain_text("Standard v1")  # the paytable, by title and version
    expect(record).to_contain_text("Straight up 11 to 1")  # the odds it was settled under
    expect(record).to_contain_text(
        f"{dollars(played.balance_before)} → {dollars(played.balance_after)}"
    )
    wagers = page.get_by_role("table").filter(has_text="Wager")
    expect(wagers.get_by_role("row", name="Straight up 7")).to_contain_text("$5.00")
    expect(wagers.get_by_role("row", name="Red")).to_contain_text("$5.00")
    walk.shot("round-record")

    page.go_back()  # to My games, which offers the replay of the last game
    expect(page.get_by_role("heading", name="My games", level=1)).to_be_visible()
    page.get_by_role("link", name=re.compile(r"replay your last game", re.I)).first.click()
    expect(page.get_by_text("not a new game")).to_be_visible()
    expect(
        page.get_by_role("heading", name=re.compile(rf"Replay of game #{played.pk}"), level=1)
    ).to_be_visible()
    wheel = page.get_by_role("img", name=re.compile(rf"stopped on {played.outcome}\b"))
    expect(wheel).to_be_visible()
    returns = page.get_by_role("table", name="Each wager and what it returned")
    expect(returns.get_by_role("row", name="Total")).to_contain_text(
        dollars(sum(bet.returned for bet in bets.values()))
    )
    # Nothing on a replay can be bet on.
    expect(page.get_by_role("button", name="Confirm bets and spin")).to_have_count(0)
    expect(page.get_by_role("button", name="Red", exact=True)).to_have_count(0)
    walk.shot("replay")
