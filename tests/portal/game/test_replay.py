"""§ 810a.11(a): the "last game" replay, redrawn from the stored round only."""

import re

import pytest

from portal.access.roles import Role
from portal.compliance.models import Layout
from portal.game.templatetags.game_money import dollars
from tests.portal.factories import (
    approved_layout,
    approved_paytable,
    approved_rules,
    make_offering,
    make_user,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

PLAYER_BANNER = "Replay of your previous game — not a new game. Nothing here can be bet on."
# One wager of each shape on the layout: number, zero, edge, corner, street, column, outside.
MIXED = [
    {"kind": "straight", "numbers": [3], "stake": 100},
    {"kind": "straight", "numbers": [0], "stake": 200},
    {"kind": "split", "numbers": [2, 3], "stake": 300},
    {"kind": "corner", "numbers": [2, 3, 5, 6], "stake": 400},
    {"kind": "street", "numbers": [1, 2, 3], "stake": 500},
    {"kind": "three_numbers", "numbers": [0, 2, 3], "stake": 600},
    {"kind": "column", "numbers": [3, 6, 9, 12], "stake": 700},
    {"kind": "red", "stake": 800},
    {"kind": "small", "stake": 900},
]
SPOT = re.compile(
    r'<div class="spot ([^"]*)"[^>]*data-spot="([^"]+)" aria-disabled="true"[^>]*>\s*'
    r'<span class="label">[^<]*</span>(?:<span class="stake">([^<]*)</span>)?'
)


def _main(page: str) -> str:
    """The page's own content, without the site header (whose sign-out is a button)."""
    return page.split('<main id="main"', 1)[1].split("</main>", 1)[0]


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _replay(client, user, url="/play/replay/") -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_810a11_a_replay_says_first_that_it_is_not_a_new_game(client, funded_player, live_offering):
    play_round(funded_player, live_offering, "replay-1")

    main = _main(_replay(client, funded_player))

    assert _text(main.split(">", 1)[1]).startswith(PLAYER_BANNER)


def test_810a11_a_replay_shows_every_stake_on_its_spot(client, funded_player, live_offering):
    played = play_round(funded_player, live_offering, "replay-1", wagers=MIXED, outcome=3)

    spots = {spot: stake for _, spot, stake in SPOT.findall(_replay(client, funded_player))}

    assert len(spots) == 52
    placed = {bet.spot: dollars(bet.stake) for bet in played.bets}
    assert len(placed) == len(MIXED)
    assert {spot: stake for spot, stake in spots.items() if stake} == placed


def test_810a11_a_replay_marks_where_the_wheel_stopped(client, funded_player, live_offering):
    play_round(funded_player, live_offering, "replay-1", outcome=7)

    page = _replay(client, funded_player)

    assert re.findall(r'class="segment [a-z]+ winner" id="segment-(\d+)"', page) == ["7"]
    # The winning spots of the layout are lit too: straight 7 among them.
    winners = [spot for classes, spot, _ in SPOT.findall(page) if "winner" in classes.split()]
    assert "straight:7" in winners


def test_810a11_a_replay_returns_and_balances_are_the_stored_ones(
    client, funded_player, live_offering
):
    played = play_round(funded_player, live_offering, "replay-1", wagers=MIXED, outcome=3)
    round_obj = played.round

    page = _replay(client, funded_player)

    rows = re.findall(
        r'<tr data-spot="([^"]+)"><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>', page
    )
    assert rows == [
        (bet.spot, rows[i][1], dollars(bet.stake), dollars(bet.returned))
        for i, bet in enumerate(played.bets)
    ]
    assert any(bet.returned for bet in played.bets) and any(not b.returned for b in played.bets)
    assert f'id="balance-before">{dollars(round_obj.balance_before)}<' in page
    assert f'id="balance-after">{dollars(round_obj.balance_after)}<' in page
    assert f'id="outcome">{round_obj.outcome}<' in page


def test_810a11_a_replay_draws_the_recorded_wheel_not_the_current_layout(
    client, funded_player, live_offering
):
    played = play_round(funded_player, live_offering, "replay-1")
    # The offering's layout changes after the game: the replay must not follow it.
    changed = [0, 6, 12, 11, 5, 4, 10, 9, 3, 2, 8, 7, 1]
    Layout.objects.filter(pk=live_offering.layout_id).update(wheel_order=changed)

    page = _replay(client, funded_player)

    order = [
        int(n)
        for n in re.findall(r'class="segment [^"]*" id="segment-\d+" data-number="(\d+)"', page)
    ]
    assert order == played.round.wheel_order != changed


def test_617b8_c_replay_colours_a_black_first_wheel_as_it_was_played(
    client, funded_player, manager_a, officer, holder_a
):
    layout = approved_layout(manager_a, officer, holder_a, first_colour="black")
    paytable = approved_paytable(manager_a, officer, holder_a)
    rules = approved_rules(manager_a, officer, holder_a, paytable, layout)
    offering = make_offering(manager_a, holder_a, rules, layout, paytable)
    play_round(funded_player, offering, "replay-black-1")

    page = _replay(client, funded_player)

    segment = r'class="segment (red|black|white)[^"]*" id="segment-\d+" data-number="(\d+)"'
    colours = {int(number): colour for colour, number in re.findall(segment, page)}
    # The standard order with black after 0: 1 is black, 7 red, and so on around the wheel.
    assert (colours[0], colours[1], colours[7], colours[6]) == ("white", "black", "red", "red")


def test_810a11_a_replay_has_nothing_to_bet_with(client, funded_player, live_offering):
    play_round(funded_player, live_offering, "replay-1", wagers=MIXED)

    page = _replay(client, funded_player)
    main = _main(page)

    for playable in ('id="spin"', "<button", "<form", "<input", "hx-post", "<script"):
        assert playable not in main, playable
    assert "game/table.js" not in page


def test_810a11_a_replay_of_a_given_round_follows_round_recall_access(
    client, funded_player, live_offering, auditor, officer, manager_a
):
    round_obj = play_round(funded_player, live_offering, "replay-1").round
    stranger = make_user("stranger", Role.PLAYER)
    wallet_top_up(player=stranger, amount=1000)
    url = f"/play/rounds/{round_obj.pk}/replay/"

    assert PLAYER_BANNER in _replay(client, funded_player, url)
    for staff in (auditor, officer):
        assert f"Replay of game #{round_obj.pk} — not a new game" in _replay(client, staff, url)
    for user, status in ((stranger, 404), (manager_a, 403)):
        client.force_login(user)
        assert client.get(url).status_code == status, user
    client.logout()
    for anonymous_url in (url, "/play/replay/"):
        response = client.get(anonymous_url)
        assert response.status_code == 302 and "/login" in response["Location"]


def test_810a11_a_replay_of_an_older_round_does_not_call_it_the_previous_game(
    client, funded_player, live_offering
):
    older = play_round(funded_player, live_offering, "replay-1").round
    play_round(funded_player, live_offering, "replay-2")

    page = _replay(client, funded_player, f"/play/rounds/{older.pk}/replay/")

    assert f"Replay of your game #{older.pk} — not a new game." in page
    assert PLAYER_BANNER not in page


def test_810a11_a_replay_with_no_previous_game_says_so(client, funded_player):
    page = _replay(client, funded_player)

    assert "There is no previous game to replay" in page


def test_810a11_a_replay_is_linked_from_the_game_pages(client, funded_player, live_offering):
    round_obj = play_round(funded_player, live_offering, "replay-1").round
    client.force_login(funded_player)

    for url in (f"/play/{live_offering.pk}/", "/play/history/"):
        page = client.get(url).content.decode()
        assert 'href="/play/replay/">Replay your last game</a>' in page, url
        assert f'href="/play/rounds/{round_obj.pk}/replay/"' in page, url
    assert (
        f'href="/play/rounds/{round_obj.pk}/replay/"'
        in client.get(f"/play/rounds/{round_obj.pk}/").content.decode()
    )


@pytest.mark.parametrize("wagers", [MIXED[:1], MIXED], ids=["one bet", "nine bets"])
@pytest.mark.clause("810a.11(a)", kind="related")
def test_810a11_a_replay_queries_do_not_grow_with_the_bets(
    client, funded_player, live_offering, django_assert_num_queries, wagers
):
    round_obj = play_round(funded_player, live_offering, "replay-1", wagers=wagers).round
    client.force_login(funded_player)

    # session, user, roles with holder (sign-in), the round with player and table, its bets,
    # the frame's unread notifications
    with django_assert_num_queries(6):
        client.get("/play/replay/")
    # ... and, for one's own round by id, whether a later one exists (for the banner)
    with django_assert_num_queries(7):
        client.get(f"/play/rounds/{round_obj.pk}/replay/")
