"""The expiry report: what each approval's expiry and § 617b.8's sunset take down, as of a date.

A pure read (no files, no Celery): ``expiry_report`` returns the document of
``portal.reports.document`` (§ 811a.9: title, software and definition versions, holder,
period, generation time, column titles, subtotals and totals, filters, "No Activity").

Sections, in order:
1. ``rule``: § 617b.8's life, effective 2025-06-14, sunset 2028-06-14 (DOMAIN.md 2a).
2. ``approvals``: every layout (§ 601a.10), paytable (§ 617b.8(f)) and rules submission
   (§ 601a.2) version; its stored status against the status its dates imply on ``as_of``.
3. ``offerings``: live or not on ``as_of`` (DOMAIN.md §3), when each goes dark, its rounds.
4. ``changes``: approvals, supersessions, expiries and withdrawals (the audit trail,
   § 811a.7) and the game availability log (§ 811a.7(f)) over the report's period.
5. ``stuck``: drafts and submissions that can no longer be approved, and layout reviews
   past § 601a.10(a)'s 15 days.
6. ``job``: when the midnight expiry job last ran and what it changed.
7. ``violations``: rounds (§ 810a.11) played while a part of their offering did not hold.

Readings of this report (each is also a note in the document):
- every date is a Pennsylvania date (``portal.core.padates``), ``as_of`` included;
- the period of ``changes`` is the 30 PA days up to and including ``as_of``;
- liveness is asked at noon of ``as_of`` (PA): ``offering_is_live`` reads only the PA date,
  and noon lies inside that date even on the days the clocks change;
- an approval without an expiry date holds until the sunset;
- rounds and audit events after the end of ``as_of`` are left out.

It runs a fixed number of queries whatever the number of rows: 11, one more with a holder
filter, one more once the expiry job has run (its last run is a second read). Rounds are
aggregated in the database, one row per offering and part versions.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from django.db.models import Count, Max, Min
from django.utils import timezone

import jinzi
import portal
from portal.accounts.models import CertificateHolder
from portal.audit.models import AuditEvent
from portal.compliance.models import (
    EFFECTIVE,
    SUNSET,
    AvailabilityChange,
    Layout,
    ListedGame,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
    VersionedRecord,
)
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.core.padates import UTC, day_starts, pa_time
from portal.game.models import Round
from portal.reports.document import column, section

DEFINITION_VERSION = "1"
TITLE = "Expiry report"
ALL_HOLDERS = "All certificate holders"

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
STATUS_LABELS = {value: label.lower() for value, label in RecordStatus.choices}
APPROVED_EVER = (S.APPROVED, S.SUPERSEDED, S.EXPIRED, S.WITHDRAWN)
OPEN = (S.DRAFT, S.SUBMITTED)
STILL_APPROVABLE = (S.APPROVED, S.DRAFT, S.SUBMITTED)
VERBS = {
    "approve": "approved",
    "supersede": "superseded",
    "expire": "expired",
    "withdraw": "withdrawn",
}
BUCKETS = ("expired", "<= 30 days", "<= 60 days", "<= 90 days", "later")
OTHER = "other statuses"
PERIOD_DAYS = 30
SOON_DAYS = 30
NOON = datetime.timedelta(hours=12)
JOB_RUN = datetime.timedelta(hours=1)  # the job runs once a night and takes seconds


def _actions(*verbs: str) -> list[str]:
    return [f"{kind}.{verb}" for kind in KINDS for verb in verbs]


def _date(day: datetime.date | None) -> str | None:
    return day.isoformat() if day else None


def _instant(at: datetime.datetime | None) -> str | None:
    return pa_time(at).isoformat() if at else None


def _what(kind: str) -> str:
    return kind.replace("_", " ")


def _label(record: VersionedRecord) -> str:
    return f"{_what(record.kind)} {record.title_for_display!r} v{record.version}"


def _status(record: VersionedRecord) -> str:
    return STATUS_LABELS[record.status]


def _end(record: VersionedRecord) -> datetime.date:
    """The first PA date an approval no longer holds: its expiry date, or the sunset."""
    return min(record.expiry_date or SUNSET, SUNSET)


def _start(record: VersionedRecord) -> datetime.date:
    return max(record.effective_date or EFFECTIVE, EFFECTIVE)


def _subtotal(label: str, **values) -> dict:
    return {"row_type": "subtotal", "label": label, **values}


@dataclass
class _World:
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


def _load(as_of: datetime.date, holder_id: int | None, offering_id: int | None) -> _World:
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
    return _World(
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
    )


# 1. The rule ---------------------------------------------------------------------------


def _rule(w: _World) -> dict:
    row = {
        "effective": _date(EFFECTIVE),
        "sunset": _date(SUNSET),
        "as_of": _date(w.as_of),
        "in_force": jinzi.in_force(w.as_of),
        "days_left": max((SUNSET - w.as_of).days, 0),
    }
    columns = [
        column("effective", "Effective", "date"),
        column("sunset", "Sunset", "date"),
        column("as_of", "As of", "date"),
        column("in_force", "In force on that date", "boolean"),
        column("days_left", "Days left to the sunset", "integer"),
    ]
    notes = [
        "§ 617b.8 is temporary: it applies from 00:00 Pennsylvania time on 2025-06-14 up to, "
        "not including, 00:00 on 2028-06-14 (DOMAIN.md 2a). At the sunset every offering "
        "stops taking bets and nothing approved under it holds."
    ]
    return section("rule", "§ 617b.8: effective date and sunset", columns, [row], notes=notes)


# 2. The approvals register -------------------------------------------------------------


def _implied(record: VersionedRecord, as_of: datetime.date) -> str:
    """The status the dates imply on ``as_of`` (approved or expired records); else stored."""
    if record.status not in (S.APPROVED, S.EXPIRED):
        return _status(record)
    if as_of >= _end(record):
        return "lapsed"
    if as_of < _start(record):
        return "not yet in force"
    return "in force"


def _mismatch(record: VersionedRecord, implied: str) -> str:
    if record.status == S.APPROVED and implied == "lapsed":
        return f"stored approved, but it lapsed on {_end(record)}: the expiry job has not run"
    if record.status == S.EXPIRED and implied != "lapsed":
        return f"stored expired, but its dates hold until {_end(record)}"
    return ""


def _bucket(days: int) -> str:
    if days == 0:
        return "expired"
    return next((f"<= {n} days" for n in (30, 60, 90) if days <= n), "later")


def _summary(counts: Counter) -> str:
    parts = [f"{b} {counts[b]}" for b in (*BUCKETS, OTHER) if counts[b]]
    return f"versions {sum(counts.values())}: " + ", ".join(parts)


def _superseders(records: list[VersionedRecord]) -> dict[tuple[str, int], str]:
    """Each superseded version → the version whose approval superseded it (the next
    version of its series that was approved)."""
    series = defaultdict(list)
    for record in records:
        series[record.kind, record.series].append(record)
    found = {}
    for versions in series.values():
        versions.sort(key=lambda r: r.version)
        for i, old in enumerate(versions):
            if old.status == S.SUPERSEDED:
                new = next((r for r in versions[i + 1 :] if r.status in APPROVED_EVER), None)
                found[old.kind, old.pk] = f"v{new.version}" if new else ""
    return found


def _approvals(w: _World) -> dict:
    users = defaultdict(list)
    for offering in w.offerings:
        for kind in KINDS:
            users[kind, getattr(offering, f"{kind}_id")].append(offering.name)
    superseded_by = _superseders(w.records)
    rows, total = [], Counter()
    for holder, records in groupby(w.records, key=lambda r: r.holder.name):
        counts = Counter()
        for r in records:
            implied = _implied(r, w.as_of)
            dated = r.status in (S.APPROVED, S.EXPIRED)
            days = max((_end(r) - w.as_of).days, 0) if dated else None
            bucket = _bucket(days) if dated else ""
            counts[bucket or OTHER] += 1
            rows.append(
                {
                    "kind": _what(r.kind),
                    "holder": holder,
                    "series": str(r.series)[:8],
                    "version": r.version,
                    "title": r.title_for_display,
                    "status": _status(r),
                    "status_on_date": implied,
                    "flag": _mismatch(r, implied),
                    "effective": _date(r.effective_date),
                    "expiry": _date(_end(r)) if dated else _date(r.expiry_date),
                    "expiry_basis": "sunset" if dated and not r.expiry_date else "",
                    "days_left": days,
                    "bucket": bucket,
                    "decided_by": r.decided_by.username if r.decided_by else "",
                    "decided_at": _instant(r.decided_at),
                    "reference": getattr(r, "reference_number", ""),
                    "conditions": getattr(r, "conditions", ""),
                    "superseded_by": superseded_by.get((r.kind, r.pk), ""),
                    "offerings": ", ".join(users[r.kind, r.pk]),
                }
            )
        rows.append(_subtotal(holder, bucket=_summary(counts)))
        total += counts
    columns = [
        column("kind", "Kind"),
        column("holder", "Certificate holder"),
        column("series", "Series"),
        column("version", "Version", "integer"),
        column("title", "Title / name"),
        column("status", "Stored status"),
        column("status_on_date", "Status its dates imply"),
        column("flag", "Flag", "flag"),
        column("effective", "Effective", "date"),
        column("expiry", "Expiry", "date"),
        column("expiry_basis", "Expiry from"),
        column("days_left", "Days left", "integer"),
        column("bucket", "Bucket"),
        column("decided_by", "Decided by"),
        column("decided_at", "Decided at", "datetime"),
        column("reference", "Reference number"),
        column("conditions", "Conditions"),
        column("superseded_by", "Superseded by"),
        column("offerings", "Offerings on it"),
    ]
    notes = [
        f"Stored status is the record's status when the report ran; the implied status is "
        f"what its dates (PA dates) say on {w.as_of}: an approval holds from its effective "
        f"date up to, not including, its expiry date, and never on or after the sunset.",
        "An approval without an expiry date (paytables carry none) holds until the sunset "
        "2028-06-14: its expiry shows the sunset and 'Expiry from' says 'sunset'.",
        "Days left run from the as-of date to the expiry (never negative); buckets: "
        + ", ".join(BUCKETS)
        + f". Records that are neither approved nor expired have no bucket ({OTHER}).",
        "Flags: a stored approval whose dates have lapsed (the midnight expiry job has not "
        "run since), or a stored expiry whose dates still hold.",
    ]
    return section(
        "approvals",
        "Approvals register",
        columns,
        rows,
        totals={"bucket": _summary(total)} if rows else None,
        notes=notes,
    )


# 3. Offerings --------------------------------------------------------------------------


def _rounds_by_offering(groups: list[dict]) -> dict[int, tuple[int, datetime.datetime]]:
    played: dict[int, tuple[int, datetime.datetime]] = {}
    for g in groups:
        count, last = played.get(g["offering_id"], (0, g["last_end"]))
        played[g["offering_id"]] = (count + g["rounds"], max(last, g["last_end"]))
    return played


def _offerings(w: _World) -> dict:
    at = day_starts(w.as_of) + NOON
    played = _rounds_by_offering(w.groups)
    rows, total = [], Counter()
    shown = sorted(w.shown, key=lambda o: (o.holder.name, o.name, o.pk))
    for holder, offerings in groupby(shown, key=lambda o: o.holder.name):
        counts = Counter()
        for o in offerings:
            liveness = offering_is_live(o, at=at)
            part = min((getattr(o, kind) for kind in KINDS), key=_end)
            dark = _end(part)
            dark_by = "the sunset" if dark == SUNSET else _label(part)
            active = o.status == OfferingStatus.ACTIVE
            flags = []
            if active and not liveness.live:
                flags.append("active but not live")
            if liveness.live and (dark - w.as_of).days <= SOON_DAYS:
                flags.append(f"live with a part expiring within {SOON_DAYS} days")
            if active and w.as_of >= SUNSET:
                flags.append("active after the sunset")
            rounds, last = played.get(o.pk, (0, None))
            counts.update(offerings=1, live=int(liveness.live), rounds=rounds)
            rows.append(
                {
                    "holder": holder,
                    "name": o.name,
                    "status": o.get_status_display().lower(),
                    "live": liveness.live,
                    "reasons": "; ".join(liveness.reasons),
                    "goes_dark": _date(dark),
                    "dark_by": dark_by,
                    "rounds": rounds,
                    "last_round_ended": _instant(last),
                    "flag": "; ".join(flags),
                }
            )
        rows.append(_subtotal(holder, **_offering_totals(counts)))
        total += counts
    columns = [
        column("holder", "Certificate holder"),
        column("name", "Offering"),
        column("status", "Status"),
        column("live", "Live on the date", "boolean"),
        column("reasons", "Why not live"),
        column("goes_dark", "Goes dark on", "date"),
        column("dark_by", "Because of"),
        column("rounds", "Rounds played", "integer"),
        column("last_round_ended", "Last round ended", "datetime"),
        column("flag", "Flag", "flag"),
    ]
    notes = [
        f"Live is asked of offering_is_live at noon of {w.as_of}, Pennsylvania time; it "
        "reads only the PA date, so the answer holds for the whole day (DOMAIN.md §3, 2a).",
        "Goes dark on: the earliest expiry among the offering's rules submission, layout and "
        "paytable approvals, or the sunset 2028-06-14.",
        f"Rounds: those started before the end of {w.as_of} (PA).",
    ]
    totals = _offering_totals(total) if rows else None
    return section("offerings", "Offerings", columns, rows, totals=totals, notes=notes)


def _offering_totals(counts: Counter) -> dict:
    return {
        "name": f"offerings {counts['offerings']}, live {counts['live']}",
        "rounds": counts["rounds"],
    }


# 4. Changes in the period --------------------------------------------------------------


def _changes(w: _World) -> dict:
    first = w.as_of - datetime.timedelta(days=PERIOD_DAYS - 1)
    start = day_starts(first)
    rows = []
    events = AuditEvent.objects.filter(
        occurred_at__gte=start, occurred_at__lt=w.day_end, action__in=_actions(*VERBS)
    ).values("occurred_at", "action", "object_type", "object_id", "actor_username", "reason")
    for e in events:
        record = w.by_key.get((e["object_type"], int(e["object_id"])))
        if record is None:  # another holder's, or outside the offering filter
            continue
        rows.append(
            {
                "at": e["occurred_at"],
                "holder": record.holder.name,
                "change": f"{_what(record.kind)} {VERBS[e['action'].rsplit('.', 1)[1]]}",
                "subject": record.title_for_display,
                "version": record.version,
                "by": e["actor_username"],
                "reason": e["reason"],
            }
        )
    changes = AvailabilityChange.objects.filter(at__gte=start, at__lt=w.day_end)
    if w.holder_id is not None:
        changes = changes.filter(holder_id=w.holder_id)
    if w.offering_id is not None:
        changes = changes.filter(offering_id=w.offering_id)
    for c in changes.values(
        "at", "opened", "reason", "holder__name", "offering__name", "audit_event__actor_username"
    ):
        rows.append(
            {
                "at": c["at"],
                "holder": c["holder__name"],
                "change": "offering opened" if c["opened"] else "offering closed",
                "subject": c["offering__name"],
                "version": None,
                "by": c["audit_event__actor_username"],
                "reason": c["reason"],
            }
        )
    rows.sort(key=lambda row: row["at"])
    for row in rows:
        row["at"] = _instant(row["at"])
    counts = Counter(row["change"] for row in rows)
    columns = [
        column("at", "When", "datetime"),
        column("holder", "Certificate holder"),
        column("change", "Change"),
        column("subject", "Record / offering"),
        column("version", "Version", "integer"),
        column("by", "By"),
        column("reason", "Reason"),
    ]
    notes = [
        f"Period: the {PERIOD_DAYS} Pennsylvania days {first} to {w.as_of}, both included "
        "(00:00 to 24:00 PA time; DOMAIN.md 2a).",
        "Approvals, supersessions, expiries and withdrawals come from the audit trail "
        "(§ 811a.7); openings and closings from the game availability log (§ 811a.7(f)); "
        "'system' is the midnight job.",
    ]
    totals = {"change": ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))}
    return section(
        "changes",
        "Changes in the period",
        columns,
        rows,
        totals=totals if rows else None,
        notes=notes,
    )


# 5. Stuck items ------------------------------------------------------------------------


def _stuck_reasons(w: _World, r: VersionedRecord) -> list[str]:
    reasons = []
    if w.as_of >= SUNSET:
        reasons.append("nothing can be approved on or after the sunset 2028-06-14")
    elif r.expiry_date and r.expiry_date <= w.as_of:
        reasons.append(f"its expiry date {r.expiry_date} is not after {w.as_of}")
    for game in w.games.get(r.pk, ()) if r.kind == "rules_submission" else ():
        for listed in (game.layout, game.paytable):
            if listed.status not in STILL_APPROVABLE:
                reasons.append(f"it lists {_label(listed)}, which is {_status(listed)}")
            elif listed.status == S.APPROVED and _end(listed) <= w.as_of:
                reasons.append(f"it lists {_label(listed)}, which lapsed on {_end(listed)}")
    return reasons


def _stuck(w: _World) -> dict:
    rows = []
    for r in w.records:
        if r.status not in OPEN:
            continue
        reasons = _stuck_reasons(w, r)
        due = getattr(r, "review_due", None) if r.status == S.SUBMITTED else None
        overdue = (w.as_of - due).days if due and due < w.as_of else None
        if overdue:
            reasons.append(f"review due {due} (§ 601a.10(a): 15 calendar days) is overdue")
        if reasons:
            rows.append(
                {
                    "holder": r.holder.name,
                    "kind": _what(r.kind),
                    "title": r.title_for_display,
                    "series": str(r.series)[:8],
                    "version": r.version,
                    "status": _status(r),
                    "submitted_at": _instant(r.submitted_at),
                    "review_due": _date(due),
                    "days_overdue": overdue,
                    "flag": "; ".join(reasons),
                }
            )
    columns = [
        column("holder", "Certificate holder"),
        column("kind", "Kind"),
        column("title", "Title / name"),
        column("series", "Series"),
        column("version", "Version", "integer"),
        column("status", "Status"),
        column("submitted_at", "Submitted at", "datetime"),
        column("review_due", "Review due", "date"),
        column("days_overdue", "Days overdue", "integer"),
        column("flag", "Why stuck", "flag"),
    ]
    notes = [
        "Drafts and submissions that can no longer be approved: an approval must end after "
        "the day it is given and never after the sunset, and a rules submission needs every "
        "record it lists approved (§ 601a.2). Also submitted layouts past their 15-day review "
        "date (§ 601a.10(a)).",
    ]
    totals = {"title": f"items {len(rows)}"} if rows else None
    return section("stuck", "Stuck items", columns, rows, totals=totals, notes=notes)


# 6. Job health -------------------------------------------------------------------------


def _job(w: _World) -> dict:
    system = AuditEvent.objects.filter(
        actor__isnull=True,
        action__in=[*_actions("expire"), "offering.opened", "offering.closed"],
        occurred_at__lt=w.day_end,
    )
    latest = system.order_by("-sequence").values_list("occurred_at", flat=True).first()
    rows = []
    offerings = {o.pk: o for o in w.shown}
    run = system.filter(occurred_at__gte=latest - JOB_RUN) if latest else system.none()
    for e in run.order_by("sequence").values(
        "occurred_at", "action", "object_type", "object_id", "reason"
    ):
        key = (e["object_type"], int(e["object_id"]))
        if e["object_type"] == "offering" and key[1] in offerings:
            o = offerings[key[1]]
            holder, change, subject = o.holder.name, e["action"].replace(".", " "), o.name
        elif key in w.by_key:
            r = w.by_key[key]
            holder, change, subject = r.holder.name, f"{_what(r.kind)} expired", _label(r)
        else:  # another holder's, or outside the offering filter
            continue
        rows.append(
            {
                "at": _instant(e["occurred_at"]),
                "holder": holder,
                "change": change,
                "subject": subject,
                "reason": e["reason"],
            }
        )
    lapsed = sum(
        1 for r in w.records if r.status == S.APPROVED and _implied(r, w.as_of) == "lapsed"
    )
    notes = [
        f"Last ran: {_instant(latest)} (its latest change); the rows are what it changed in "
        "that run (the hour before)."
        if latest
        else f"The expiry job never ran: no audit event of it up to the end of {w.as_of}.",
        f"Approvals lapsed by their dates but still stored approved on {w.as_of}: {lapsed} "
        "(flagged in the approvals register). Liveness never depends on the job "
        "(DOMAIN.md 2a).",
        "Derived from the audit trail: events with actor 'system' ending in '.expire' and the "
        "calendar's offering.opened / offering.closed. A night with nothing to expire leaves "
        "no event, so it looks like a missed run: an audit event per run (e.g. "
        "'job.expire_due_records', with its counts) would show each run; it is not recorded.",
    ]
    columns = [
        column("at", "Recorded at", "datetime"),
        column("holder", "Certificate holder"),
        column("change", "Change"),
        column("subject", "Record / offering"),
        column("reason", "Reason"),
    ]
    totals = {"change": f"changes {len(rows)}"} if rows else None
    return section("job", "Expiry job health", columns, rows, totals=totals, notes=notes)


# 7. Violations -------------------------------------------------------------------------


def _ends(w: _World) -> dict[tuple[str, int], tuple[datetime.datetime, str]]:
    """When each withdrawn or superseded record stopped holding (the audit trail)."""
    events = AuditEvent.objects.filter(
        action__in=_actions("withdraw", "supersede"), occurred_at__lt=w.day_end
    ).values_list("object_type", "object_id", "occurred_at", "action")
    return {
        (kind, int(pk)): (at, VERBS[action.rsplit(".", 1)[1]]) for kind, pk, at, action in events
    }


def _part_reasons(group: dict, kind: str, record: VersionedRecord, ends) -> list[str]:
    """Why rounds first..last on ``record`` were not all within its approval: it holds over
    one interval, so checking the first and last round checks every round between."""
    what = f"{_what(kind)} v{record.version}"
    reasons = []
    if group[ROUND_VERSION[kind]] != record.version:
        reasons.append(f"the round recorded {_what(kind)} version {group[ROUND_VERSION[kind]]}")
    if record.status not in APPROVED_EVER or record.decided_at is None:
        return [*reasons, f"the {what} was never approved (it is {_status(record)})"]
    start = max(record.decided_at, day_starts(_start(record)))
    if group["first"] < start:
        reasons.append(f"played before the {what} held (from {_instant(start)})")
    end, why = day_starts(_end(record)), "expired"
    if (record.kind, record.pk) in ends and ends[record.kind, record.pk][0] < end:
        end, why = ends[record.kind, record.pk]
    if group["last"] >= end:
        reasons.append(f"played after the {what} was {why} ({_instant(end)})")
    return reasons


def _violations(w: _World) -> dict:
    ends = _ends(w)
    offerings = {o.pk: o for o in w.offerings}
    rule = (day_starts(EFFECTIVE), day_starts(SUNSET))
    rows = []
    for g in w.groups:
        reasons = []
        if g["first"] < rule[0] or g["last"] >= rule[1]:
            reasons.append("played while § 617b.8 was not in force")
        for kind in KINDS:
            record = w.parts[kind, g[f"{kind}_id"]]
            reasons += _part_reasons(g, kind, record, ends)
        if reasons:
            o = offerings[g["offering_id"]]
            rows.append(
                {
                    "holder": o.holder.name,
                    "offering": o.name,
                    "parts": ", ".join(
                        f"{_what(k)} v{g[ROUND_VERSION[k]]} (#{g[f'{k}_id']})" for k in KINDS
                    ),
                    "rounds": g["rounds"],
                    "first": g["first"],
                    "last": g["last"],
                    "flag": "; ".join(reasons),
                }
            )
    rows.sort(key=lambda row: (row["holder"], row["offering"], row["first"]))
    for row in rows:
        row["first"], row["last"] = _instant(row["first"]), _instant(row["last"])
    columns = [
        column("holder", "Certificate holder"),
        column("offering", "Offering"),
        column("parts", "Recorded parts"),
        column("rounds", "Rounds on these parts", "integer"),
        column("first", "First round started", "datetime"),
        column("last", "Last round started", "datetime"),
        column("flag", "Violation", "flag"),
    ]
    notes = [
        "Rounds are grouped in the database by offering and the rules submission, layout and "
        "paytable (ids and versions) each recorded (§ 810a.11). An approval holds over one "
        "interval: from its decision and effective date (PA) up to its expiry date, the "
        "sunset, or its withdrawal or supersession (audit trail), so a group whose first and "
        "last rounds lie inside it has every round inside it.",
    ]
    if not rows:
        notes.append("No round was played on an offering that was not live.")
    totals = {"rounds": sum(row["rounds"] for row in rows)} if rows else None
    return section("violations", "Violations", columns, rows, totals=totals, notes=notes)


SECTIONS: tuple[Callable[[_World], dict], ...] = (
    _rule,
    _approvals,
    _offerings,
    _changes,
    _stuck,
    _job,
    _violations,
)


def expiry_report(
    *,
    as_of: datetime.date,
    holder_id: int | None = None,
    offering_id: int | None = None,
    now: datetime.datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The expiry report as of the Pennsylvania date ``as_of`` (a § 811a.9 document).

    ``progress(done, total)`` is called after each of the seven sections.
    """
    now = now or timezone.now()
    holder = (
        CertificateHolder.objects.get(pk=holder_id).name if holder_id is not None else ALL_HOLDERS
    )
    world = _load(as_of, holder_id, offering_id)
    sections = []
    for done, build in enumerate(SECTIONS, 1):
        sections.append(build(world))
        if progress is not None:
            progress(done, len(SECTIONS))
    return {
        "report": "expiry",
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        "software_versions": {"portal": portal.__version__, "engine": jinzi.__version__},
        "holder": holder,
        "period": {"as_of": as_of.isoformat()},
        "generated_at": {"pa": pa_time(now).isoformat(), "utc": now.astimezone(UTC).isoformat()},
        "filters": {"holder": holder_id, "offering": offering_id},
        "sections": sections,
    }
