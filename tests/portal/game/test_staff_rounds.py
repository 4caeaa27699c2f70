"""Every round for those who may see every round, filtered (§ 810a.11), and the round
chains' verification as a page, with the heads to keep outside the system (§ 811a.7)."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.db import connection

from portal.access.roles import Role
from portal.audit.chain import stored_head
from portal.core import append_only
from portal.core.padates import pa_today
from portal.game.chain import heads_digest
from portal.game.models import Bet, Round, Wallet
from portal.game.play.services import round_play
from tests.portal.factories import approved_offering, in_session, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits
from tests.portal.page_helpers import field_errors, text

pytestmark = pytest.mark.django_db

RED = [{"kind": "red", "stake": 200}]


def _play(player, offering, key, outcome, wagers=RED):
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=key,
        rng=FixedBits(outcome),
    ).round


def _round_ids(page: str) -> list[int]:
    body = page[page.index('<table class="staff-rounds cards">') : page.index("</table>")]
    return [int(pk) for pk in re.findall(r'<a href="/play/rounds/(\d+)/">', body)]


@pytest.fixture
def floor(funded_player, live_offering, manager_b, officer, holder_b):
    """Two players at two holders' tables: player plays 2 rounds at table A (outcomes 3, 7)
    and 1 at table B (outcome 3); player2 plays 1 at table A (outcome 7)."""
    player2 = make_user("player2", Role.PLAYER)
    wallet_top_up(player=player2, amount=50_000)
    # § 812a.4: table B is played from the player's account with holder B.
    wallet_top_up(player=funded_player, amount=50_000, holder=holder_b)
    table_b = approved_offering(manager_b, officer, holder_b, name="Table B")
    rounds = {
        "a3": _play(funded_player, live_offering, "floor-0001", 3),
        "a7": _play(funded_player, live_offering, "floor-0002", 7),
        "b3": _play(funded_player, table_b, "floor-0003", 3),
        "p2": _play(player2, live_offering, "floor-0004", 7),
    }
    return {"table_a": live_offering, "table_b": table_b, "player2": player2, **rounds}


def _tamper(sql, params):
    append_only.drop_all(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    append_only.install_all(connection)


# The rounds list


@pytest.mark.parametrize("role", ["auditor", "officer", "superuser"])
def test_810a11_those_who_may_see_every_round_list_them_with_the_full_record(
    login, request, floor, role
):
    response = login(request.getfixturevalue(role)).get("/play/rounds/")

    page = text(response)
    assert response.status_code == 200
    newest_first = [floor[key].pk for key in ("p2", "b3", "a7", "a3")]
    assert _round_ids(page) == newest_first
    row = page[page.index(f'<a href="/play/rounds/{floor["b3"].pk}/">') :]
    row = row[: row.index("</tr>")]
    assert '<td data-label="Player">player <span' in row
    assert '<td data-label="Offering">Table B <span' in row and "(Susquehanna Gaming)" in row
    assert "$2.00" in row and "$4.00" in row  # red on 3 pays even money
    assert "Complete" in row
    started = re.search(
        r"<td data-label=\"Started\">(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (EST|EDT))</td>", row
    )
    assert started is not None  # Pennsylvania time, to the second, no microseconds
    assert "4 in all." in page


def test_810a11_an_auditor_filters_by_player_offering_and_outcome(login, auditor, floor):
    client = login(auditor)

    by_player = text(client.get("/play/rounds/?player=PLAYER2"))
    by_offering = text(client.get(f"/play/rounds/?offering={floor['table_b'].pk}"))
    by_outcome = text(client.get("/play/rounds/?outcome=7"))
    together = text(
        client.get(f"/play/rounds/?player=player&offering={floor['table_a'].pk}&outcome=3")
    )
    zero = text(client.get("/play/rounds/?outcome=0"))

    assert _round_ids(by_player) == [floor["p2"].pk]
    assert _round_ids(by_offering) == [floor["b3"].pk]
    assert _round_ids(by_outcome) == [floor["p2"].pk, floor["a7"].pk]
    assert _round_ids(together) == [floor["a3"].pk]
    assert _round_ids(zero) == [] and "No rounds for these filters." in zero
    # Any outcome is the empty choice, first: a form sent as it stands filters nothing.
    blank = text(client.get("/play/rounds/"))
    assert re.search(r'<select name="outcome" id="id_outcome">\s*<option value="" selected>', blank)


def test_810a11_an_auditor_filters_by_period_in_pennsylvania_dates(login, auditor, floor):
    client = login(auditor)
    today = pa_today()
    yesterday, tomorrow = today - datetime.timedelta(days=1), today + datetime.timedelta(days=1)

    today_only = text(client.get(f"/play/rounds/?since={today}&until={today}"))
    before = text(client.get(f"/play/rounds/?until={yesterday}"))
    after = text(client.get(f"/play/rounds/?since={tomorrow}&status=complete"))

    assert len(_round_ids(today_only)) == 4
    assert _round_ids(before) == [] and _round_ids(after) == []


@pytest.mark.parametrize(
    ("query", "field", "error"),
    [
        ("outcome=13", "id_outcome", "Select a valid choice"),
        ("outcome=red", "id_outcome", "Select a valid choice"),
        ("offering=999999", "id_offering", "Select a valid choice"),
        ("since=last+tuesday", "id_since", "Enter a valid date"),
        ("since=0001-01-01", "id_since", "between the years 1900 and 9998"),
        ("since=2026-03-02&until=2026-03-01", "id_until", "ends before it starts"),
        ("status=pending", "id_status", "Select a valid choice"),
    ],
)
def test_a_bad_filter_value_is_a_400_with_its_error_shown(
    login, auditor, floor, query, field, error
):
    response = login(auditor).get(f"/play/rounds/?{query}")

    assert response.status_code == 400
    assert error in field_errors(response, field)
    assert _round_ids(text(response)) == []  # never the unfiltered list


@pytest.mark.parametrize("role", ["player", "manager_a"])
def test_players_and_managers_may_not_list_every_round(login, request, role):
    client = login(request.getfixturevalue(role))

    for url in ("/play/rounds/", "/play/verify/"):
        assert client.get(url).status_code == 403


def test_the_rounds_list_is_paginated_25_to_a_page(login, auditor, funded_player, live_offering):
    for number in range(27):
        _play(funded_player, live_offering, f"page-{number:04d}", number % 13)
    client = login(auditor)

    first = text(client.get("/play/rounds/?player=player"))
    second = text(client.get("/play/rounds/?player=player&page=2"))

    assert len(_round_ids(first)) == 25 and len(_round_ids(second)) == 2
    assert "Page 2 of 2" in second
    assert 'href="?player=player&amp;page=2"' in first


@pytest.mark.parametrize("rounds", [1, 6])
def test_the_rounds_list_runs_a_constant_number_of_queries(
    login, django_assert_num_queries, auditor, funded_player, live_offering, rounds
):
    for number in range(rounds):
        _play(funded_player, live_offering, f"count-{number:04d}", number % 13)
    client = login(auditor)

    # Session, user, roles; the offerings to choose from; the count and the page.
    with django_assert_num_queries(7):  # with the header's unread-notification count
        response = client.get("/play/rounds/")
    assert len(_round_ids(text(response))) == rounds
    # An offering chosen is looked up once more.
    with django_assert_num_queries(8):
        response = client.get(f"/play/rounds/?offering={live_offering.pk}&outcome=0")
    assert len(_round_ids(text(response))) == 1


# The round chains' verification


def test_810a11_811a7_verify_shows_an_intact_chain_and_the_heads_to_keep(login, auditor, floor):
    response = login(auditor).get("/play/verify/")

    page = text(response)
    assert response.status_code == 200
    assert "Intact." in page and "4 rounds verified" in page
    wallets = Wallet.objects.select_related("player").order_by("player_id")
    for wallet in wallets:
        assert f"<td>{wallet.player.username}</td><td>{wallet.rounds_played}</td>" in page
        assert wallet.chain_head in page
    digest = heads_digest({w.player_id: (w.rounds_played, w.chain_head) for w in wallets})
    assert digest in page
    sequence, head = stored_head()
    assert f'#{sequence} <code class="hash">{head}</code>' in page


def test_810a11_the_heads_digest_is_the_audit_reports(login, auditor, floor):
    """The audit report digests each player's last round in its period (sequence, hash):
    over every round to now, the page's digest is that one."""
    page = text(login(auditor).get("/play/verify/"))

    last_rounds = {}
    for round_obj in Round.objects.order_by("player_id", "sequence"):
        last_rounds[round_obj.player_id] = (round_obj.sequence, round_obj.hash)
    assert len(last_rounds) == 2
    assert heads_digest(last_rounds) in page


def test_810a11_811a7_verify_shows_the_first_break_after_a_tampered_round(login, auditor, floor):
    honest = Bet.objects.get(round=floor["a7"]).returned
    _tamper("UPDATE game_bet SET returned = %s WHERE round_id = %s", [honest + 200, floor["a7"].pk])

    response = login(auditor).get("/play/verify/")

    page = text(response)
    assert response.status_code == 200
    assert "Intact." not in page
    assert f'round <a href="/play/rounds/{floor["a7"].pk}/">#{floor["a7"].pk}</a>' in page
    assert "does not match its hash" in page
    assert "The 1 round before it are intact." in page


def test_811a7_verify_shows_a_missing_latest_round(login, auditor, floor):
    last = floor["p2"]
    for table in ("game_ledgerentry", "game_bet"):
        _tamper(f"DELETE FROM {table} WHERE round_id = %s", [last.pk])
    _tamper("DELETE FROM game_round WHERE id = %s", [last.pk])

    page = text(login(auditor).get("/play/verify/"))

    assert "Broken</strong> at a wallet" in page and "a round is missing" in page


def test_811a7_verify_shows_a_ledger_that_does_not_add_up(login, auditor, floor):
    _tamper(
        "UPDATE game_wallet SET balance = balance + 100 WHERE player_id = %s",
        [floor["player2"].pk],
    )

    page = text(login(auditor).get("/play/verify/"))

    assert "<strong>Broken</strong>: a wallet's ledger does not add up" in page
    assert f"wallet {Wallet.objects.get(player=floor['player2']).pk} holds" in page
    assert "4 rounds verified" in page


# Real commits on PostgreSQL: there the page reads in a snapshot of its own only outside a
# transaction, which a rolled-back test would wrap it in.
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
@pytest.mark.parametrize("rounds", [1, 6])
def test_the_verify_page_runs_a_constant_number_of_queries(
    login, django_assert_num_queries, auditor, funded_player, live_offering, rounds
):
    for number in range(rounds):
        _play(funded_player, live_offering, f"verify-{number:04d}", number % 13)
    client = login(auditor)

    # Session, user, roles; the wallets, the rounds and their bets (streamed 1,000 rounds a
    # chunk), the ledger; the holder accounts, the deposits and the withdrawals (§ 812a.4:
    # each account against its ledger, each deposit and payout against its entry); the
    # heads and the audit trail's head. On PostgreSQL the snapshot is its own transaction
    # (BEGIN, repeatable read and read only, COMMIT): 3 statements more.
    with django_assert_num_queries(13 + 3 * (connection.vendor == "postgresql")):
        response = client.get("/play/verify/")
    assert "Intact." in text(response)


def test_810a11_the_rounds_list_sorts_and_exports_what_it_filters(login, auditor, floor):
    client = login(auditor)

    by_stake = _round_ids(text(client.get("/play/rounds/?sort=-staked")))
    export = client.get(f"/play/rounds/?offering={floor['table_a'].pk}&sort=round&export=csv")

    staked = {pk: Round.objects.get(pk=pk).total_staked for pk in by_stake}
    assert [staked[pk] for pk in by_stake] == sorted(staked.values(), reverse=True)
    assert export.status_code == 200 and export["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(export.streaming_content).decode())))
    played = sorted(floor[key].pk for key in ("a3", "a7", "p2"))
    assert [int(row["Round ID"]) for row in rows] == played
    first = Round.objects.get(pk=played[0])
    assert rows[0]["Staked (cents)"] == str(first.total_staked)  # minor units, exact
    assert rows[0]["Returned (cents)"] == str(first.total_returned)
    assert rows[0]["Started at (UTC)"] == first.started_at.isoformat()
    assert rows[0]["Hash"] == first.hash and rows[0]["Player"] == "player"


def test_the_rounds_list_refuses_an_unknown_sort(login, auditor, floor):
    response = login(auditor).get("/play/rounds/?sort=rng_raw&export=csv")

    assert response.status_code == 400
    assert "Select a valid choice" in text(response)
    assert _round_ids(text(response)) == []
