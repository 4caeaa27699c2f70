"""``{% money_nav as nav %}``: the header's links to the players' money pages, as the
access policy answers for the signed-in user: "My account" for players, "Payments" for
those who pay withdrawals, "Player accounts" for staff who see players' accounts, "Voids
and adjustments" for those who see or decide them (§ 617a.6, § 812a.7(a)(9)), and "Game
rounds" for a holder's supervisors (the others who list rounds have it beside the audit
trail)."""

from __future__ import annotations

from django import template

from portal.access.policy import Action, may
from portal.game.corrections.selectors import may_see_corrections

register = template.Library()


@register.simple_tag(takes_context=True)
def money_nav(context) -> dict:
    user = context.get("user")
    return {
        "account": may(user, Action.PLAY),
        "payments": may(user, Action.PAY_OUT),
        "player_accounts": may(user, Action.VIEW_PLAYER_ACCOUNTS),
        "corrections": may_see_corrections(user),
        "holder_rounds": may(user, Action.CORRECT_ROUNDS) and not may(user, Action.VIEW_AUDIT),
        # In the menu for a holder's supervisors; compliance officers and auditors, whose
        # menu is full, reach them from the dashboard.
        "table_checks": may(user, Action.SUSPEND_TABLES) and not may(user, Action.VIEW_AUDIT),
        "complaints": may(user, Action.CORRECT_ROUNDS) and not may(user, Action.VIEW_AUDIT),
    }
