import pytest

from portal.accounts.models import Role
from portal.game.services import round_play, wallet_top_up
from tests.portal.factories import make_user
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db


def _play(player, offering, n):
    return round_play(
        player=player,
        offering_id=offering.pk,
        wagers=[
            {"kind": "red", "stake": 200},
            {"kind": "straight", "numbers": [n % 13], "stake": 200},
        ],
        idempotency_key=f"page-round-{n:04d}",
        rng=FixedBits(n % 13),
    ).round


def test_the_table_page_draws_the_layout_wheel_and_chips(client, funded_player, live_offering):
    client.force_login(funded_player)

    page = client.get(f"/play/{live_offering.pk}/").content.decode()

    assert page.count('class="spot ') == 52  # every legal bet spot is a button
    assert page.count('class="segment ') == 13
    assert 'id="segment-0"' in page and "segment white" in page
    assert 'value="100"' in page and 'value="10000"' in page  # chip unit and multiples
    assert "$1,000.00" in page


def test_history_shows_the_last_games_with_a_constant_number_of_queries(
    client, funded_player, live_offering, django_assert_num_queries
):
    client.force_login(funded_player)
    _play(funded_player, live_offering, 0)
    # session, user, roles and holder (sign-in), wallet, rounds, their bets
    with django_assert_num_queries(6) as one:
        client.get("/play/history/")
    for n in range(1, 12):
        _play(funded_player, live_offering, n)
    with django_assert_num_queries(6) as many:
        page = client.get("/play/history/").content.decode()

    assert len(one.captured_queries) == len(many.captured_queries)
    assert page.count('href="/play/rounds/') == 24  # each game's record and its replay
    assert page.count('/replay/"') == 13  # a replay per game, and "replay your last game"
    assert 'href="/play/replay/"' in page


def test_round_detail_shows_the_810a11_record(client, funded_player, live_offering):
    round_obj = _play(funded_player, live_offering, 7)
    client.force_login(funded_player)

    page = client.get(f"/play/rounds/{round_obj.pk}/").content.decode()

    for text in (
        "Jinzi Roulette, engine 1.0.0, portal 0.1.0",
        "Complete",
        "raw value 7",
        "rejected and redrawn",
        round_obj.hash,
    ):
        assert text in page


def test_round_recall_access(client, funded_player, live_offering, auditor, officer, manager_a):
    round_obj = _play(funded_player, live_offering, 3)
    stranger = make_user("stranger", Role.PLAYER)
    wallet_top_up(player=stranger, amount=1000)
    url = f"/play/rounds/{round_obj.pk}/"

    for user, status in ((auditor, 200), (officer, 200), (stranger, 404), (manager_a, 403)):
        client.force_login(user)
        assert client.get(url).status_code == status, user
    client.logout()
    assert client.get(url).status_code == 302


def test_only_players_open_the_tables(client, auditor, funded_player, live_offering):
    client.force_login(auditor)
    assert client.get("/play/").status_code == 403
    client.force_login(funded_player)
    assert live_offering.name in client.get("/play/").content.decode()
    assert client.get("/play/999999/").status_code == 404
