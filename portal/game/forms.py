"""The forms of the player's account, the payments pages and the voids and adjustments of
rounds. They only read what was typed (an amount in dollars and cents, a choice, a
reference, a reason); the services in ``portal.game.funds``, ``portal.game.limits`` and
``portal.game.corrections`` judge it, and a refusal is shown on the field it names
(``add_service_error``).
"""

from __future__ import annotations

from django import forms

from portal.core.errors import DomainError, ValidationFailed
from portal.core.lists import PeriodForm
from portal.core.money import AMOUNT_ODD, MoneyField, cents_of
from portal.core.validation import plain_required
from portal.game import corrections, funds
from portal.game.limits import LimitKind
from portal.game.models import AccountStatus


class ServiceForm(forms.Form):
    """A form whose input a service judges: its refusal lands on the field it names, or
    on the form as a whole."""

    field_aliases: dict[str, str] = {}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        plain_required(self.fields)

    def add_service_error(self, error: DomainError) -> None:
        fields = error.field_errors if isinstance(error, ValidationFailed) else {}
        if not fields:
            self.add_error(None, error.message)
            return
        for key, messages in fields.items():
            field = self.field_aliases.get(key, key)
            self.add_error(field if field in self.fields else None, list(messages))


def _choices(members) -> list[tuple[str, str]]:
    return [(str(member.value), str(member.label)) for member in members]


class AccountChoiceField(forms.TypedChoiceField):
    """One of the player's own accounts; a posted id of anyone else's passes here, so the
    service answers it (as not found) rather than the form."""

    def __init__(self, **kwargs) -> None:
        super().__init__(coerce=int, **kwargs)

    def valid_value(self, value) -> bool:
        return str(value).isdigit()


# The player's forms ------------------------------------------------------------------------


class DepositForm(ServiceForm):
    """§ 812a.7(a): a deposit by one of the methods the player may use, with its reference."""

    holder = forms.TypedChoiceField(label="Certificate holder", coerce=int)
    amount = MoneyField(label="Amount")
    method = forms.ChoiceField(label="Method")
    reference = forms.CharField(
        label="Payment reference",
        required=False,
        max_length=funds.MAX_REFERENCE,
        help_text="The card, transfer or voucher reference your payment shows.",
    )

    def __init__(self, *args, holders=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["holder"].choices = [(holder.pk, holder.name) for holder in holders]
        self.fields["method"].choices = _choices(funds.player_methods())


class WithdrawForm(ServiceForm):
    """§ 812a.10: an amount held from play at once, for the holder to pay."""

    account = AccountChoiceField(
        label="From the account with",
        error_messages={"required": "Choose the account to withdraw from"},
    )
    amount = MoneyField(label="Amount")

    def __init__(self, *args, accounts=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["account"].choices = [(a.pk, a.holder.name) for a in accounts]


class CancelForm(ServiceForm):
    withdrawal = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class LimitForm(ServiceForm):
    """§ 814a.2: one limit; an amount in dollars, the time limit in minutes, or nothing."""

    account = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    kind = forms.ChoiceField(
        label="Limit", choices=[(k.value, k.label.capitalize()) for k in LimitKind]
    )
    value = forms.CharField(
        label="New value",
        required=False,
        max_length=20,
        help_text="Dollars and cents, or minutes for the daily time limit; "
        "leave empty for no limit.",
    )

    def clean(self):
        cleaned = super().clean()
        kind, text = cleaned.get("kind"), (cleaned.get("value") or "").strip()
        if kind is None:
            return cleaned
        if not text:
            cleaned["value"] = None
        elif LimitKind(kind).in_minutes:
            if not text.isdigit() or len(text) > 6:
                self.add_error("value", "Enter the daily time limit in whole minutes.")
            else:
                cleaned["value"] = int(text)
        elif (cents := cents_of(text)) is None:
            self.add_error("value", AMOUNT_ODD)
        else:
            cleaned["value"] = cents
        return cleaned


class ConfirmLimitForm(ServiceForm):
    account = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    kind = forms.ChoiceField(choices=[(k.value, k.label.capitalize()) for k in LimitKind])


class PauseForm(ServiceForm):
    """§ 814a.2: the player's own time out from play with one holder."""

    account = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    length = forms.IntegerField(
        label="For",
        min_value=1,
        max_value=720,
        error_messages={"required": "Enter how many hours or days the break lasts"},
    )
    unit = forms.ChoiceField(label="Unit", choices=[("hours", "hours"), ("days", "days")])


# The payments staff's forms ----------------------------------------------------------------


class PayForm(ServiceForm):
    field_aliases = {"reference": "payout_reference"}
    payout_reference = forms.CharField(
        label="Payout reference",
        max_length=funds.MAX_REFERENCE,
        required=False,
        help_text="§ 812a.10: the transfer, cheque or receipt number of the payment.",
    )


class RefuseForm(ServiceForm):
    reason = forms.CharField(
        label="Reason",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Shown to the player and kept with the record.",
    )


class RecordDepositForm(ServiceForm):
    """§ 812a.7(a): money handed over at the holder, recorded by its payments staff."""

    amount = MoneyField(label="Amount")
    method = forms.ChoiceField(label="Method", choices=_choices(funds.STAFF_METHODS))
    reference = forms.CharField(
        label="Reference",
        required=False,
        max_length=funds.MAX_REFERENCE,
        help_text="The receipt, cheque or promotion number.",
    )


class StatusForm(ServiceForm):
    """§ 812a.12 suspension, § 812a.6 self-exclusion (the Board's list), or reopening."""

    status = forms.ChoiceField(
        label="Set the account to",
        choices=AccountStatus.choices,
        error_messages={"required": "Choose what to set the account to"},
    )
    reason = forms.CharField(
        label="Reason",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Kept with the record and shown to the player.",
    )


# Voids and adjustments of settled rounds (§ 617a.6, § 812a.7(a)(9)) -----------------------

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
        max_length=corrections.MAX_TEXT,
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
        max_length=corrections.MAX_TEXT,
        widget=_text_box(),
        help_text="The wrong payout or the dispute upheld. Kept with the record and shown "
        "to the player.",
    )
    notice = forms.CharField(
        label="Notification to the player",
        required=False,
        max_length=corrections.MAX_NOTICE,
        widget=_text_box(4),
        help_text="§ 812a.7(a)(9): what the player is told about this adjustment, kept as sent.",
    )

    def clean(self):
        cleaned = super().clean()
        amount, direction = cleaned.get("amount"), cleaned.get("direction")
        if amount is not None and direction == DEBIT:
            cleaned["amount"] = -amount
        return cleaned


class DecisionForm(ServiceForm):
    """Approving or rejecting a proposed void or adjustment: one reason box for both."""

    reason = forms.CharField(
        label="Reason",
        required=False,
        max_length=corrections.MAX_TEXT,
        widget=_text_box(),
        help_text="Required to reject; optional to approve. Kept with the record, in the "
        "audit trail, and shown to the player.",
    )


# Statements --------------------------------------------------------------------------------


class StatementForm(PeriodForm):
    """§ 812a.11: any period, as Pennsylvania dates, both ends included."""

    since = forms.DateField(
        label="From", required=False, widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
    until = forms.DateField(
        label="To", required=False, widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
