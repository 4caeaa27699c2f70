"""What every section of the expiry report reads: the records, rounds and events loaded
once (a fixed number of queries), and the small helpers they share."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Max, Min

from portal.compliance.models import (
    EFFECTIVE,
    SUNSET,
    Layout,
    ListedGame,
    Offering,
    Paytable,
    RecordStatus,
    RulesSubmission,
    VersionedRecord,
)
from portal.compliance.selectors import offerings_with_parts
from portal.compliance.workflow import RECORD_WORKFLOW, REVIEWED_STATUSES
from portal.core.padates import day_starts, pa_time
from portal.game.models import Round

S = RecordStatus
KINDS: dict[str, type[VersionedRecord]] = {
    "rules_submission": RulesSubmission,
    "layout": Layout,
    "paytable": Paytable,
}
# The version field a round records for each of its offering's parts (§ 810a.11).
ROUND_VERSION = {
    "rules_submission": "rules_version",
    "layout": "layout_version",
    "paytable": "paytable_version",
}
# Fields the report never reads, left in the database (the JSON ones cost most to load).
UNREAD = {
    "rules_submission": ("notes",),
    "layout": ("wheel_order", "signage_text", "artwork", "artwork_sha256"),
    "paytable": ("odds", "edge_override_reason"),
}
APPROVED_EVER = REVIEWED_STATUSES
STILL_APPROVABLE = (S.APPROVED, S.DRAFT, S.SUBMITTED)
# The workflow's steps that begin or end an approval, and the status each leaves.
VERBS = {
    step.verb: RecordStatus(step.target).label.lower()
    for step in (RECORD_WORKFLOW[name] for name in ("approve", "supersede", "expire", "withdraw"))
}
BUCKETS = ("expired", "<= 30 days", "<= 60 days", "<= 90 days", "later")
OTHER = "other statuses"
PERIOD_DAYS = 30
SOON_DAYS = 30
NOON = datetime.timedelta(hours=12)
JOB_RUN = datetime.timedelta(hours=1)  # the job runs once a night and takes seconds


def actions_of(*verbs: str) -> list[str]:
    return [f"{kind}.{verb}" for kind in KINDS for verb in verbs]


def date_text(day: datetime.date | None) -> str | None:
    return day.isoformat() if day else None


def instant_text(at: datetime.datetime | None) -> str | None:
    return pa_time(at).isoformat() if at else None


def kind_name(kind: str) -> str:
    return kind.replace("_", " ")


def record_label(record: VersionedRecord) -> str:
    return f"{kind_name(record.kind)} {record.title_for_display!r} v{record.version}"


def status_label(record: VersionedRecord) -> str:
    """The record's status in the pages' words ("Approved", "Changes requested"): its
    label, never the stored value; lower-case it inside a sentence."""
    return RecordStatus(record.status).label


def holds_until(record: VersionedRecord) -> datetime.date:
    """The first PA date an approval no longer holds: its expiry date, or the sunset
    (reading:open-approval-sunset)."""
    return min(record.expiry_date or SUNSET, SUNSET)


def holds_from(record: VersionedRecord) -> datetime.date:
    return max(record.effective_date or EFFECTIVE, EFFECTIVE)


def subtotal_row(label: str, **values) -> dict:
    return {"row_type": "subtotal", "label": label, **values}


@dataclass
class World:
    """Everything the sections read, loaded once."""

    as_of: datetime.date
    holder_id: int | None
    offering_id: int | None
    offerings: list[Offering]  # the holder's (or all), parts and listings loaded
    shown: list[Offering]  # those the offering filter keeps
    records: list[VersionedRecord]  # the register's versions, in report order
    by_key: dict[tuple[str, int], VersionedRecord]
    games: dict[int, list[ListedGame]]  # rules submission pk → its listings
    groups: list[dict]  # rounds by offering and part versions, up to the end of as_of
    parts: dict[tuple[str, int], VersionedRecord]  # the records those rounds recorded
    day_end: datetime.datetime  # the end of as_of (PA)
    first_day: datetime.date  # the first PA day of the changes' period


def load_world(
    as_of: datetime.date,
    holder_id: int | None,
    offering_id: int | None,
    *,
    first_day: datetime.date | None = None,
) -> World:
    """``first_day``: where the changes' period and the rounds read start (the audit
    report's period); by default the rounds start with the first and the changes cover
    the ``PERIOD_DAYS`` PA days up to ``as_of``."""

    offerings = offerings_with_parts()
    if holder_id is not None:
        offerings = offerings.filter(holder_id=holder_id)
    offerings = list(offerings)
    shown = [o for o in offerings if offering_id in (None, o.pk)]
    records: list[VersionedRecord] = []
    games: dict[int, list[ListedGame]] = defaultdict(list)
    for kind, model in KINDS.items():
        unread = ("author_ids", "decision_reason", *UNREAD[kind])
        found = model.objects.select_related("holder", "decided_by").defer(*unread)
        if holder_id is not None:
            found = found.filter(holder_id=holder_id)
        if offering_id is not None:  # the versions of the offering's three series
            found = found.filter(series__in=[getattr(o, kind).series for o in shown])
        records += found
        if model is RulesSubmission:
            listed = ListedGame.objects.filter(submission__in=found.values("pk"))
            listed = listed.select_related("layout", "paytable").defer(
                *(f"{k}__{field}" for k in ("layout", "paytable") for field in UNREAD[k])
            )
            for game in listed:
                games[game.submission_id].append(game)
    first_of_series = {}
    for record in sorted(records, key=lambda r: r.pk):
        first_of_series.setdefault((record.kind, record.series), record.pk)
    order = list(KINDS)
    records.sort(
        key=lambda r: (
            r.holder.name,
            order.index(r.kind),
            first_of_series[r.kind, r.series],
            r.version,
        )
    )
    by_key = {(r.kind, r.pk): r for r in records}

    day_end = day_starts(as_of + datetime.timedelta(days=1))
    rounds = Round.objects.filter(started_at__lt=day_end)
    if first_day is not None:
        rounds = rounds.filter(started_at__gte=day_starts(first_day))
    if holder_id is not None:
        rounds = rounds.filter(offering__holder_id=holder_id)
    if offering_id is not None:
        rounds = rounds.filter(offering_id=offering_id)
    keys = ["offering_id", *(f"{k}_id" for k in KINDS), *ROUND_VERSION.values()]
    groups = list(
        rounds.values(*keys)
        .annotate(
            rounds=Count("pk"),
            first=Min("started_at"),
            last=Max("started_at"),
            last_end=Max("ended_at"),
        )
        .order_by()
    )
    parts = dict(by_key)
    for kind, model in KINDS.items():  # only when an offering filter hid an older part
        missing = {g[f"{kind}_id"] for g in groups} - {pk for k, pk in parts if k == kind}
        parts.update({(kind, r.pk): r for r in model.objects.filter(pk__in=missing)})
    return World(
        as_of,
        holder_id,
        offering_id,
        offerings,
        shown,
        records,
        by_key,
        games,
        groups,
        parts,
        day_end,
        first_day or as_of - datetime.timedelta(days=PERIOD_DAYS - 1),
    )


# 1. The rule ---------------------------------------------------------------------------
