"""Asking for a report run: which report, and its parameters. One form for the Reports page
and the reports API.

Each report takes its own parameters (``Definition.parameters``), read as its definition
reads them (``definitions.clean``: the same reading and the same messages whoever asks, the
page, the API or the schedule). They are cleaned here, once: the run service takes the
form's ``parameters`` (``definitions.Cleaned``) as they are. The page's fields are the
parameters people choose; the API's body gives any of a report's parameters, and a
parameter the report does not take is refused.

Money is typed in dollars and cents on the page ("10000.00", read by the portal's one
reading of typed amounts, ``portal.core.money.cents_of``) and given in cents to the API,
which speaks cents everywhere; the definition receives cents either way. A manager's form
offers their own holder only (the service refuses any other)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.choices import CallableChoiceIterator

from portal.accounts.models import CertificateHolder
from portal.core.errors import ValidationFailed
from portal.core.money import MAX_TYPED, cents_of
from portal.core.padates import pa_today
from portal.reports import definitions

# The parameters people type in dollars and cents on the page (cents in the API's body).
MONEY_PARAMETERS = ("win_threshold",)
MONEY_ODD = "Enter an amount in dollars and cents, e.g. 10000.00 (at most two digits of cents)."
MONEY_LOW = "Enter an amount of at least $0.01."


def _holders():
    yield "", "All certificate holders"
    yield from CertificateHolder.objects.order_by("name").values_list("pk", "name")


def _own_holder(holder_id: int):
    def choices():
        yield from CertificateHolder.objects.filter(pk=holder_id).values_list("pk", "name")

    return choices


def _day(label: str) -> forms.Field:
    return forms.Field(required=False, label=label, widget=forms.DateInput({"type": "date"}))


class ReportForm(forms.Form):
    """A report and its parameters. Valid, ``cleaned_data["kind"]`` is the report and
    ``parameters`` its parameters, read; refused, ``refusal`` says why, as the service
    would (the API answers with it), and the form's errors hold it field by field.

    The fields take what they are given as it is (text from the page, JSON values from the
    API): only the report's definition reads them."""

    kind = forms.Field(
        required=False,
        label="Report",
        widget=forms.Select(choices=CallableChoiceIterator(definitions.page_kinds)),
    )
    as_of = _day("As of (Pennsylvania date; expiry report)")
    start = _day("From gaming day (audit report)")
    end = _day("To gaming day (audit report; yesterday if blank)")
    day = _day("Gaming day (player account summary; yesterday if blank)")
    win_threshold = forms.Field(
        required=False,
        label="Big win from (dollars; audit report)",
        help_text="In dollars and cents, e.g. 10000.00; $10,000.00 if blank.",
        widget=forms.TextInput({"inputmode": "decimal", "placeholder": "10000.00"}),
    )
    holder = forms.Field(
        required=False,
        label="Certificate holder",
        widget=forms.Select(choices=CallableChoiceIterator(_holders)),
    )

    def __init__(
        self, data=None, *, body: bool = False, holder: int | None = None, **kwargs
    ) -> None:
        """``holder``: the one holder this person's reports are about (a manager's own)."""
        kwargs.setdefault("auto_id", "%s")
        kwargs.setdefault("label_suffix", "")
        if data is None:
            kwargs.setdefault("initial", {"as_of": pa_today().isoformat()})
        super().__init__(data, **kwargs)
        if holder is not None:
            self.fields["holder"].widget = forms.Select(
                choices=CallableChoiceIterator(_own_holder(holder))
            )
            self.fields["holder"].help_text = "Your certificate holder's reports."
            self.initial["holder"] = holder
        self.body = body
        self.parameters: dict[str, Any] = {}
        self.refusal: ValidationFailed | None = None

    @classmethod
    def from_body(cls, kind: str, parameters: Any) -> ReportForm:
        """The API's body: the report and its parameters object."""
        return cls({"kind": kind, "parameters": parameters}, body=True)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        kind = self.data.get("kind", "")
        typed: dict[str, list[str]] = {}  # amounts typed wrong on the page, by field
        try:
            taken = definitions.definition(kind).parameters
            if self.body:
                given = self.data.get("parameters", {})
            else:
                # From the page: the report's own fields; the other reports' are left out.
                given = {name: self.data.get(name, "") for name in taken if name in self.fields}
                given = self._money_in_cents(given, typed)
            self.parameters = definitions.clean(kind, given)
            if typed:
                raise ValidationFailed(" ".join(sum(typed.values(), [])), field_errors={})
        except ValidationFailed as error:
            # Every refusal at once: the amounts typed wrong and the definition's own.
            self.parameters = {}
            errors = {**(error.field_errors or {}), **typed}
            if not errors:
                errors = {None: [error.message]}
            every = " ".join(m for messages in errors.values() for m in messages)
            self.refusal = ValidationFailed(every, field_errors=errors)
            for field, messages in errors.items():
                self.add_error(field if field in self.fields else None, messages)
        return cleaned

    @staticmethod
    def _money_in_cents(given: dict[str, Any], typed: dict[str, list[str]]) -> dict[str, Any]:
        """The amounts typed in dollars and cents, as the cents the definition reads; one
        typed wrong is left out and its error kept in ``typed``, so the definition still
        judges the rest."""
        for name in MONEY_PARAMETERS:
            text = str(given.get(name) or "").strip()
            if name not in given or not text:
                continue
            cents = cents_of(text) if len(text) <= MAX_TYPED else None
            if cents is None or cents < 1:
                typed[name] = [MONEY_ODD if cents is None else MONEY_LOW]
                given.pop(name)
                continue
            given[name] = cents
        return given
