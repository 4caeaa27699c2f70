"""What every page's frame needs: the game version and the sections the user may open.

Here, not in core, because the sections are the accounts policy's answer.
"""

from __future__ import annotations

from django.http import HttpRequest

import jinzi
from portal.access import policy
from portal.access.policy import Action
from portal.core.responsible_gaming import HELP_MESSAGE


def portal(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    plays = policy.may(user, Action.PLAY)
    signed_in = user is not None and user.is_authenticated
    return {
        "game_version": jinzi.__version__,
        # § 814a.1(b): on the sign-in, sign-out and public pages, and every player's.
        "gambling_help": HELP_MESSAGE if plays or not signed_in else "",
        "nav_compliance": policy.may(user, Action.VIEW),
        "nav_draft": policy.may(user, Action.DRAFT),
        "nav_audit": policy.may(user, Action.VIEW_AUDIT),
        "nav_reports": policy.may(user, Action.VIEW),
        "nav_game": plays,
    }
