"""The exact house edge of a stored paytable and its range of hold, as both the pages and
the API show them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.urls import reverse

import jinzi
from portal.access.policy import Action, may
from portal.compliance import messages as msg
from portal.compliance.models import Game, Layout, ListedGame, Paytable, RulesSubmission
from portal.compliance.services import workflow
from portal.core.padates import pa_time


@dataclass(frozen=True)
class EdgeRow:
    kind: str
    label: str
    odds: str  # "11 to 1"
    spots: int
    edge: str  # exact: "1/26", or "1/26 – 1/13" when the kind's spots differ
    edge_percent: str  # "3.846 %" (rounded for display only)
    lowest: Fraction
    highest: Fraction
    flagged: bool  # some spot has an edge of zero or less


@dataclass(frozen=True)
class HoldBand:
    """The edges of one group of wagers: those not covering 0, or those covering 0."""

    key: str  # "not_covering_zero" or "covering_zero", as in jinzi.HoldRange and the API
    label: str
    note: str
    spots: int
    edge: str  # exact: "1/26", or "-1/26 – 1/26" when the group's spots differ
    edge_percent: str
    lowest: Fraction
    highest: Fraction


@dataclass(frozen=True)
class EdgeReport:
    rows: tuple[EdgeRow, ...]
    # DOMAIN.md "Hold": no single figure, since the hold follows the mix of bets.
    hold_bands: tuple[HoldBand, ...]
    flagged_spots: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        return bool(self.flagged_spots)

    def as_json(self) -> dict:
        return {
            "per_kind": [
                {
                    "kind": row.kind,
                    "label": row.label,
                    "odds": row.odds,
                    "spots": row.spots,
                    "house_edge": row.edge,
                    "house_edge_percent": row.edge_percent,
                    "lowest": str(row.lowest),
                    "highest": str(row.highest),
                    "flagged": row.flagged,
                }
                for row in self.rows
            ],
            "hold_range": {
                band.key: {
                    "label": band.label,
                    "spots": band.spots,
                    "house_edge": band.edge,
                    "house_edge_percent": band.edge_percent,
                    "lowest": str(band.lowest),
                    "highest": str(band.highest),
                }
                for band in self.hold_bands
            },
            "flagged": self.flagged,
            "flagged_spots": list(self.flagged_spots),
        }


def _range(low: Fraction, high: Fraction) -> str:
    return str(low) if low == high else f"{low} – {high}"


def _percent_range(low: Fraction, high: Fraction) -> str:
    if low == high:
        return jinzi.format_percent(low)
    return f"{jinzi.format_percent(low)} – {jinzi.format_percent(high)}"


def _hold_bands(domain: jinzi.Paytable, wheel: jinzi.Wheel | None) -> tuple[HoldBand, ...]:
    spans = jinzi.hold_range(domain, wheel)
    on_zero = sum(w.covers_zero for w in jinzi.legal_wagers())
    bands = []
    for key, label, note, spots in (
        (
            "not_covering_zero",
            "Wagers not covering 0",
            "half back when 0 comes up (§ 617b.8(g)(2))",
            jinzi.SPOT_COUNT - on_zero,
        ),
        (
            "covering_zero",
            "Wagers covering 0",
            "straight 0, splits 0-1, 0-2, 0-3, three numbers",
            on_zero,
        ),
    ):
        low, high = getattr(spans, key)
        edge, percent = _range(low, high), _percent_range(low, high)
        bands.append(HoldBand(key, label, note, spots, edge, percent, low, high))
    return tuple(bands)


def edge_report(paytable: Paytable | jinzi.Paytable, wheel: jinzi.Wheel | None = None):
    """Per kind: odds and exact house edge (from ``jinzi``); the range of hold; flags."""
    domain = paytable.to_domain() if isinstance(paytable, Paytable) else paytable
    rows = tuple(
        EdgeRow(
            kind=row.kind.value,
            label=row.label,
            odds=jinzi.format_odds(row.odds),
            spots=row.spots,
            edge=_range(row.lowest, row.highest),
            edge_percent=_percent_range(row.lowest, row.highest),
            lowest=row.lowest,
            highest=row.highest,
            flagged=row.lowest <= 0,
        )
        for row in jinzi.edge_table(domain, wheel)
    )
    flags = tuple(flag.wager.label for flag in jinzi.paytable_flags(domain, wheel))
    return EdgeReport(
        rows=rows,
        hold_bands=_hold_bands(domain, wheel),
        flagged_spots=flags,
    )


# --- What an amendment changes, and what each audit event changed -------------------------

_MISSING = "—"
_DECIDABLE = ("draft", "submitted", "changes_requested")


@dataclass(frozen=True)
class DiffRow:
    """One field of a record, in the approved version and in this one."""

    label: str
    before: str
    after: str
    changed: bool
    group: str = ""


@dataclass(frozen=True)
class Pocket:
    number: int
    colour: str
    moved: bool  # another number or colour sits here in the other version


@dataclass(frozen=True)
class LayoutSide:
    """One version of a layout, for showing two side by side: its wheel and artwork."""

    caption: str
    pockets: tuple[Pocket, ...]
    first_colour: str
    wheel_error: str
    artwork_url: str  # "" when the version has no artwork
    artwork_is_image: bool
    artwork_alt: str


@dataclass(frozen=True)
class RecordDiff:
    """A version against the approved version of its series it would supersede."""

    approved: object  # the approved version (a Layout, Paytable or RulesSubmission)
    record: object
    rows: tuple[DiffRow, ...]
    sides: tuple[LayoutSide, LayoutSide] | None = None

    @property
    def changed_rows(self) -> int:
        return sum(row.changed for row in self.rows)

    @property
    def unchanged(self) -> bool:
        return not self.changed_rows


def shows_diff(record) -> bool:
    """Whether ``record`` is a version still to be decided (or still being written)."""
    return record.status in _DECIDABLE


def _text(value) -> str:
    if value is None or value == "":
        return _MISSING
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) if value else _MISSING
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _label(model, field: str) -> str:
    name = model._meta.get_field(field).verbose_name
    return name[:1].upper() + name[1:]


def _row(label: str, before, after, group: str = "") -> DiffRow:
    shown_before, shown_after = _text(before), _text(after)
    return DiffRow(label, shown_before, shown_after, shown_before != shown_after, group)


def _field_rows(approved, record, fields) -> list[DiffRow]:
    model = type(record)
    return [
        _row(_label(model, field), getattr(approved, field), getattr(record, field))
        for field in fields
    ]


def _odds_shown(odds) -> dict[str, str]:
    """Each wager kind's odds as "11 to 1"; as stored where the table cannot be read."""
    try:
        table = jinzi.Paytable.of(odds)
    except jinzi.JinziError:
        stored = odds if isinstance(odds, dict) else {}
        return {kind: _text(stored.get(kind)) for kind in jinzi.WAGER_KINDS}
    return {kind.value: jinzi.format_odds(value) for kind, value in table.items()}


def _hold_shown(odds) -> dict[str, tuple[str, str]]:
    try:
        report = edge_report(jinzi.Paytable.of(odds))
    except jinzi.JinziError:
        return {}
    return {
        band.key: (band.label, f"{band.edge} ≈ {band.edge_percent}") for band in report.hold_bands
    }


def _paytable_rows(approved: Paytable, record: Paytable) -> list[DiffRow]:
    rows = _field_rows(approved, record, [f for f in Paytable.CONTENT_FIELDS if f != "odds"])
    before, after = _odds_shown(approved.odds), _odds_shown(record.odds)
    group = "Odds (§ 617b.8(f))"
    rows += [
        _row(jinzi.WagerKind(kind).label, before[kind], after[kind], group)
        for kind in jinzi.WAGER_KINDS
    ]
    hold_before, hold_after = _hold_shown(approved.odds), _hold_shown(record.odds)
    for key in ("not_covering_zero", "covering_zero"):
        label = (hold_after.get(key) or hold_before.get(key) or (key, ""))[0]
        rows.append(
            _row(
                label,
                hold_before.get(key, ("", None))[1],
                hold_after.get(key, ("", None))[1],
                "Range of hold (house edge)",
            )
        )
    return rows


def _artwork_text(layout: Layout) -> str:
    if not layout.artwork:
        return _MISSING
    return f"{layout.artwork_content_type} · SHA-256 {layout.artwork_sha256[:16]}…"


def _pockets(layout: Layout, other: Layout) -> tuple[tuple[Pocket, ...], str, str]:
    """The wheel's compartments in order, each marked where ``other`` differs there."""
    try:
        wheel = layout.wheel()
    except jinzi.JinziError as error:
        return (), "", str(error)
    try:
        other_wheel = other.wheel()
        theirs = [(n, other_wheel.color(n).value) for n in other_wheel.order]
    except jinzi.JinziError:
        theirs = []
    ours = [(n, wheel.color(n).value) for n in wheel.order]
    pockets = tuple(
        Pocket(number, colour, index >= len(theirs) or theirs[index] != (number, colour))
        for index, (number, colour) in enumerate(ours)
    )
    return pockets, wheel.first.value, ""


def _layout_side(layout: Layout, other: Layout, caption: str) -> LayoutSide:
    pockets, first, error = _pockets(layout, other)
    has_artwork = bool(layout.artwork)
    return LayoutSide(
        caption=caption,
        pockets=pockets,
        first_colour=first,
        wheel_error=error,
        artwork_url=reverse("compliance:layout-artwork", args=[layout.pk]) if has_artwork else "",
        artwork_is_image=has_artwork and layout.artwork_content_type != "application/pdf",
        artwork_alt=f"Artwork of {layout.title} v{layout.version}",
    )


def _layout_rows(approved: Layout, record: Layout) -> list[DiffRow]:
    artwork_fields = ("artwork", "artwork_sha256", "artwork_content_type")
    rows = []
    for field in Layout.CONTENT_FIELDS:
        if field == "artwork":
            before, after = _artwork_text(approved), _artwork_text(record)
            same = all(getattr(approved, f) == getattr(record, f) for f in artwork_fields[1:])
            rows.append(DiffRow("Artwork", before, after, not same))
        elif field in artwork_fields:
            continue  # shown in the artwork row: the file's content is what counts
        elif field == "wheel_order":
            rows.append(_row("Wheel order (§ 617b.8(c))", approved.wheel_order, record.wheel_order))
        elif field == "first_colour":
            rows.append(_row("First colour after 0", approved.first_colour, record.first_colour))
        else:
            rows += _field_rows(approved, record, [field])
    return rows


LISTING_AMOUNTS = (
    ("chip_unit", "Chip unit"),
    ("min_wager", "Minimum wager per spot"),
    ("max_wager", "Maximum wager per spot"),
    ("max_round_stake", "Maximum stake per round"),
)


def _listing_values(listing) -> dict[str, str]:
    if listing is None:
        return {}
    values = {
        "Paytable": f"{listing.paytable.name} v{listing.paytable.version}",
        "Layout": f"{listing.layout.title} v{listing.layout.version}",
    }
    for field, label in LISTING_AMOUNTS:
        cents = getattr(listing, field)
        values[label] = f"{_dollars(cents)} ({cents} cents)"
    return values


def _dollars(minor_units: int) -> str:
    return f"${Decimal(minor_units) / 100:,.2f}"


def _listings(submission: RulesSubmission) -> dict[str, ListedGame]:
    games = submission.games.select_related("paytable", "layout")
    return {listing.game: listing for listing in games}


def _rules_rows(approved: RulesSubmission, record: RulesSubmission) -> list[DiffRow]:
    rows = _field_rows(approved, record, RulesSubmission.CONTENT_FIELDS)
    before, after = _listings(approved), _listings(record)
    names = dict(Game.choices)
    for game in sorted({*before, *after}):
        old, new = _listing_values(before.get(game)), _listing_values(after.get(game))
        group = f"{names.get(game, game)} listing (§ 601a.2)"
        if not old or not new:
            rows.append(_row("Listed", "yes" if old else "no", "yes" if new else "no", group))
        for label in dict.fromkeys([*old, *new]):
            rows.append(_row(label, old.get(label), new.get(label), group))
    return rows


def record_diff(record, approved) -> RecordDiff:
    """``record`` field by field against ``approved``, the version it would supersede."""
    if isinstance(record, Paytable):
        return RecordDiff(approved, record, tuple(_paytable_rows(approved, record)))
    if isinstance(record, Layout):
        sides = (
            _layout_side(approved, record, f"Approved v{approved.version}"),
            _layout_side(record, approved, f"This version, v{record.version}"),
        )
        return RecordDiff(approved, record, tuple(_layout_rows(approved, record)), sides)
    if isinstance(record, RulesSubmission):
        return RecordDiff(approved, record, tuple(_rules_rows(approved, record)))
    rows = _field_rows(approved, record, type(record).CONTENT_FIELDS)
    return RecordDiff(approved, record, tuple(rows))


@dataclass(frozen=True)
class FieldChange:
    """One value an audit event changed: where it sits in the record's picture, and its
    value before and after."""

    field: str  # "status", "odds.straight", "games[0].chip_unit"
    before: str
    after: str


_USER_FIELDS = ("created_by_id", "submitted_by_id", "decided_by_id", "actor_id")


def _flatten(picture, prefix: str = "") -> dict[str, object]:
    """A picture's values by path: dicts and lists of dicts open up, other lists stay whole."""
    if isinstance(picture, dict):
        flat: dict[str, object] = {}
        for key, value in picture.items():
            flat.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(picture, list) and any(isinstance(item, dict) for item in picture):
        flat = {}
        for index, item in enumerate(picture):
            flat.update(_flatten(item, f"{prefix}[{index}]"))
        return flat
    return {prefix: picture}


def _user_ids(pictures) -> set[int]:
    ids: set[int] = set()
    for picture in pictures:
        for key, value in picture.items():
            if key in _USER_FIELDS and isinstance(value, int):
                ids.add(value)
            elif key == "author_ids" and isinstance(value, list):
                ids.update(v for v in value if isinstance(v, int))
    return ids


def _instant(value: str) -> str:
    """A stored instant (ISO 8601, UTC) in Pennsylvania time with its zone (DOMAIN.md 2a)."""
    try:
        instant = datetime.datetime.fromisoformat(value)
    except ValueError:
        return value
    if instant.tzinfo is None:
        return value
    return pa_time(instant).strftime("%Y-%m-%d %H:%M:%S %Z")


def _shown(path: str, value, usernames: dict[int, str]) -> str:
    if path.endswith("_at") and isinstance(value, str) and value:
        return _instant(value)
    if path in _USER_FIELDS and isinstance(value, int):
        return usernames.get(value, f"user #{value}")
    if path == "author_ids" and isinstance(value, list):
        return ", ".join(usernames.get(v, f"user #{v}") for v in value) or _MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _text(value)


def history_rows(events) -> list[dict]:
    """Each audit event with the values it changed, before and after (an event without a
    before picture, such as a creation, changed nothing that existed)."""
    events = list(events)
    pictures = [p for e in events for p in (e.before, e.after) if isinstance(p, dict)]
    ids = _user_ids(pictures)
    users = get_user_model().objects.filter(pk__in=ids) if ids else []
    usernames = {user.pk: user.get_username() for user in users}
    rows = []
    for event in events:
        before, after = event.before or {}, event.after or {}
        changes = []
        if before:
            flat_before, flat_after = _flatten(before), _flatten(after)
            for path in sorted({*flat_before, *flat_after}):
                old, new = flat_before.get(path), flat_after.get(path)
                if old != new:
                    changes.append(
                        FieldChange(
                            path, _shown(path, old, usernames), _shown(path, new, usernames)
                        )
                    )
        changed = sorted({change.field.split(".")[0].split("[")[0] for change in changes})
        rows.append({"event": event, "changes": changes, "changed": changed})
    return rows


@dataclass(frozen=True)
class DecisionRefusal:
    """Why a user may not decide a version, shown where the decision panel would be."""

    reason: str
    rule: str = ""  # the rule's own words (four-eyes), when one applies


def _carried_from(record, user, versions) -> int | None:
    """The earlier version whose authorship ``record`` carries on and ``user`` shares, if
    any: an amendment of a version never approved keeps its authors (``workflow.amend``)."""
    previous = next((v for v in versions if v.version == record.version - 1), None)
    if previous is None or previous.status in workflow.REVIEWED_STATUSES:
        return None
    authors = (
        type(record)
        .objects.filter(pk=previous.pk)
        .values_list("created_by_id", "submitted_by_id", "author_ids")
        .first()
    )
    if authors is None or user.pk not in {authors[0], authors[1], *(authors[2] or [])}:
        return None
    return previous.version


def _own_work_reason(record, user, versions) -> str:
    did = []
    if record.created_by_id == user.pk:
        did.append("created")
    carried = None
    if user.pk in record.author_ids and user.pk not in (
        record.created_by_id,
        record.submitted_by_id,
    ):
        carried = _carried_from(record, user, versions)
        if carried is None:
            did.append("edited")
    if record.submitted_by_id == user.pk:
        did.append("submitted")
    parts = [f"{' and '.join(did)} this version"] if did else []
    if carried is not None:
        parts.append(f"wrote v{carried}, never approved, whose content this version carries on")
    return f"You {', and '.join(parts)}: another officer must decide it (four-eyes)."


def decision_refusal(user, record, versions) -> DecisionRefusal | None:
    """Why ``user`` may not approve, reject or send back ``record`` now, or None if they
    may (``versions``: its series, newest first). Nothing is said to a user whose role
    never decides, unless the version awaits a decision."""
    submitted = record.status == "submitted"
    if not may(user, Action.DECIDE, record):
        if not submitted:
            return None
        return DecisionRefusal(
            "Your role does not approve, reject or send back records: a compliance officer "
            "who did not write this version decides it."
        )
    if not submitted:
        status = record.get_status_display().lower()
        if record.status == "draft":
            reason = f"v{record.version} is a draft: it is decided once it is submitted."
        elif record.status == "changes_requested":
            reason = (
                "Changes were requested: the holder amends it into a new version, which is "
                "decided once submitted."
            )
        else:
            reason = f"This version is {status}: nothing is left to decide."
        return DecisionRefusal(reason)
    kind = record.kind.replace("_", " ")
    authors = {record.created_by_id, record.submitted_by_id, *record.author_ids}
    if user.pk in authors:
        return DecisionRefusal(
            _own_work_reason(record, user, versions), msg.FOUR_EYES.format(kind=kind)
        )
    if workflow.set_password_of_author(record, user) or workflow.shares_a_password_setter(
        record, user
    ):
        return DecisionRefusal(
            "A password one of you did not choose links you to an author of this version: "
            "another officer must decide it (four-eyes).",
            msg.FOUR_EYES_PASSWORD_SETTER.format(kind=kind),
        )
    return None
