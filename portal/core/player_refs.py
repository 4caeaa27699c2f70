"""How the portal names a player where a name would not do (reading:player-internal-id):
by the internal id reports use, "P11", never by name or username. Pseudonymous, yet it leads
back to the account for those allowed to look; staff pages show it beside the username so
a page and a report can be matched."""

from __future__ import annotations

PLAYER_PREFIX = "P"  # before a player's internal id


def player_ref(player_id: int) -> str:
    """The player's name in reports and exports: "P" and their internal id."""
    return f"{PLAYER_PREFIX}{player_id}"
