"""``{% money_nav as nav %}``: the header's links to the players' money pages, as the
access policy answers for the signed-in user: "My account" for players, "Payments" for
those who pay withdrawals, "Player accounts" for staff who see players' accounts."""

from __future__ import annotations

from django import template

from portal.access.policy import Action, may

register = template.Library()


@register.simple_tag(takes_context=True)
def money_nav(context) -> dict:
    user = context.get("user")
    return {
        "account": may(user, Action.PLAY),
        "payments": may(user, Action.PAY_OUT),
        "player_accounts": may(user, Action.VIEW_PLAYER_ACCOUNTS),
    }
