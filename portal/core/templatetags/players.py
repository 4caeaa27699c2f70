"""``{{ player_id|player_ref }}``: a player as reports name them ("P11",
reading:player-internal-id), for staff pages to show beside a username."""

from __future__ import annotations

from django import template

from portal.core import player_refs

register = template.Library()


@register.filter
def player_ref(player_id: int | None) -> str:
    return "" if player_id is None else player_refs.player_ref(player_id)
