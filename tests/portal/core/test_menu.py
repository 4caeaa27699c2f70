"""The header's menu: a "Menu" button that folds the sections at phone width, named and
wired for assistive technology (aria-expanded, aria-controls on the menu's id), worked by a
script file (the Content-Security-Policy allows no inline script or style); the account's
pages in a small account menu, Sign out beside it."""

from __future__ import annotations

import re

import pytest

from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db
TOGGLE = re.compile(r"<button[^>]*class=\"menu-toggle\"[^>]*>Menu</button>")


def _header(page: str) -> str:
    return page[page.index('<header class="site-header">') : page.index("</header>")]


@pytest.mark.parametrize("role", ["officer", "manager_a", "auditor", "superuser"])
def test_the_menu_button_controls_the_main_navigation(login, request, role):
    header = _header(text(login(request.getfixturevalue(role)).get("/regulation/")))

    button = TOGGLE.search(header)
    assert button, "no Menu button in the header"
    assert 'type="button"' in button.group(0)
    assert 'aria-expanded="false"' in button.group(0)
    controls = re.search(r'aria-controls="([^"]+)"', button.group(0)).group(1)
    assert f'<nav aria-label="Main" id="{controls}"' in header
    # The menu follows its button, so the button opens what comes next.
    assert header.index(button.group(0)) < header.index(f'id="{controls}"')


def test_the_menu_is_worked_by_a_script_file_not_inline_code(login, officer):
    page = text(login(officer).get("/regulation/"))

    assert re.search(r'<script src="/static/core/menu[^"]*\.js" defer></script>', page)
    header = _header(page)
    assert "<script" not in header and " style=" not in header and " onclick" not in header


def test_the_account_pages_are_in_the_account_menu_and_sign_out_beside_it(login, superuser):
    header = _header(text(login(superuser).get("/regulation/")))

    menu = re.search(r'<details class="account-menu">(.*?)</details>', header, re.S).group(1)
    assert '<summary>Account <span class="who">root</span></summary>' in menu
    for link in ('href="/accounts/tokens/"', 'href="/accounts/2fa/"', 'href="/admin/"'):
        assert link in menu, link
    after = header[header.index("</details>") :]
    assert ">Sign out</button>" in after


def test_a_signed_out_visitor_gets_the_same_menu_with_sign_in(client):
    header = _header(text(client.get("/accounts/login/")))

    assert TOGGLE.search(header)
    assert 'href="/accounts/login/"' in header and "account-menu" not in header
