"""The forms of the voids and adjustments of rounds: proposing one on the round's record,
and deciding it on its own page. They only read what was typed; the services in
``portal.game.corrections.services`` judge it."""

from __future__ import annotations

from django import forms

from portal.core.forms import ServiceForm
from portal.core.money import MoneyField
from portal.game.corrections.services import MAX_NOTICE, MAX_TEXT

CREDIT, DEBIT = "credit", "debit"
DIRECTION_NEEDED = "Choose whether the player is credited or debited."
AMOUNT_UNSIGNED = (
    "Enter the amount without a sign: whether it is a credit or a debit is chosen above."
)


def _text_box(rows: int = 3) -> forms.Textarea:
    return forms.Textarea(attrs={"rows": rows})


class VoidForm(ServiceForm):
    """§ 617a.6: a settled round found to be a malfunction, proposed void with the reason."""

    reason = forms.CharField(
        label="Why the round is void",
        required=False,
        max_length=MAX_TEXT,
        widget=_text_box(),
        help_text="§ 617a.6: what malfunctioned. Kept with the record and shown to the player.",
    )


class AdjustmentAmountField(MoneyField):
    """The size of an adjustment, always typed as a positive amount: its direction is a
    choice of its own, so a sign typed here is refused rather than guessed."""

    def to_python(self, value):
        text = "" if value is None else str(value).strip()
        if text[:1] in ("-", "+", "\u2212"):
            raise forms.ValidationError(AMOUNT_UNSIGNED, code="signed")
        return super().to_python(value)


class AdjustmentForm(ServiceForm):
    """§ 812a.7(a)(9): the difference owed on a round, credited to or debited from the
    player, with the reason and the notification the player is sent."""

    direction = forms.ChoiceField(
        label="The player is",
        choices=[
            (CREDIT, "Credited: they were paid too little"),
            (DEBIT, "Debited: they were paid too much"),
        ],
        widget=forms.RadioSelect,
        error_messages={"required": DIRECTION_NEEDED, "invalid_choice": DIRECTION_NEEDED},
    )
    amount = AdjustmentAmountField(label="Amount", required=False)
    reason = forms.CharField(
        label="Why",
        required=False,
        max_length=MAX_TEXT,
        widget=_text_box(),
        help_text="The wrong payout or the dispute upheld. Kept with the record and shown "
        "to the player.",
    )
    notice = forms.CharField(
        label="Notification to the player",
        required=False,
        max_length=MAX_NOTICE,
        widget=_text_box(4),
        help_text="§ 812a.7(a)(9): what the player is told about this adjustment, kept as sent.",
    )

    def __init__(self, *args, findings=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # What it rests on (reading:adjustment-grounds): an officer's finding of the round,
        # or the round settling otherwise, which the service checks.
        self.fields["finding"] = forms.TypedChoiceField(
            label="Rests on",
            choices=[("", "The round settling otherwise when settled again")]
            + [(f.pk, finding_label(f)) for f in findings],
            coerce=int,
            empty_value=None,
            required=False,
            help_text="§ 812a.7(a)(9): a credit rests on an upheld dispute (from its complaint) "
            "or a recorded payout error; a debit only on a recorded payout error.",
        )

    def clean(self):
        cleaned = super().clean()
        amount, direction = cleaned.get("amount"), cleaned.get("direction")
        if amount is not None and direction == DEBIT:
            cleaned["amount"] = -amount
        return cleaned


def finding_label(finding) -> str:
    text = finding.text if len(finding.text) <= 80 else finding.text[:79] + "…"
    return f"Finding no. {finding.pk} by {finding.found_by.get_username()}: {text}"


class FindingForm(ServiceForm):
    """A compliance officer's written finding that the round was paid wrongly."""

    text = forms.CharField(
        label="Your finding",
        required=False,
        max_length=MAX_TEXT,
        widget=_text_box(4),
        help_text="What was paid, what should have been, how you found it. An adjustment, "
        "a debit too, may then rest on it (§ 812a.7(a)(9)).",
    )


class DecisionForm(ServiceForm):
    """Approving or rejecting a proposed void or adjustment: one reason box for both."""

    reason = forms.CharField(
        label="Reason",
        required=False,
        max_length=MAX_TEXT,
        widget=_text_box(),
        help_text="Required to reject; optional to approve. Kept with the record, in the "
        "audit trail, and shown to the player.",
    )
