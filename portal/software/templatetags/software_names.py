"""``{{ digest|software_name:version }}``: an identity of the game software as pages name it,
"1.4.0 (3f2a9c01b7de)", or "not recorded" when a record holds none."""

from __future__ import annotations

from django import template

from portal.software.installations import identity_name

register = template.Library()


@register.filter
def software_name(digest: str | None, version: str | None = None) -> str:
    return identity_name(digest or "", version)
