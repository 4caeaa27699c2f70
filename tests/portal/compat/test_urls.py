"""Every URL commit 0586113, the last before accounts per holder, mounted, with its name, is
still mounted: bookmarks, links and API clients keep working. New URLs are expected (the
accounts' own pages and API)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.compat


def _listed(urls) -> str:
    return "\n".join(f"  {route}  ({name or 'no name'})" for route, name in sorted(urls)) or "  -"


def test_every_url_mounted_before_accounts_per_holder_is_still_mounted(
    published_before, published_now
):
    then, now = published_before.urls, published_now.urls
    assert then, "the previous commit mounted no URL"
    gone = then - now
    assert not gone, (
        f"URLs gone since the previous commit:\n{_listed(gone)}\n"
        f"URLs added (perhaps one of them replaces one gone):\n{_listed(now - then)}"
    )
