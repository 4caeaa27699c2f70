"""Issue 15: a round's player pages name its rules submission, layout and paytable by
title and version with the odds it used, show every time in Pennsylvania time to the
second (never microseconds), and the table offers "Repeat last bet"."""

import re

import pytest

from portal.core.templatetags.pa_time import pa_time
from tests.portal.browser import needs_chromium
from tests.portal.factories import PASSWORD
from tests.portal.game.conftest import play_round

# A time shown with a fraction of a second, or in ISO form (as ``isoformat`` writes it).
FRACTION_OF_A_SECOND = re.compile(r"\d{2}:\d{2}:\d{2}[.,]\d")
ISO_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _play(player, offering, n):
    """Red and straight-up on ``n``, the wheel stopped on ``n`` (the game pages' round)."""
    wagers = [
        {"kind": "red", "stake": 200},
        {"kind": "straight", "numbers": [n % 13], "stake": 200},
    ]
    return play_round(player, offering, f"records-round-{n:04d}", wagers, outcome=n % 13).round


def _names(round_obj):
    return [
        f"{round_obj.rules_submission.title} v{round_obj.rules_version}",
        f"{round_obj.layout.title} v{round_obj.layout_version}",
        f"{round_obj.paytable.name} v{round_obj.paytable_version}",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/play/rounds/{pk}/", "/play/rounds/{pk}/replay/", "/play/replay/"]
)
def test_the_round_and_replay_pages_name_the_three_records_and_the_odds_used(
    client, funded_player, live_offering, url
):
    round_obj = _play(funded_player, live_offering, 7)
    client.force_login(funded_player)

    page = client.get(url.format(pk=round_obj.pk)).content.decode()

    for heading, name in zip(
        ("Rules submission", "Layout", "Paytable"), _names(round_obj), strict=True
    ):
        assert f"<dt>{heading}</dt><dd" in page
        assert name in page, name
    assert "<dt>Odds used</dt>" in page
    # The odds as the round recorded them: a straight-up bet pays 11 to 1 (§ 617b.8(g)).
    assert "Straight up 11 to 1" in page
    assert "Red 1 to 1" in page


@pytest.mark.django_db
def test_the_round_page_shows_the_recorded_odds_not_the_paytable_as_it_is_now(
    client, funded_player, live_offering
):
    round_obj = _play(funded_player, live_offering, 7)
    assert round_obj.paytable_odds["straight"] == "11"
    client.force_login(funded_player)

    page = client.get(f"/play/rounds/{round_obj.pk}/").content.decode()

    odds = re.search(r'<dd class="round-odds">(.*?)</dd>', page, re.S).group(1)
    assert odds.count(" to ") == len(round_obj.paytable_odds)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/play/rounds/{pk}/", "/play/rounds/{pk}/replay/", "/play/replay/"]
)
def test_the_round_pages_run_a_pinned_number_of_queries(
    client, funded_player, live_offering, django_assert_num_queries, url
):
    round_obj = _play(funded_player, live_offering, 7)
    client.force_login(funded_player)

    # session, user, roles and holder (sign-in), the round with its offering and the three
    # records it names, its bets, the frame's unread notifications; "is it the latest" for a
    # replay by id
    expected = 7 if url == "/play/rounds/{pk}/replay/" else 6
    with django_assert_num_queries(expected):
        client.get(url.format(pk=round_obj.pk))


@pytest.mark.django_db
def test_no_player_page_shows_microseconds(client, funded_player, live_offering):
    rounds = [_play(funded_player, live_offering, n) for n in range(3)]
    client.force_login(funded_player)
    last = rounds[-1]

    for url in (
        f"/play/rounds/{last.pk}/",
        f"/play/rounds/{last.pk}/replay/",
        "/play/replay/",
        "/play/history/",
        f"/play/{live_offering.pk}/",
    ):
        page = client.get(url).content.decode()
        assert not FRACTION_OF_A_SECOND.search(page), url
        assert not ISO_INSTANT.search(page), url
        assert pa_time(last.ended_at, "seconds") in page, url
    record = client.get(f"/play/rounds/{last.pk}/").content.decode()
    for instant in (last.started_at, last.bets_closed_at, last.ended_at):
        assert pa_time(instant, "seconds") in record


@pytest.mark.django_db
def test_repeat_last_bet_is_there_disabled_until_a_spin(client, funded_player, live_offering):
    client.force_login(funded_player)

    page = client.get(f"/play/{live_offering.pk}/").content.decode()

    assert (
        '<button type="button" id="repeat" class="secondary" disabled>Repeat last bet</button>'
        in page
    )


def _stakes(page):
    return dict(
        page.eval_on_selector_all(
            ".spot.has-stake",
            "els => els.map(e => [e.dataset.spot, e.querySelector('.stake').textContent])",
        )
    )


@pytest.mark.django_db(transaction=True)
@needs_chromium
def test_repeat_last_bet_places_the_previous_spins_stakes_again(
    page, live_server, funded_player, live_offering
):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", funded_player.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/play/{live_offering.pk}/")
    assert page.is_disabled("#repeat")

    page.check("input[name=chip][value='500']", force=True)  # the $5.00 chip
    page.click("[data-spot='straight:7']")
    page.click("[data-spot='straight:7']")
    page.check("input[name=chip][value='100']", force=True)  # the $1.00 chip
    page.click("[data-spot='red']")
    placed, total = _stakes(page), page.inner_text("#total")
    assert placed == {"straight:7": "$10.00", "red": "$1.00"} and total == "$11.00"
    page.click("#spin")
    page.wait_for_selector("#result:not([hidden])")
    assert _stakes(page) == {} and page.inner_text("#total") == "$0.00"

    page.click("#repeat")

    assert _stakes(page) == placed
    assert page.inner_text("#total") == total
    page.click("#undo")  # placed as clicks are: undo takes back the last one
    assert page.inner_text("#total") == "$10.00"
