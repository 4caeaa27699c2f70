"""Every URL the portal mounts, with its name, is the one commit 73df469 mounted."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.compat


def _listed(urls) -> str:
    return "\n".join(f"  {route}  ({name or 'no name'})" for route, name in sorted(urls)) or "  -"


def test_the_url_list_is_unchanged(published_before, published_now):
    then, now = published_before.urls, published_now.urls
    assert then, "the previous commit mounted no URL"
    assert now == then, (
        f"URLs gone since the previous commit:\n{_listed(then - now)}\n"
        f"URLs added:\n{_listed(now - then)}"
    )
