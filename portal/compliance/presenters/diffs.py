"""A version against the approved version of its series that it would supersede: the
fields, odds, wheel, listings and the paragraphs of terms and conditions side by side, each
changed one marked."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.urls import reverse

import jinzi
from portal.compliance.models import (
    Game,
    Layout,
    ListedGame,
    Paytable,
    RulesSubmission,
    TermsAndConditions,
)
from portal.compliance.presenters.edge import edge_report
from portal.compliance.workflow import UNDECIDED_STATUSES
from portal.core.money import dollars

MISSING = "—"


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

    approved: object  # the approved version (a Layout, Paytable, RulesSubmission, …)
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
    return record.status in UNDECIDED_STATUSES


def text_of(value) -> str:
    if value is None or value == "":
        return MISSING
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) if value else MISSING
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _label(model, field: str) -> str:
    name = model._meta.get_field(field).verbose_name
    return name[:1].upper() + name[1:]


def _row(label: str, before, after, group: str = "") -> DiffRow:
    shown_before, shown_after = text_of(before), text_of(after)
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
        return {kind: text_of(stored.get(kind)) for kind in jinzi.WAGER_KINDS}
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


def _artworktext_of(layout: Layout) -> str:
    if not layout.artwork:
        return MISSING
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
            before, after = _artworktext_of(approved), _artworktext_of(record)
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


# A listing's amounts and what its pages call them (the rules page and the comparison alike).
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
        values[label] = dollars(getattr(listing, field))
    return values


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


TERMS_TEXT = "Text players read and accept (§ 811a.3)"
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a plain text: the parts between empty lines."""
    return [part.strip() for part in _PARAGRAPH_BREAK.split(text or "") if part.strip()]


def _terms_rows(approved: TermsAndConditions, record: TermsAndConditions) -> list[DiffRow]:
    """The title, then the text paragraph by paragraph: the paragraphs both versions share
    side by side, each one changed, added or taken out marked."""
    rows = _field_rows(approved, record, ["title"])
    before, after = paragraphs(approved.body), paragraphs(record.body)
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for _tag, i1, i2, j1, j2 in matcher.get_opcodes():
        old, new = before[i1:i2], after[j1:j2]
        for k in range(max(len(old), len(new))):
            was = old[k] if k < len(old) else None
            now = new[k] if k < len(new) else None
            if now is not None:
                label = f"Paragraph {j1 + k + 1}"
            else:
                label = f"Paragraph {i1 + k + 1} of v{approved.version}, taken out"
            rows.append(_row(label, was, now, TERMS_TEXT))
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
    if isinstance(record, TermsAndConditions):
        return RecordDiff(approved, record, tuple(_terms_rows(approved, record)))
    rows = _field_rows(approved, record, type(record).CONTENT_FIELDS)
    return RecordDiff(approved, record, tuple(rows))
