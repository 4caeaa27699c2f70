"""The player pages wear the game's frame (templates/game/base.html): the game's header with
its wheel mark and name, the player's navigation, an account menu and a footer citing
58 Pa. Code § 617b.8 and the engine's version. The back office's pages, and staff who open
a player's round, keep the back office's frame."""

import re

import pytest
from django.contrib.auth.models import Group
from django.contrib.staticfiles import finders

import jinzi
from portal.access.roles import Role
from tests.portal.browser import needs_chromium
from tests.portal.factories import PASSWORD
from tests.portal.game.conftest import play_round
from tests.portal.page_helpers import addresses_off_site

BACK_OFFICE_BRAND = '<a class="brand" href="/">Jinzi Roulette <span>back office</span></a>'
GAME_HEADER = '<header class="game-header">'
GAME_NAV = '<nav class="game-nav" aria-label="Game">'
FOOTER = f"58 Pa. Code § 617b.8 · game engine {jinzi.__version__}"
# Every player page, by the round it may name: ``{table}`` the offering, ``{round}`` a round.
PLAYER_PAGES = (
    "/play/",
    "/play/{table}/",
    "/play/history/",
    "/play/rounds/{round}/",
    "/play/rounds/{round}/replay/",
    "/play/replay/",
)


def _page(client, url: str, offering=None, round_obj=None) -> str:
    address = url.format(table=getattr(offering, "pk", 0), round=getattr(round_obj, "pk", 0))
    response = client.get(address)
    assert response.status_code == 200, address
    return response.content.decode()


def _nav(page: str) -> str:
    match = re.search(r'<nav class="game-nav" aria-label="Game">(.*?)</nav>', page, re.S)
    assert match, "no game navigation"
    return match.group(1)


def _account(page: str) -> str:
    match = re.search(r'<nav class="game-account" aria-label="Account">(.*?)</nav>', page, re.S)
    assert match, "no account menu"
    return match.group(1)


@pytest.fixture
def played(funded_player, live_offering):
    return play_round(funded_player, live_offering, "branding-round-1").round


@pytest.mark.django_db
@pytest.mark.parametrize("url", PLAYER_PAGES)
def test_every_player_page_wears_the_games_frame(client, funded_player, live_offering, played, url):
    client.force_login(funded_player)

    page = _page(client, url, live_offering, played)

    assert '<body class="game-site"' in page
    assert GAME_HEADER in page
    assert 'class="game-logo" src="/static/game/logo.svg" alt=""' in page
    assert '<span class="wordmark">Jinzi Roulette</span>' in page
    assert '<link rel="stylesheet" href="/static/game/brand.css">' in page
    nav = _nav(page)
    for href, label in (
        ("/play/", "Tables"),
        ("/play/history/", "My games"),
        ("/play/replay/", "Replay your last game"),
    ):
        assert re.search(rf'<a href="{href}"[^>]*>{label}</a>', nav), label
    assert '<footer class="game-footer">' in page and FOOTER in page
    # Not the back office: neither its name nor its sections.
    assert "back office" not in page.lower()
    assert BACK_OFFICE_BRAND not in page
    for staff_section in ('href="/compliance/', 'href="/audit/', 'href="/play/rounds/"'):
        assert staff_section not in page, staff_section
    # The frame keeps what every page has: the skip link, the landmarks, the language.
    assert '<html lang="en">' in page
    assert '<a class="skip-link" href="#main">' in page
    assert '<main id="main"' in page


@pytest.mark.django_db
def test_the_replay_page_with_no_game_yet_wears_the_games_frame_too(client, funded_player):
    client.force_login(funded_player)

    page = _page(client, "/play/replay/")

    assert "There is no previous game to replay" in page
    assert GAME_HEADER in page and GAME_NAV in page and FOOTER in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "current"),
    [
        ("/play/", '<a href="/play/" aria-current="page">Tables</a>'),
        ("/play/{table}/", '<a href="/play/" aria-current="true">Tables</a>'),
        ("/play/history/", '<a href="/play/history/" aria-current="page">My games</a>'),
        ("/play/rounds/{round}/", '<a href="/play/history/" aria-current="true">My games</a>'),
        (
            "/play/rounds/{round}/replay/",
            '<a href="/play/history/" aria-current="true">My games</a>',
        ),
        (
            "/play/replay/",
            '<a href="/play/replay/" aria-current="page">Replay your last game</a>',
        ),
    ],
)
def test_the_navigation_marks_where_the_player_is(
    client, funded_player, live_offering, played, url, current
):
    client.force_login(funded_player)

    nav = _nav(_page(client, url, live_offering, played))

    assert current in nav
    assert nav.count("aria-current=") == 1


@pytest.mark.django_db
def test_the_account_menu_offers_security_api_tokens_and_sign_out(client, funded_player):
    client.force_login(funded_player)

    account = _account(_page(client, "/play/"))

    assert '<summary>Account <span class="who">player</span></summary>' in account
    assert '<a href="/accounts/2fa/">Security</a>' in account
    assert '<a href="/accounts/tokens/">API tokens</a>' in account
    assert 'action="/accounts/logout/"' in account and ">Sign out</button>" in account
    assert "Back office" not in account and 'href="/admin/"' not in account


@pytest.mark.django_db
def test_a_player_who_is_also_an_auditor_finds_the_back_office_in_the_account_menu(
    client, funded_player
):
    funded_player.groups.add(Group.objects.get(name=Role.AUDITOR))
    client.force_login(funded_player)

    page = _page(client, "/play/history/")

    assert GAME_HEADER in page
    assert '<a href="/">Back office</a>' in _account(page)


@pytest.mark.django_db
def test_a_bet_spot_is_named_by_the_text_it_shows(client, funded_player, live_offering):
    """WCAG 2.5.3: where a spot's wager label lacks its visible text, the name starts with it."""
    client.force_login(funded_player)

    page = _page(client, "/play/{table}/", live_offering)

    for spot, name in (
        ("small", "1–6: Small"),
        ("big", "7–12: Big"),
        ("column:1-4-7-10", "4 numbers: Column 1-4-7-10"),
        ("red", "Red"),
        ("straight:7", "Straight up 7"),
    ):
        assert re.search(rf'data-spot="{spot}"[^>]*aria-label="{name}" title="{name}"', page), spot


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "url"),
    [
        ("officer", "/compliance/"),
        ("auditor", "/compliance/"),
        ("auditor", "/play/rounds/"),
        ("auditor", "/play/verify/"),
        ("officer", "/play/rounds/"),
        ("auditor", "/audit/"),
    ],
)
def test_staff_pages_keep_the_back_office_frame(client, request, who, url):
    client.force_login(request.getfixturevalue(who))

    response = client.get(url)

    page = response.content.decode()
    assert response.status_code == 200
    assert BACK_OFFICE_BRAND in page
    assert '<header class="site-header">' in page
    assert f'<footer class="site-footer">{FOOTER}</footer>' in page
    assert "<body hx-headers=" in page  # no game class on the body
    for game_frame in ("game-site", GAME_HEADER, "game/brand.css", "game/logo.svg"):
        assert game_frame not in page, game_frame


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["officer", "auditor"])
@pytest.mark.parametrize("url", ["/play/rounds/{round}/", "/play/rounds/{round}/replay/"])
def test_staff_who_open_a_players_round_keep_the_back_office_frame(
    client, request, played, who, url
):
    client.force_login(request.getfixturevalue(who))

    page = _page(client, url, round_obj=played)

    assert f"#{played.pk}" in page
    assert BACK_OFFICE_BRAND in page
    assert 'href="/play/rounds/">Game rounds</a>' in page  # their own navigation
    for game_frame in ("game-site", GAME_HEADER, GAME_NAV, "game/brand.css"):
        assert game_frame not in page, game_frame


def test_the_brand_styles_and_mark_are_files_of_this_site():
    css = finders.find("game/brand.css")
    logo = finders.find("game/logo.svg")
    assert css and logo

    with open(css, encoding="utf-8") as styles:
        rules = styles.read()
    assert addresses_off_site(rules) == [] and "@import" not in rules and "url(" not in rules
    # Everything is scoped to the player pages' body class.
    selectors = re.findall(r"^([^\s@/*}][^{]*)\{", rules, re.M)
    assert selectors and all(s.strip().startswith(".game-site") for s in selectors), selectors
    with open(logo, encoding="utf-8") as mark:
        svg = mark.read()
    # The wheel of § 617b.8(c): 13 compartments, 0 white, six red and six black.
    assert svg.count('fill="#f4f1e8"') == 1
    assert svg.count('fill="#c62828"') == 6 and svg.count('fill="#1c1c1c"') == 6
    assert "<script" not in svg and "style=" not in svg


@pytest.mark.django_db(transaction=True)
@needs_chromium
def test_a_player_sees_the_games_frame_in_a_browser(page, live_server, funded_player):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", funded_player.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/play/")

    header = page.eval_on_selector(".game-header", "e => getComputedStyle(e).backgroundColor")
    assert header == "rgb(10, 74, 51)"  # the felt green of game/brand.css
    assert page.eval_on_selector(".game-logo", "e => e.complete && e.naturalWidth > 0")
    assert page.is_hidden(".account-menu a[href='/accounts/2fa/']")
    page.click(".account-menu summary")
    assert page.is_visible(".account-menu a[href='/accounts/2fa/']")
    page.click("header form[action='/accounts/logout/'] button")
    assert page.url == f"{live_server.url}/"  # signed out, on the home page
    assert page.query_selector(".game-header") is None
