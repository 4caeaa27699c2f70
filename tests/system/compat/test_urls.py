"""Every URL commit 0586113, the last before accounts per holder, mounted, with its name, is
still mounted: bookmarks, links and API clients keep working. New URLs are expected (the
accounts' own pages and API)."""

from __future__ import annotations

import re

import pytest

# A route that names its choices, as the admin's app index does ("auth|accounts|…"): each
# choice is its own address, and adding an app adds one without losing the others.
CHOICES = re.compile(r"\(\?P<\w+>([\w|]+)\)")

pytestmark = pytest.mark.compat


def _listed(urls) -> str:
    return "\n".join(f"  {route}  ({name or 'no name'})" for route, name in sorted(urls)) or "  -"


def _concrete(urls) -> set[tuple[str, str | None]]:
    """``urls`` with each route of named choices spread into one route per choice."""
    spread = set()
    for route, name in urls:
        found = CHOICES.search(route)
        if found is None:
            spread.add((route, name))
            continue
        for choice in found.group(1).split("|"):
            spread |= _concrete({(route[: found.start()] + choice + route[found.end() :], name)})
    return spread


def test_a_route_of_named_choices_is_one_address_per_choice():
    route = "admin/^(?P<app_label>auth|game)/$"
    assert _concrete({(route, "admin:app_list")}) == {
        ("admin/^auth/$", "admin:app_list"),
        ("admin/^game/$", "admin:app_list"),
    }


def test_every_url_mounted_before_accounts_per_holder_is_still_mounted(
    published_before, published_now
):
    then, now = _concrete(published_before.urls), _concrete(published_now.urls)
    assert then, "the previous commit mounted no URL"
    gone = then - now
    assert not gone, (
        f"URLs gone since the previous commit:\n{_listed(gone)}\n"
        f"URLs added (perhaps one of them replaces one gone):\n{_listed(now - then)}"
    )
