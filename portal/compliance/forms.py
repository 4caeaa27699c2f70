"""Portal forms. They only parse what was typed (types, required fields); the services in
``portal.compliance.services`` judge it, and their errors are shown on the fields here.
Where a service's input check can run before anything is written (dates, a listing, odds,
the § 617b.8 sunset refusal of a new rules submission or offering), ``clean()`` runs that
same check, so every error is shown at once, each once, on its field (a refusal about no
one field, as the form's own error).
"""

from __future__ import annotations

from typing import ClassVar

from django import forms
from django.urls import reverse

import jinzi
from portal.compliance import messages as msg
from portal.compliance.artwork import max_artwork_bytes
from portal.compliance.dates import check_dates
from portal.compliance.models import SUNSET, Game, ListedGame, TermsAndConditions
from portal.compliance.services.offerings import refuse_new_offering_after_sunset
from portal.compliance.services.rules import (
    MAX_MINOR_UNITS,
    GameListing,
    check_games,
    refuse_new_submission_after_sunset,
)
from portal.core.errors import Conflict, ValidationFailed
from portal.core.forms import ServiceForm as BaseServiceForm
from portal.core.money import MoneyField, dollars
from portal.core.validation import plain_required

SUNSET_HELP = (
    f"No later than {SUNSET.isoformat()}: § 617b.8 expires then (55 Pa.B. 4012), "
    "and no approval may outlive it."
)
LISTING_FIELDS = ("paytable", "layout", "chip_unit", "min_wager", "max_wager", "max_round_stake")
NOT_LISTED = (
    "§ 601a.2, § 617b.8(a): {submission} does not list Jinzi Roulette with this {what}; "
    "choose the {what} it lists"
)
LISTED_HELP = "§ 601a.2: only the {what} the chosen rules submission lists."

# The listing's amounts: typed in dollars, stored in cents. The service judges them; its
# refusals are worded here for the person who typed them (``RulesSubmissionForm``).
AMOUNT_WORDS = {
    "chip_unit": "the chip unit",
    "min_wager": "the minimum wager per spot",
    "max_wager": "the maximum wager per spot",
    "max_round_stake": "the maximum stake per round",
}
CHIP_UNIT_ODD_PLAIN = (
    "§ 617b.8(g): enter a chip unit of an even number of cents, like 1.00 or 0.50, so that "
    "half of every stake is exact; {value} is an odd number of cents"
)
LIMIT_NOT_MULTIPLE_PLAIN = (
    "Enter {what} as a whole number of chips of {chip} (the chip unit); {value} is not"
)
LIMITS_ORDER_PLAIN = (
    "Enter the amounts in order: the minimum wager at least the chip unit, the maximum wager "
    "at least the minimum, and the maximum stake per round at least the maximum wager"
)
AMOUNT_RANGE_PLAIN = "Enter {what} from $0.01 to {maximum}"

# Odds the game cannot read, in the words of the person typing them.
ODDS_UNREADABLE_PLAIN = (
    "Enter the odds for {label} as a whole number like 11 (for 11 to 1) or a fraction "
    "like 23/2 (for 23 to 2)"
)
ODDS_TOO_LARGE_PLAIN = "Enter odds for {label} below {limit:,} to 1"


def plain_odds_error(kind: jinzi.WagerKind, error: jinzi.JinziError) -> str:
    """The game's refusal of the odds typed for ``kind``, for the person who typed them: a
    rule of § 617b.8 as the game words it, with its clause; odds it cannot read, as how to
    write them."""
    if not isinstance(error, jinzi.InvalidPaytable):
        return str(error)
    if str(error).startswith(f"odds for {kind.label} must be below"):
        return ODDS_TOO_LARGE_PLAIN.format(label=kind.label, limit=jinzi.paytable.MAX_ODDS)
    return ODDS_UNREADABLE_PLAIN.format(label=kind.label)


def _date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _text_area(rows: int = 3) -> forms.Textarea:
    return forms.Textarea(attrs={"rows": rows})


class ServiceForm(BaseServiceForm):
    """A record's form: the service's field errors land on its fields.

    ``holders``: the certificate holders the user must choose from (a superuser drafting
    for a holder); None for users who act for their own holder.
    """

    def __init__(self, *args, holders=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.chooses_holder = holders is not None
        if self.chooses_holder:
            self.fields["holder"] = forms.ModelChoiceField(
                queryset=holders, label="Certificate holder", empty_label="Choose a holder"
            )
            self.order_fields(["holder"])
            plain_required(self.fields)

    def run_check(self, check, *args) -> None:
        """Run one of the services' input checks from ``clean()``, so its errors are shown
        with the form's own, all at once, rather than only once the form is otherwise valid.
        The service runs the same check again when it writes."""
        try:
            check(*args)
        except ValidationFailed as error:
            self.add_service_error(error)
        except Conflict as error:
            self.add_error(None, error.message)


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


FIRST_COLOUR_PLAIN = (
    "§ 617b.8(c): choose red or black as the first colour after 0; the others alternate from it"
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

    def add_service_error(self, error: ValidationFailed) -> None:
        """Only red or black is offered after 0; any other value posted is refused, as
        § 617b.8(c) says, in the words of the choice on the page."""
        if "first_colour" in error.field_errors:
            fields = {**error.field_errors, "first_colour": [FIRST_COLOUR_PLAIN]}
            error = ValidationFailed(FIRST_COLOUR_PLAIN, field_errors=fields)
        super().add_service_error(error)

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
                error_messages={
                    "required": f"Enter the odds for {kind.label}, at least "
                    f"{jinzi.format_odds(minimum)}"
                },
                # Odds are typed as "11" or "23/2": a phone's decimal keypad has no "/".
                widget=forms.TextInput(
                    attrs={"class": "odds", "autocomplete": "off", "inputmode": "text"}
                ),
            )

    def clean(self) -> dict:
        data = super().clean()
        minimum = jinzi.Paytable.minimum().as_dict()
        for kind in jinzi.WagerKind:
            if kind.value not in data:
                continue  # already refused by the field itself (required, too long)
            # Checked against the minimum table's other odds, jinzi's message names this
            # wager only, and it lands on this wager's field.
            try:
                jinzi.Paytable.from_dict({**minimum, kind.value: data[kind.value]})
            except jinzi.JinziError as error:
                self.add_error(kind.value, plain_odds_error(kind, error))
        return data

    def odds_errors(self) -> list[tuple[str, str]]:
        """Every odds error, as (wager, message), in the order of the odds fields."""
        return [
            (str(self.fields[kind].label), error)
            for kind in jinzi.WAGER_KINDS
            for error in self.errors.get(kind, ())
        ]

    def odds_fields(self) -> list[forms.BoundField]:
        return [self[kind] for kind in jinzi.WAGER_KINDS]

    def odds_have_errors(self) -> bool:
        return any(self.has_error(kind) for kind in jinzi.WAGER_KINDS)

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
    # The fingerprint of the wagers acknowledged at an edge of zero or less: the decision
    # panel's own checkbox sends it (reading:edge-acknowledgement).
    edge_acknowledged = forms.CharField(required=False, widget=forms.HiddenInput)


class TermsForm(ServiceForm):
    """A holder's terms and conditions for players (§ 811a.3): a title and the plain text
    players read and accept. The service judges both (required, their lengths)."""

    # The lengths are the service's to judge, in its words; the browser is told the title's.
    title = forms.CharField(
        widget=forms.TextInput(attrs={"maxlength": TermsAndConditions.MAX_TITLE}),
        error_messages={"required": msg.TERMS_TITLE_REQUIRED},
    )
    body = forms.CharField(
        label="Text players read and accept",
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "true"}),
        help_text=(
            f"Plain text, at most {TermsAndConditions.MAX_BODY:,} characters: it is shown to "
            "players with its line breaks, never as HTML. Leave an empty line between "
            "paragraphs. Players acknowledge the approved version before their first deposit "
            "or round with the holder (§ 812a.5)."
        ),
        error_messages={"required": msg.TERMS_BODY_REQUIRED},
    )

    def service_fields(self) -> dict:
        return {"title": self.cleaned_data["title"], "body": self.cleaned_data["body"]}


class TermsApproveForm(ServiceForm):
    reason = forms.CharField(required=False, widget=_text_area())


class RulesSubmissionForm(ServiceForm):
    """The submission and its one listing, Jinzi Roulette; amounts typed in dollars ("2.50"),
    kept in cents. ``creating``: a new submission, refused once § 617b.8 has expired."""

    field_aliases: ClassVar[dict[str, str]] = {
        f"games.0.{name}": name for name in (*LISTING_FIELDS, "game")
    }

    title = forms.CharField(max_length=200)
    notes = forms.CharField(required=False, widget=_text_area(4))
    effective_date = forms.DateField(required=False, widget=_date_input())
    expiry_date = forms.DateField(required=False, widget=_date_input(), help_text=SUNSET_HELP)
    paytable = RecordChoiceField(queryset=None, empty_label="Choose a paytable")
    layout = RecordChoiceField(queryset=None, empty_label="Choose a layout")
    chip_unit = MoneyField(
        label="Chip unit ($)",
        what=AMOUNT_WORDS["chip_unit"],
        example="1.00",
        help_text="In dollars, like 1.00: an even number of cents, so the § 617b.8(g) "
        "half-back is exact.",
    )
    min_wager = MoneyField(
        label="Minimum wager per spot ($)",
        what=AMOUNT_WORDS["min_wager"],
        example="2.00",
        help_text="In dollars, like 2.00.",
    )
    max_wager = MoneyField(
        label="Maximum wager per spot ($)",
        what=AMOUNT_WORDS["max_wager"],
        example="500.00",
        help_text="In dollars, like 500.00.",
    )
    max_round_stake = MoneyField(
        label="Maximum stake per round ($)",
        what=AMOUNT_WORDS["max_round_stake"],
        example="2000.00",
        help_text="In dollars, like 2000.00.",
    )

    def __init__(self, *args, paytables, layouts, creating=False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creating = creating
        for name, queryset in (("paytable", paytables), ("layout", layouts)):
            self.fields[name].queryset = queryset
            self.fields[name].show_holder = self.chooses_holder

    def add_service_error(self, error: ValidationFailed) -> None:
        """The service's refusals of the listing's amounts, in the dollars typed."""
        plain = {
            key: [self._plain(key.removeprefix("games.0."), message) for message in messages]
            for key, messages in error.field_errors.items()
        }
        super().add_service_error(ValidationFailed(error.message, field_errors=plain))

    def _plain(self, field: str, message: str) -> str:
        if field not in AMOUNT_WORDS:
            return message
        data = self.cleaned_data
        what = AMOUNT_WORDS[field]
        value, chip = data.get(field), data.get("chip_unit")
        if message == msg.LIMITS_ORDER:
            return LIMITS_ORDER_PLAIN
        if message.startswith(f"{field} must be a whole number of minor units"):
            return AMOUNT_RANGE_PLAIN.format(what=what, maximum=dollars(MAX_MINOR_UNITS))
        if not isinstance(value, int) or not isinstance(chip, int):
            return message
        if field == "chip_unit" and message == msg.CHIP_UNIT_ODD.format(value=chip):
            return CHIP_UNIT_ODD_PLAIN.format(value=dollars(chip))
        if message == msg.LIMIT_NOT_MULTIPLE.format(field=field, chip=chip, value=value):
            return LIMIT_NOT_MULTIPLE_PLAIN.format(
                what=what, chip=dollars(chip), value=dollars(value)
            )
        return message

    def clean(self) -> dict:
        data = super().clean()
        if self.creating:
            self.run_check(refuse_new_submission_after_sunset)
        dates = ("effective_date", "expiry_date")
        if not any(self.has_error(name) for name in dates):
            self.run_check(check_dates, *(data.get(name) for name in dates))
        if all(name in data for name in LISTING_FIELDS):
            listing = GameListing(**{name: data[name] for name in LISTING_FIELDS})
            holder = data.get("holder")
            # A manager's selects hold only their own holder's records.
            holder_id = holder.pk if holder is not None else listing.paytable.holder_id
            if not (self.chooses_holder and holder is None):
                self.run_check(check_games, [listing], holder_id)
        return data

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
    edge_acknowledged = forms.CharField(required=False, widget=forms.HiddenInput)


class OfferingForm(ServiceForm):
    """An offering's name and parts. Once a rules submission is chosen, the layout and
    paytable selects hold only what it lists (§ 601a.2); anything else is refused on its
    field. ``creating``: a new offering, refused once § 617b.8 has expired."""

    name = forms.CharField(max_length=200)
    rules_submission = RecordChoiceField(
        queryset=None, label="Rules submission", empty_label="Choose a rules submission"
    )
    layout = RecordChoiceField(
        queryset=None, empty_label="Choose a layout", help_text=LISTED_HELP.format(what="layout")
    )
    paytable = RecordChoiceField(
        queryset=None,
        empty_label="Choose a paytable",
        help_text=LISTED_HELP.format(what="paytable"),
    )

    def __init__(self, *args, rules, layouts, paytables, creating=False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creating = creating
        for name, queryset in (
            ("rules_submission", rules),
            ("layout", layouts),
            ("paytable", paytables),
        ):
            self.fields[name].queryset = queryset
            self.fields[name].show_holder = self.chooses_holder
        self.fields["rules_submission"].widget.attrs.update(
            {
                "hx-get": reverse("compliance:offering-listed"),
                "hx-trigger": "change",
                "hx-target": "#listed-choices",
                "hx-swap": "innerHTML",
                "hx-include": "#id_layout, #id_paytable",
                "hx-indicator": "#listed-choices",
            }
        )
        self.submission = self._chosen_submission(rules)
        if self.submission is not None:
            self._narrow_to_listing(self.submission)

    def _chosen_submission(self, rules):
        field = self.add_prefix("rules_submission")
        value = self.data.get(field) if self.is_bound else self.initial.get("rules_submission")
        value = getattr(value, "pk", value)
        if not str(value or "").isdigit():
            return None
        return rules.filter(pk=int(value)).first()

    def _narrow_to_listing(self, submission) -> None:
        """Offer, and accept, only the layout and paytable ``submission`` lists."""
        listed = ListedGame.objects.filter(submission=submission, game=Game.JINZI_ROULETTE)
        label = f"rules submission “{submission.title}” v{submission.version}"
        for name in ("layout", "paytable"):
            field = self.fields[name]
            field.queryset = field.queryset.filter(pk__in=listed.values(f"{name}_id"))
            field.error_messages["invalid_choice"] = NOT_LISTED.format(submission=label, what=name)
            if not self.is_bound:
                chosen = self.initial.get(name)
                offered = list(field.queryset.values_list("pk", flat=True))
                if getattr(chosen, "pk", chosen) not in offered:
                    # What was chosen before is not listed; the only listed one is the choice.
                    self.initial[name] = offered[0] if len(offered) == 1 else None

    def clean(self) -> dict:
        data = super().clean()
        if self.creating:
            self.run_check(refuse_new_offering_after_sunset)
        holder = data.get("holder")
        if holder is not None:
            for name in ("rules_submission", "layout", "paytable"):
                record = data.get(name)
                if record is not None and record.holder_id != holder.pk:
                    kind = name.replace("_", " ")
                    self.add_error(name, msg.OTHER_HOLDERS_RECORD.format(kind=kind))
        return data

    def service_fields(self) -> dict:
        return {
            name: self.cleaned_data[name]
            for name in ("name", "rules_submission", "layout", "paytable")
        }
