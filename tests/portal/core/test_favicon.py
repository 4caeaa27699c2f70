"""The site's icon: every page names it, and /favicon.ico (asked for by browsers on their
own) leads to it, so no page load ends in a 404."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_favicon_browsers_ask_for_is_the_sites_icon(client):
    answer = client.get("/favicon.ico")

    assert answer.status_code == 302 and answer["Location"].endswith("/static/core/favicon.svg")


def test_every_page_names_the_icon(client):
    page = client.get("/accounts/login/").content.decode()

    assert 'rel="icon" href="/static/core/favicon.svg"' in page
