"""Money as people type and read it. Amounts are integer minor units (cents) everywhere else;
a person types dollars and cents ("2.50", "$1,250.00"), which every app's forms read here, and
reads dollars ("$2.50"), exactly, never through a float."""

from __future__ import annotations

import re

from django import forms

# "25", "25.5", "25.50", "$1,250.00": whole dollars with an optional comma every three
# digits, then at most two digits of cents. Read as text, never as a float.
_DOLLARS = re.compile(r"^\$?\s*(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{0,2}))?$")
AMOUNT_HELP = "In dollars and cents, e.g. 25.00."
AMOUNT_ODD = "Enter an amount in dollars and cents, e.g. 25.00 (at most two digits of cents)."
AMOUNT_ODD_NAMED = (
    "Enter {what} in dollars and cents, like {example} (at most two digits of cents)."
)
MAX_DIGITS = 12  # far above any amount a service accepts; keeps the integer small
MAX_TYPED = 20  # characters


def cents_of(text: str) -> int | None:
    """``"1,234.5"`` → 123450: dollars and cents as typed, to integer cents exactly;
    None when the text is not such an amount."""
    match = _DOLLARS.match(text.strip())
    if match is None:
        return None
    whole = match.group("whole").replace(",", "")
    if len(whole) > MAX_DIGITS:
        return None
    cents = (match.group("cents") or "").ljust(2, "0")
    return int(whole) * 100 + int(cents)


# The minus sign of typeset figures, which the audit trail's values read with ("−$1.00").
MINUS_SIGN = "\u2212"


def _parts(cents: int, minus: str) -> tuple[str, int, int]:
    """The sign, the whole dollars and the cents of an amount."""
    whole, part = divmod(abs(cents), 100)
    return (minus if cents < 0 else ""), whole, part


def dollars(cents, *, minus: str = "-") -> str:
    """Minor units as dollars, exactly: 12345 → "$123.45", 123456789 → "$1,234,567.89",
    -100 → "-$1.00" (never through a float); nothing (None, "") → "". ``minus``: the sign
    a negative amount reads with (``MINUS_SIGN`` in the audit trail: "−$1.00")."""
    if cents is None or cents == "":
        return ""
    sign, whole, part = _parts(int(cents), minus)
    return f"{sign}${whole:,}.{part:02d}"


def typed(cents: int) -> str:
    """Integer cents as a person would type them back: 250 → "2.50", 100000 → "1000.00"."""
    sign, whole, part = _parts(cents, "-")
    return f"{sign}{whole}.{part:02d}"


class MoneyField(forms.Field):
    """An amount people type in dollars and cents; cleaned to integer cents. Whether the
    amount is allowed (at least a cent, within the available balance, a limit, an even
    chip unit) is the service's to say.

    ``what``: the amount in words ("the minimum wager"), so a refusal says which amount to
    type again and how; ``example``: an amount to show how ("2.50")."""

    widget = forms.TextInput(
        attrs={"inputmode": "decimal", "autocomplete": "off", "maxlength": str(MAX_TYPED)}
    )

    def __init__(self, *, what: str = "", example: str = "25.00", **kwargs) -> None:
        kwargs.setdefault("help_text", AMOUNT_HELP)
        super().__init__(**kwargs)
        self.invalid_message = (
            AMOUNT_ODD_NAMED.format(what=what, example=example) if what else AMOUNT_ODD
        )
        if what:
            self.error_messages["required"] = f"Enter {what} in dollars and cents, like {example}."

    def prepare_value(self, value):
        # A stored amount (an initial value in cents) is shown as dollars to type over.
        return typed(value) if type(value) is int else value

    def to_python(self, value):
        text = "" if value is None else str(value).strip()
        if text in self.empty_values:
            return None
        cents = cents_of(text) if len(text) <= MAX_TYPED else None
        if cents is None:
            raise forms.ValidationError(self.invalid_message, code="invalid")
        return cents
