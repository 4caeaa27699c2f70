"""A player's pages in the player's words: My games names each game's table, and a round's
record keeps what only a checker needs (the hashes, the random number call) folded under
"Verification details"."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from tests.portal.game.conftest import play_round
from tests.portal.plain_words import shown_text

pytestmark = pytest.mark.django_db
WAGERS = [{"kind": "red", "stake": 200}]


def _details(page: str, summary: str) -> str:
    """The <details> element whose summary is ``summary``, whole."""
    found = re.search(
        rf"<details[^>]*>\s*<summary>{re.escape(summary)}</summary>.*?</details>", page, re.S
    )
    assert found, f"no folded “{summary}” on the page"
    return found.group(0)


def test_my_games_names_the_table_of_each_game(client, funded_player, live_offering):
    played = [
        play_round(funded_player, live_offering, f"words-game-{n}", WAGERS, n) for n in (1, 2)
    ]
    client.force_login(funded_player)

    page = client.get("/play/history/").content.decode()

    cell = f'<td data-label="Table" class="round-table">{escape(live_offering.name)}</td>'
    assert page.count(cell) == len(played)
    assert '<th scope="col">Table</th>' in page
    # The table's cell comes first in each game's row, then the round's link.
    assert re.search(re.escape(cell) + r'\s*<td data-label="Round"><a href="/play/rounds/', page)


def test_my_games_with_no_game_spans_every_column(client, funded_player):
    client.force_login(funded_player)

    page = client.get("/play/history/").content.decode()

    headers = page.count('<th scope="col"')
    assert f'<td colspan="{headers}">No games yet.</td>' in page


def test_the_round_record_folds_its_hashes_and_random_number_under_verification_details(
    client, funded_player, live_offering
):
    first = play_round(funded_player, live_offering, "words-first", WAGERS, 4).round
    second = play_round(funded_player, live_offering, "words-second", WAGERS, 7).round
    client.force_login(funded_player)

    page = client.get(f"/play/rounds/{second.pk}/").content.decode()

    folded = _details(page, "Verification details")
    assert second.hash in folded and second.prev_hash in folded
    assert second.prev_hash == first.hash  # the chain to the player's previous game
    assert f"raw value {second.rng_raw}" in folded
    shown = shown_text(page)
    assert second.hash not in shown and f"raw value {second.rng_raw}" not in shown
    assert "Verification details" in shown and "Outcome" in shown
    assert page.count(second.hash) == 1  # nowhere else on the page
