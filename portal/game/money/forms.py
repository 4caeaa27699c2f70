"""The forms of the player's account, the payments pages and statements. They only read
what was typed (an amount in dollars and cents, a choice, a reference, a reason); the
services in ``portal.game.money.services`` judge it, and a refusal is shown on the field it
names (``ServiceForm.add_service_error``)."""

from __future__ import annotations

from django import forms

from portal.core.forms import ServiceForm
from portal.core.lists import PeriodForm
from portal.core.money import AMOUNT_ODD, MoneyField, cents_of
from portal.game.models import AccountStatus
from portal.game.money.limits import LimitKind
from portal.game.money.services.accounts import MAX_REFERENCE
from portal.game.money.services.deposits import STAFF_METHODS, player_methods


def _choices(members) -> list[tuple[str, str]]:
    return [(str(member.value), str(member.label)) for member in members]


class AccountChoiceField(forms.TypedChoiceField):
    """One of the player's own accounts; a posted id of anyone else's passes here, so the
    service answers it (as not found) rather than the form."""

    def __init__(self, **kwargs) -> None:
        super().__init__(coerce=int, **kwargs)

    def valid_value(self, value) -> bool:
        return str(value).isdigit()


class DepositForm(ServiceForm):
    """§ 812a.7(a): a deposit by one of the methods the player may use, with its reference."""

    holder = forms.TypedChoiceField(label="Certificate holder", coerce=int)
    amount = MoneyField(label="Amount")
    method = forms.ChoiceField(label="Method")
    reference = forms.CharField(
        label="Payment reference",
        required=False,
        max_length=MAX_REFERENCE,
        help_text="The card, transfer or voucher reference your payment shows.",
    )

    def __init__(self, *args, holders=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["holder"].choices = [(holder.pk, holder.name) for holder in holders]
        self.fields["method"].choices = _choices(player_methods())


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


class SessionChoicesForm(ServiceForm):
    """The player's choices about their sessions (§ 814a.1, § 812a.3(a)(5))."""

    notice_minutes = forms.TypedChoiceField(
        label="Show me my time and money played every",
        choices=[(15, "15 minutes"), (30, "30 minutes"), (60, "60 minutes")],
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Choose 15, 30 or 60 minutes"},
    )
    tell_every_access = forms.BooleanField(
        label="Tell me, in the portal and by email, each time someone signs in to my account",
        required=False,
    )


class PayForm(ServiceForm):
    field_aliases = {"reference": "payout_reference"}
    payout_reference = forms.CharField(
        label="Payout reference",
        max_length=MAX_REFERENCE,
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
    method = forms.ChoiceField(label="Method", choices=_choices(STAFF_METHODS))
    reference = forms.CharField(
        label="Reference",
        required=False,
        max_length=MAX_REFERENCE,
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


class StatementForm(PeriodForm):
    """§ 812a.11: any period, as Pennsylvania dates, both ends included."""

    since = forms.DateField(
        label="From", required=False, widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
    until = forms.DateField(
        label="To", required=False, widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
