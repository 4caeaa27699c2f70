"""Compliance records against the replay of their audit events (§ 811a.7)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import groupby

from django.core.exceptions import FieldDoesNotExist
from django.db.models import (
    BigIntegerField,
)
from django.db.models.fields.files import FieldFile
from django.db.models.functions import Cast

from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, ListedGame, Offering, Paytable, RulesSubmission
from portal.integrity.records.report import (
    CHUNK,
    RECORDS_CLAUSE,
    ById,
    RecordsReport,
    merged,
)

RECORD_MODELS = (Layout, Paytable, RulesSubmission, Offering)
AUTHORS = "author_ids"
GAMES = "games"


def _label(model) -> str:
    return model.kind.replace("_", " ")


def _subject(record) -> str:
    version = getattr(record, "version", None)
    return f"{_label(type(record))} #{record.pk}" + (f" v{version}" if version else "")


def _shown(value) -> str:
    """A value as a message shows it: JSON, dates in ISO form, long text cut short."""
    if isinstance(value, FieldFile):
        value = value.name or ""
    text = json.dumps(
        value,
        ensure_ascii=False,
        default=lambda v: v.isoformat() if hasattr(v, "isoformat") else str(v),
    )
    return text if len(text) <= 80 else text[:77] + "…"


def _field(model, name: str):
    """The column ``name`` (a field or its attname) of ``model``; None if it has none (a
    column it no longer has, or the listed games: nothing to compare field by field)."""
    try:
        model_field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    return model_field if model_field.concrete else None


def _as_stored(model_field, value):
    """An event's JSON value as the model field holds it (a date, an aware datetime, a
    UUID…), so equal values compare equal whatever their text form."""
    return value if value is None else model_field.to_python(value)


def _games_differences(want, got) -> Iterator[tuple[str, object, object]]:
    """(``games.<game>.<field>``, expected, found) for each listed game's field that
    differs; (``games.<game>``, …) for a game listed on one side only."""
    want = {listing.get("game"): listing for listing in want or []}
    got = {listing.get("game"): listing for listing in got or []}
    for game in sorted({*want, *got}, key=str):
        if game not in want or game not in got:
            yield f"games.{game}", want.get(game), got.get(game)
            continue
        for name in sorted({*want[game], *got[game]}):
            if want[game].get(name) != got[game].get(name):
                yield f"games.{game}.{name}", want[game].get(name), got[game].get(name)


def _differences(model, expected: dict, found: dict) -> Iterator[tuple[str, object, object]]:
    """(field, expected, found) for each field of ``expected`` that ``found`` (a picture of
    the same kind) disagrees with; ``author_ids`` may only have grown."""
    for name, want in expected.items():
        got = found.get(name)
        if name == AUTHORS:
            if not set(want or []) <= set(got or []):
                yield name, want, got
        elif name == GAMES:
            yield from _games_differences(want, got)
        else:
            model_field = _field(model, name)
            if model_field is None:
                continue
            if _as_stored(model_field, want) != _as_stored(model_field, got):
                yield name, want, got


def _stored_picture(record, expected: dict, games) -> dict:
    """The stored row's values of the fields ``expected`` names (a file by its name), and
    a rules submission's listed games."""
    picture = {}
    for name in expected:
        model_field = _field(type(record), name)
        if model_field is not None:
            value = getattr(record, model_field.attname)
            picture[name] = (value.name or "") if isinstance(value, FieldFile) else value
    if games is not None:
        picture[GAMES] = games
    return picture


def _record_events(kind: str) -> Iterator[tuple[int, list[tuple]]]:
    """(record id, its events in order) for every record of ``kind``, by id: the events
    that carry a picture of the row (an offering's opened/closed events carry none)."""
    events = (
        AuditEvent.objects.filter(object_type=kind, after__has_key="id")
        .annotate(record=Cast("object_id", BigIntegerField()))
        .order_by("record", "sequence")
        .values_list("record", "sequence", "action", "object_version", "before", "after")
    )
    rows = events.iterator(chunk_size=CHUNK)
    for record_id, group in groupby(rows, key=lambda row: row[0]):
        yield record_id, list(group)


def _listed_games() -> Iterator[tuple[int, list[dict]]]:
    """(rules submission id, its listed games as its audit picture holds them), by id."""
    names = ListedGame.COPIED_FIELDS
    rows = ListedGame.objects.order_by("submission_id", "pk").values_list("submission_id", *names)
    for submission_id, group in groupby(rows.iterator(chunk_size=CHUNK), key=lambda r: r[0]):
        yield submission_id, [dict(zip(names, row[1:], strict=True)) for row in group]


def check_records(model, report: RecordsReport) -> None:
    label = _label(model)
    records = model.objects.order_by("pk").iterator(chunk_size=CHUNK)
    games = ById(_listed_games()) if model is RulesSubmission else None
    for record, record_id, events in merged(records, _record_events(model.kind)):
        if record is None:
            first = events[0][1]
            report.add(
                "record",
                f"{label} #{record_id}",
                f"{RECORDS_CLAUSE}: its audit events (from #{first}) name a record that is "
                "no longer stored: it was deleted outside the services",
            )
            continue
        report.count(f"{label}s")
        listed = games.get(record.pk, []) if games is not None else None
        if events is None:
            report.add(
                "record",
                _subject(record),
                f"{RECORDS_CLAUSE}: no audit event records it: it was written outside the services",
            )
            continue
        report.count("record events replayed", len(events))
        _replay(record, events, listed, report)


def _replay(record, events: list[tuple], games, report: RecordsReport) -> None:
    model, subject = type(record), _subject(record)
    state, last = None, None
    for _, sequence, action, version, before, after in events:
        if version is not None and getattr(record, "version", version) != version:
            report.add(
                "record",
                subject,
                f"{RECORDS_CLAUSE}: event #{sequence} ({action}) is of version {version}, "
                f"the record is version {record.version}",
            )
        if state is None and before is not None:
            report.add(
                "record",
                subject,
                f"{RECORDS_CLAUSE}: its first event #{sequence} ({action}) found it already "
                "written: it was created outside the services",
            )
        elif state is not None and before is not None:
            for name, want, got in _differences(model, state, before):
                report.add(
                    "record",
                    subject,
                    f"{RECORDS_CLAUSE}: {name} was {_shown(want)} after event #{last[0]} "
                    f"({last[1]}) but {_shown(got)} when event #{sequence} ({action}) "
                    "found it: changed outside the services in between",
                )
        state, last = after, (sequence, action)
    stored = _stored_picture(record, state, games)
    for name, want, got in _differences(model, state, stored):
        report.add(
            "record",
            subject,
            f"{RECORDS_CLAUSE}: {name} is {_shown(got)} but its audit events leave it "
            f"{_shown(want)} (last event #{last[0]}, {last[1]}): changed outside the services",
        )
