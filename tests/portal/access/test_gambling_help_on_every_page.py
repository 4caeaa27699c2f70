"""§ 814a.1(b): "IF YOU OR SOMEONE YOU KNOW HAS A GAMBLING PROBLEM, HELP IS AVAILABLE, CALL
1-800-GAMBLER" in the header of the sign-in, sign-out and public pages and of every page a
player opens, and in what players are sent. The crawl walks every route of the URLconf that
answers a visitor or a player with a page (tests/portal/access' table of expectations)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from portal.core.responsible_gaming import HELP_MESSAGE
from portal.game.money.terms import terms_accept
from portal.notifications.services import notifications_dispatch, outbox_send_due
from tests.portal.access.test_every_url_for_every_role import EXPECTED, OBJECT_FOR, SITE_ROUTES
from tests.portal.access.world import WORLD_CHART, concrete_path
from tests.portal.factories import PASSWORD, sign_in
from tests.portal.funding import wallet_top_up
from tests.portal.notifications.helpers import settle, with_emails

pytestmark = pytest.mark.django_db

ANONYMOUS, PLAYER = 0, 1  # columns of the table of expectations
HEADER = re.compile(r'<header class="(?:site|game)-header">\s*<p class="gambling-help"')


def _pages_for(column: int) -> list:
    return [
        route
        for route in SITE_ROUTES
        if EXPECTED[route.name][0].split()[column] == "200" and not route.name.startswith("api")
    ]


def _path(route, world) -> str:
    key = next((obj for prefix, obj in OBJECT_FOR if route.name.startswith(prefix)), None)
    args = {"pk": world[key].pk if key else 0, "action": "approve", "fmt": "pdf"}
    args |= {"kind": "paytable", "record_pk": world["paytable"].pk, "key": WORLD_CHART["key"]}
    args |= {"public_id": world["session"].public_id}
    return concrete_path(route, world, args)


def _html_pages(client, paths):
    for path in paths:
        response = client.get(path)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            yield path, response.content.decode()


def test_814a1_b_the_help_line_heads_every_public_and_player_page(client, world):
    public = [_path(route, world) for route in _pages_for(ANONYMOUS)]
    crawled = dict(_html_pages(client, public))
    assert "/accounts/login/" in crawled and "/players/register/" in crawled
    client.force_login(world["users"]["player"])
    player_paths = [_path(route, world) for route in _pages_for(PLAYER)]
    player_pages = dict(_html_pages(client, player_paths))
    assert len(player_pages) >= 15, sorted(player_pages)
    for path, page in {**crawled, **player_pages}.items():
        assert HELP_MESSAGE in page, path
        assert HEADER.search(page), f"{path}: the help line is not first in the header"


def test_814a1_b_the_sign_out_page_carries_it_and_staff_pages_do_not(client, world, officer):
    sign_in(client, "player", PASSWORD)
    signed_out = client.post("/accounts/logout/", follow=True)
    assert HELP_MESSAGE in signed_out.content.decode()
    client.force_login(officer)
    assert HELP_MESSAGE not in client.get("/compliance/").content.decode()


def test_814a1_b_a_players_email_carries_it(world):
    player = world["users"]["player"]
    with_emails(player)
    terms = world["terms"]
    terms_accept(player=player, holder_id=terms.holder_id, terms_id=terms.pk)
    settle()
    wallet_top_up(player=player, amount=500)  # the player is told of their deposit
    notifications_dispatch()
    outbox_send_due()
    to_player = [m for m in mail.outbox if m.to == [player.email]]
    assert to_player, "the player was sent nothing"
    assert HELP_MESSAGE in to_player[0].body
    assert HELP_MESSAGE in to_player[0].alternatives[0][0]
