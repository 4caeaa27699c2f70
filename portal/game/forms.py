"""The form every game form builds on (the player's account, the payments pages, the voids
and adjustments of rounds): the portal's ``ServiceForm``."""

from __future__ import annotations

from portal.core.forms import ServiceForm

__all__ = ["ServiceForm"]
