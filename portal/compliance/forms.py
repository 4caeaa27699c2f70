"""Portal forms. They only parse what was typed (types, required fields); the services in
``portal.compliance.services`` judge it, and their errors are shown on the fields here.
"""

from __future__ import annotations

from typing import ClassVar

from django import forms

import jinzi
from portal.compliance.artwork import max_artwork_bytes
from portal.compliance.models import SUNSET
from portal.compliance.services import GameListing
from portal.core.errors import ValidationFailed

SUNSET_HELP = (
    f"No later than {SUNSET.isoformat()}: § 617b.8 expires then (55 Pa.B. 4012), "
    "and no approval may outlive it."
)
LISTING_FIELDS = ("paytable", "layout", "chip_unit", "min_wager", "max_wager", "max_round_stake")


def _date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _text_area(rows: int = 3) -> forms.Textarea:
    return forms.Textarea(attrs={"rows": rows})


class ServiceForm(forms.Form):
    """A form whose input a service validates; the service's field errors land on its fields.

    ``holders``: the certificate holders the user must choose from (a superuser drafting
    for a holder); None for users who act for their own holder.
    """

    field_aliases: ClassVar[dict[str, str]] = {}

    def __init__(self, *args, holders=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.chooses_holder = holders is not None
        if self.chooses_holder:
            self.fields["holder"] = forms.ModelChoiceField(
                queryset=holders, label="Certificate holder", empty_label="Choose a holder"
            )
            self.order_fields(["holder"])

    def add_service_errors(self, error: ValidationFailed) -> None:
        if not error.field_errors:
            self.add_error(None, error.message)
            return
        for key, messages in error.field_errors.items():
            field = self.field_aliases.get(key, key)
            self.add_error(field if field in self.fields else None, list(messages))


class RecordChoiceField(forms.ModelChoiceField):
    """A select of versioned records, labelled with version, status and (if asked) holder."""

    show_holder = False

    def label_from_instance(self, obj) -> str:
        text = f"{obj.title_for_display} v{obj.version} ({obj.get_status_display().lower()})"
        return f"{text} · {obj.holder.name}" if self.show_holder else text


class EmptyForm(ServiceForm):
    """Submit and amend take nothing but the click."""


class ReasonForm(ServiceForm):
    reason = forms.CharField(
        required=False, widget=_text_area(), help_text="Recorded in the audit trail."
    )


class LayoutForm(ServiceForm):
    title = forms.CharField(max_length=200)
    wheel_order = forms.CharField(
        label="Wheel order",
        max_length=200,
        initial=jinzi.Wheel.standard().text,
        help_text=(
            "§ 617b.8(c): the 13 numbers 0–12 clockwise from 0, separated by commas; "
            "after 0 they alternate red and black, starting with the colour below."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    # A text field shown as a select: any value posted reaches the service, whose
    # refusal cites § 617b.8(c), rather than Django's generic "not a valid choice".
    first_colour = forms.CharField(
        label="First colour after 0",
        required=False,
        initial=jinzi.Colour.RED.value,
        help_text="§ 617b.8(c): either colour may follow 0; the others alternate from it.",
        widget=forms.Select(
            choices=[(jinzi.Colour.RED.value, "Red"), (jinzi.Colour.BLACK.value, "Black")]
        ),
    )
    signage_text = forms.CharField(label="Signage text", required=False, widget=_text_area(4))
    artwork = forms.FileField(
        required=False,
        help_text=(
            f"§ 601a.10(a): PDF, PNG or SVG, at most {max_artwork_bytes() // (1024 * 1024)} MB. "
            "Needed before the layout can be submitted."
        ),
        widget=forms.FileInput(attrs={"accept": ".pdf,.png,.svg"}),
    )

    def service_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "title": data["title"],
            "wheel_order": data["wheel_order"],
            # Left out when not posted: a new layout is then red first, a draft keeps its own.
            **({"first_colour": data["first_colour"]} if data["first_colour"] else {}),
            "signage_text": data["signage_text"],
            "artwork": data["artwork"],
        }


class LayoutApproveForm(ServiceForm):
    reference_number = forms.CharField(
        label="Bureau reference number",
        required=False,
        max_length=64,
        help_text="§ 601a.10(a): the Bureau of Gaming Operations' reference.",
    )
    effective_date = forms.DateField(required=False, widget=_date_input())
    expiry_date = forms.DateField(required=False, widget=_date_input(), help_text=SUNSET_HELP)
    conditions = forms.CharField(required=False, widget=_text_area())
    reason = forms.CharField(required=False, widget=_text_area())


class PaytableForm(ServiceForm):
    """A name and one odds field per wager kind, accepting "11" or "23/2" (23 to 2)."""

    name = forms.CharField(max_length=200)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in jinzi.WagerKind:
            minimum = jinzi.MINIMUM_ODDS[kind]
            self.fields[kind.value] = forms.CharField(
                label=kind.label,
                max_length=32,
                initial=str(minimum),
                help_text=f"at least {jinzi.format_odds(minimum)}",
                widget=forms.TextInput(
                    attrs={"class": "odds", "autocomplete": "off", "inputmode": "decimal"}
                ),
            )

    def odds_fields(self) -> list[forms.BoundField]:
        return [self[kind] for kind in jinzi.WAGER_KINDS]

    def odds(self) -> dict[str, str]:
        return {kind: self.cleaned_data[kind] for kind in jinzi.WAGER_KINDS}

    def initial_odds(self) -> dict[str, str]:
        return {
            kind: str(self.get_initial_for_field(self.fields[kind], kind))
            for kind in jinzi.WAGER_KINDS
        }

    @staticmethod
    def typed_odds(data) -> dict[str, str]:
        """The odds as typed so far (for the live preview, before the form is complete)."""
        return {kind: (data.get(kind) or "").strip() for kind in jinzi.WAGER_KINDS}


class PaytableApproveForm(ServiceForm):
    reason = forms.CharField(required=False, widget=_text_area())
    override_reason = forms.CharField(
        label="Override reason",
        required=False,
        widget=_text_area(),
        help_text="§ 617b.8(f): required when a house edge is zero or less.",
    )


class RulesSubmissionForm(ServiceForm):
    """The submission and its one listing, Jinzi Roulette; amounts in minor units (cents)."""

    field_aliases: ClassVar[dict[str, str]] = {
        f"games.0.{name}": name for name in (*LISTING_FIELDS, "game")
    }

    title = forms.CharField(max_length=200)
    notes = forms.CharField(required=False, widget=_text_area(4))
    effective_date = forms.DateField(required=False, widget=_date_input())
    expiry_date = forms.DateField(required=False, widget=_date_input(), help_text=SUNSET_HELP)
    paytable = RecordChoiceField(queryset=None, empty_label="Choose a paytable")
    layout = RecordChoiceField(queryset=None, empty_label="Choose a layout")
    chip_unit = forms.IntegerField(
        label="Chip unit (cents)",
        help_text="Even, so the § 617b.8(g) half-back is exact.",
    )
    min_wager = forms.IntegerField(label="Minimum wager per spot (cents)")
    max_wager = forms.IntegerField(label="Maximum wager per spot (cents)")
    max_round_stake = forms.IntegerField(label="Maximum stake per round (cents)")

    def __init__(self, *args, paytables, layouts, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name, queryset in (("paytable", paytables), ("layout", layouts)):
            self.fields[name].queryset = queryset
            self.fields[name].show_holder = self.chooses_holder
        for name in LISTING_FIELDS[2:]:
            self.fields[name].widget.attrs.update({"data-minor-units": "", "inputmode": "numeric"})

    def submission_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("title", "notes", "effective_date", "expiry_date")]

    def record_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in LISTING_FIELDS[:2]]

    def money_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in LISTING_FIELDS[2:]]

    def service_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "title": data["title"],
            "notes": data["notes"],
            "effective_date": data["effective_date"],
            "expiry_date": data["expiry_date"],
            "games": [GameListing(**{name: data[name] for name in LISTING_FIELDS})],
        }


class RulesApproveForm(ServiceForm):
    reason = forms.CharField(required=False, widget=_text_area())


class OfferingForm(ServiceForm):
    name = forms.CharField(max_length=200)
    rules_submission = RecordChoiceField(
        queryset=None, label="Rules submission", empty_label="Choose a rules submission"
    )
    layout = RecordChoiceField(queryset=None, empty_label="Choose a layout")
    paytable = RecordChoiceField(queryset=None, empty_label="Choose a paytable")

    def __init__(self, *args, rules, layouts, paytables, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name, queryset in (
            ("rules_submission", rules),
            ("layout", layouts),
            ("paytable", paytables),
        ):
            self.fields[name].queryset = queryset
            self.fields[name].show_holder = self.chooses_holder

    def service_fields(self) -> dict:
        return {
            name: self.cleaned_data[name]
            for name in ("name", "rules_submission", "layout", "paytable")
        }
