import csv
import io
import re

import pytest

from portal.access.roles import Role
from portal.game.play.services import round_play
from tests.portal.factories import in_session, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db


def _play(player, offering, n, key=None):
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=[
            {"kind": "red", "stake": 200},
            {"kind": "straight", "numbers": [n % 13], "stake": 200},
        ],
        idempotency_key=key or f"page-round-{n:04d}",
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
    # session, user, roles and holder (sign-in), wallet, the tables played (the filter's
    # choices), the count of games and one page of them, the frame's unread notifications
    with django_assert_num_queries(8) as one:
        client.get("/play/history/")
    for n in range(1, 12):
        _play(funded_player, live_offering, n)
    with django_assert_num_queries(8) as many:
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


def test_my_games_are_paged_filtered_sorted_and_exported(
    client, funded_player, live_offering, player
):
    played = [_play(funded_player, live_offering, n % 13, f"my-games-{n:04d}") for n in range(30)]
    client.force_login(funded_player)

    first = client.get("/play/history/").content.decode()
    second = client.get("/play/history/?page=2").content.decode()
    sevens = client.get("/play/history/?outcome=7&sort=round").content.decode()
    export = client.get(f"/play/history/?offering={live_offering.pk}&export=csv")

    newest = [str(r.pk) for r in sorted(played, key=lambda r: -r.sequence)]
    shown = re.findall(r'<td data-label="Round"><a href="/play/rounds/(\d+)/">', first + second)
    assert shown == newest  # every game, 25 a page, newest first
    assert re.findall(r'<td data-label="Outcome">(\d+)</td>', sevens) == ["7", "7"]
    rows = list(csv.DictReader(io.StringIO(b"".join(export.streaming_content).decode())))
    assert len(rows) == 30 and {row["Player"] for row in rows} == {funded_player.username}


def test_my_games_show_no_one_elses_and_refuse_a_bad_filter(client, funded_player, live_offering):
    other = make_user("other_player", Role.PLAYER)
    wallet_top_up(player=other, amount=10_000)
    theirs = _play(other, live_offering, 3)
    client.force_login(funded_player)

    page = client.get("/play/history/").content.decode()
    export = client.get("/play/history/?export=csv")
    bad = client.get("/play/history/?outcome=13")

    assert f"/play/rounds/{theirs.pk}/" not in page
    assert b"".join(export.streaming_content).decode().count("\n") == 1  # the header only
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()


def test_my_games_export_reads_a_constant_number_of_queries(
    client, funded_player, live_offering, django_assert_num_queries
):
    client.force_login(funded_player)
    for n in range(6):
        _play(funded_player, live_offering, n, f"export-{n:04d}")

    # session, user, roles and holder, the games (their players and tables joined)
    with django_assert_num_queries(4):
        response = client.get("/play/history/?export=csv")
        rows = b"".join(response.streaming_content).decode().splitlines()

    assert len(rows) == 7
