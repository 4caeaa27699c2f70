"""The second finish of the screens, walked as their users meet them: each step asserts what
the person reads (every screenshot also passes the plain-words check), and axe checks each
page.

- payments staff land on their queue, not on a page saying they hold no role;
- the audit trail's search finds the words its list shows ("Approved", "Signed in");
- an address for a form's button, opened on its own, is a page with a way back;
- a refusal that cites a Reading names it by its title, linked to the Regulation page;
- staff read a player as reports name them (P and a number) and an adjustment as one;
- odds inputs open a keyboard that has "/".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.core.readings import title_of
from portal.game.models import GamingAccount, RoundCorrection
from tests.portal.browser import needs_chromium
from tests.portal.factories import approved_layout
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_payments_staff_land_on_their_queue(walk, axe, payments_a):
    walk.sign_in("payments_a")

    expect(walk.page.get_by_role("heading", name="Payments", level=1)).to_be_visible()
    assert walk.page.url.endswith("/play/payments/")
    expect(walk.page.get_by_role("main")).not_to_contain_text("holds none of those roles")
    walk.shot("payments staff land on their queue")
    axe.check("payments-landing")
    axe.assert_no_serious_violations()


@pytest.mark.clause("811a.7", kind="related")
def test_the_audit_trails_search_finds_the_words_its_list_shows(
    walk, axe, officer, officer2, manager_a, holder_a
):
    approved_layout(manager_a, officer2, holder_a)
    page = walk.page
    walk.sign_in("officer")
    walk.open("/audit/")
    filters = page.get_by_role("form", name="Filter the audit trail")

    for word, shown in (("Approved", "Approved"), ("Signed in", "Signed in")):
        filters.get_by_label("Search who, action or reason").fill(word)
        filters.get_by_role("button", name="Filter").click()
        rows = page.locator("table tbody tr")
        expect(rows.first).to_be_visible()
        actions = rows.locator('td[data-label="What happened"]').all_inner_texts()
        assert actions and all(shown.lower() in a.lower() for a in actions), (word, actions)
        walk.shot(f"the trail searched for {word}")
    axe.check("audit-search")
    axe.assert_no_serious_violations()


def test_a_form_address_opened_on_its_own_is_a_page_with_a_way_back(walk, axe, officer):
    walk.sign_in("officer")
    response = walk.page.goto(f"{walk.base_url}/notifications/read-all/")

    assert response is not None and response.status == 405
    expect(walk.page.get_by_role("heading", name="Not a page to open")).to_be_visible()
    expect(walk.page.get_by_role("main")).to_contain_text("use its button")
    walk.shot("a button's address opened on its own")
    axe.check("method-not-allowed")
    walk.page.get_by_role("link", name="Back to the dashboard").click()
    expect(walk.page.get_by_role("heading", level=1)).to_contain_text("Dashboard")
    axe.assert_no_serious_violations()


@pytest.mark.clause("reading:adjustment-grounds", kind="cites-in-message")
def test_a_refusal_names_its_reading_by_title_and_a_player_as_reports_do(
    walk, axe, officer, player, live_offering, holder_a
):
    wallet_top_up(player=player, amount=10_000, holder=holder_a)
    round_obj = play_round(player, live_offering, "walk-second-finish").round
    page = walk.page
    walk.sign_in("officer")
    walk.open(f"/play/rounds/{round_obj.pk}/")

    form = page.locator("form", has=page.get_by_role("button", name="Propose the adjustment"))
    form.get_by_label("Credited: they were paid too little").check()
    form.get_by_label("Amount").fill("2.50")
    form.get_by_label("Why").fill("The player says the split paid short")
    form.get_by_label("Notification to the player").fill("We looked at this game again.")
    form.get_by_role("button", name="Propose the adjustment").click()

    summary = page.locator("[data-error-summary]")
    expect(summary).to_contain_text("§ 812a.7(a)(9): an adjustment credit rests on")
    title = title_of("reading:adjustment-grounds")
    expect(summary).to_contain_text(f"the reading “{title}”")
    expect(page.get_by_role("main")).not_to_contain_text("reading:")
    assert not RoundCorrection.objects.exists()
    walk.shot("the refusal names its reading by title")
    axe.check("refusal-with-reading")
    field_error = page.locator(".errorlist").get_by_role("link", name=f"the reading “{title}”")
    expect(field_error).to_be_visible()
    field_error.click()
    assert page.url.endswith("/regulation/#clause-readingadjustment-grounds")

    account = GamingAccount.objects.get(player=player, holder=holder_a)
    walk.open(f"/play/players/{account.pk}/")
    expect(page.get_by_role("main")).to_contain_text(f"(P{player.pk} in reports)")
    expect(page.get_by_role("main")).not_to_contain_text("(user ")
    walk.shot("the player named as reports name them")
    axe.check("player-account")
    axe.assert_no_serious_violations()


@pytest.mark.clause("617b.8(f)", kind="related")
def test_odds_inputs_open_a_keyboard_with_a_slash(walk, axe, manager_a):
    walk.sign_in("manager_a")
    walk.open("/compliance/paytables/new/")

    odds = walk.page.locator("input.odds")
    expect(odds.first).to_be_visible()
    modes = odds.evaluate_all("inputs => inputs.map(i => i.inputMode)")
    assert len(modes) == 10 and set(modes) == {"text"}, modes
    straight = walk.page.get_by_label("Straight up")
    straight.fill("23/2")
    expect(straight).to_have_value("23/2")
    walk.shot("odds typed as a fraction")
    axe.check("paytable-form")
    axe.assert_no_serious_violations()
