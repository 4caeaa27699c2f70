"""A real headless Chromium plays a round, and the page must match the stored round."""

import pytest

import jinzi
from portal.core.templatetags.pa_time import pa_time
from portal.game.models import Round
from portal.game.rounds import winning_spots
from portal.game.templatetags.game_money import dollars
from tests.portal.browser import ARTIFACTS, needs_chromium
from tests.portal.factories import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def _sign_in_and_open(page, live_server, player, offering):
    """Sign in as ``player`` through the login form, then open ``offering``'s table."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", player.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/play/{offering.pk}/")


def test_player_places_a_straight_up_and_a_red_bet_spins_and_sees_the_stored_round(
    page, live_server, funded_player, live_offering
):
    _sign_in_and_open(page, live_server, funded_player, live_offering)

    page.check("input[name=chip][value='500']", force=True)  # the $5.00 chip
    page.click("[data-spot='straight:7']")
    page.focus("[data-spot='red']")  # the keyboard works too
    page.keyboard.press("Enter")
    assert page.inner_text("#total") == "$10.00"
    page.click("#spin")
    page.wait_for_selector("#result:not([hidden])")

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-play.png"), full_page=True)
    stored = Round.objects.get()
    assert sorted(stored.bets.values_list("spot", "stake")) == [("red", 500), ("straight:7", 500)]
    assert page.get_attribute("#result", "data-outcome") == str(stored.outcome)
    assert page.get_attribute(f"#segment-{stored.outcome}", "class").split()[-1] == "winner"
    highlighted = set(
        page.eval_on_selector_all(".spot.winner", "els => els.map(e => e.dataset.spot)")
    )
    assert highlighted == set(winning_spots(stored.outcome, jinzi.Wheel.standard()))
    assert page.inner_text("#balance") == dollars(stored.balance_after)
    assert page.inner_text(".recent tbody tr:first-child td:first-child") == f"#{stored.pk}"
    # The row the page adds reads as the server's rows do: Pennsylvania time with its zone.
    ended = page.inner_text(".recent tbody tr:first-child td:nth-child(2)")
    assert ended == pa_time(stored.ended_at, "seconds")
    replay = page.get_attribute(".recent tbody tr:first-child td:last-child a", "href")
    assert replay == f"/play/rounds/{stored.pk}/replay/"


def test_a_closed_table_shows_why_and_offers_no_betting(
    page, live_server, funded_player, live_offering, officer
):
    from portal.compliance.services.offerings import offering_retire

    offering_retire(actor=live_offering.created_by, offering=live_offering, reason="Shut")
    _sign_in_and_open(page, live_server, funded_player, live_offering)

    assert "This table has been retired." in page.inner_text(".closed-table")
    assert "offering" not in page.inner_text(".closed-table")  # plain words, not the record's
    assert page.query_selector("#spin") is None


def test_a_spin_whose_answer_is_lost_is_retried_with_the_same_key_never_played_twice(
    page, live_server, funded_player, live_offering
):
    _sign_in_and_open(page, live_server, funded_player, live_offering)
    lost = []

    def lose_the_first_answer(route):
        if not lost:
            lost.append(route.fetch())  # the server plays the round...
            route.fulfill(status=502, body="bad gateway")  # ...but the answer is lost
        else:
            route.continue_()

    page.route("**/api/rounds/", lose_the_first_answer)
    page.click("[data-spot='black']")
    page.click("#spin")
    page.wait_for_selector("#status.error")
    page.click("[data-spot='red']")  # frozen: the bets of the unanswered spin stay as they were
    assert page.inner_text("#total") == "$1.00"
    page.click("#spin")
    page.wait_for_selector("#result:not([hidden])")

    stored = Round.objects.get()  # one round, shown on the retry
    assert lost[0].status == 201
    assert page.get_attribute("#result", "data-round") == str(stored.pk)
    assert list(stored.bets.values_list("spot", flat=True)) == ["black"]
