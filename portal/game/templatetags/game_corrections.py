"""``{{ round|round_state }}``: a round's state after its voids and adjustments ("Complete",
"Void", "Adjusted"), from the annotations the lists read with the rounds;
``{{ cents|credit_debit }}``: a correction's amount as the player's credit or debit."""

from __future__ import annotations

from django import template

from portal.core.money import dollars
from portal.game.corrections.presenters import state_word

register = template.Library()

register.filter("round_state", state_word)


@register.filter
def credit_debit(cents) -> str:
    """12345 → "credit of $123.45", -500 → "debit of $5.00", 0 → "nothing either way"."""
    if cents is None or cents == "":
        return ""
    cents = int(cents)
    if cents == 0:
        return "nothing either way"
    return f"credit of {dollars(cents)}" if cents > 0 else f"debit of {dollars(-cents)}"
