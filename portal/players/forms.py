"""The players' forms: they read what was typed; the services judge it (``ServiceForm``)."""

from __future__ import annotations

from django import forms

from portal.compliance.models import CertificateHolder
from portal.core.forms import ServiceForm
from portal.players.models import ExclusionPeriod, ListKind, ReviewOutcome, VerificationMethod


class RegisterForm(ServiceForm):
    holder = forms.TypedChoiceField(
        label="Casino to open your account with", coerce=int, choices=()
    )
    given_names = forms.CharField(label="Given names", max_length=200)
    surname = forms.CharField(label="Surname", max_length=200)
    date_of_birth = forms.CharField(
        label="Date of birth", help_text="Like 1990-04-21. You must be 21 or older."
    )
    address = forms.CharField(label="Residential address", widget=forms.Textarea(attrs={"rows": 3}))
    email = forms.CharField(label="Email address", max_length=254)
    telephone = forms.CharField(label="Telephone", max_length=30)
    ssn_last4 = forms.CharField(
        label="Last four digits of your Social Security number (optional)",
        required=False,
        max_length=10,
    )
    username = forms.CharField(label="Username", max_length=150)
    password = forms.CharField(label="Password", widget=forms.PasswordInput)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["holder"].choices = [("", "Choose a casino")] + [
            (holder.pk, holder.name) for holder in CertificateHolder.objects.order_by("name")
        ]


class VerifyForm(ServiceForm):
    method = forms.ChoiceField(
        label="How the identity was verified",
        choices=[(m.value, m.label) for m in VerificationMethod if m != VerificationMethod.SETUP],
        widget=forms.RadioSelect,
    )
    document_reference = forms.CharField(label="Reference of the document checked", max_length=200)


class SelfExcludeForm(ServiceForm):
    period = forms.ChoiceField(
        label="Exclude me for", choices=ExclusionPeriod.choices, widget=forms.RadioSelect
    )
    confirmed = forms.BooleanField(
        label="I understand that this cannot be undone or shortened, and that I will not be "
        "able to deposit or play at any casino in this portal until it ends.",
        required=False,
    )


class ListImportForm(ServiceForm):
    kind = forms.ChoiceField(
        label="What the file is", choices=ListKind.choices, widget=forms.RadioSelect
    )
    file = forms.FileField(label="The Board's list file (CSV)")


class ReviewForm(ServiceForm):
    outcome = forms.ChoiceField(
        label="Decision", choices=ReviewOutcome.choices, widget=forms.RadioSelect
    )
    note = forms.CharField(label="How you decided", widget=forms.Textarea(attrs={"rows": 2}))
