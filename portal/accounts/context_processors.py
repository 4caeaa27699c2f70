"""What every page's frame needs: the game version and the sections the user may open.

Here, not in core, because the sections are the accounts policy's answer.
"""

from __future__ import annotations

from django.http import HttpRequest

import jinzi
from portal.access import policy
from portal.access.policy import Action


def portal(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    return {
        "game_version": jinzi.__version__,
        "nav_compliance": policy.may(user, Action.VIEW),
        "nav_draft": policy.may(user, Action.DRAFT),
        "nav_audit": policy.may(user, Action.VIEW_AUDIT),
        "nav_reports": policy.may(user, Action.VIEW),
        "nav_game": policy.may(user, Action.PLAY),
    }
