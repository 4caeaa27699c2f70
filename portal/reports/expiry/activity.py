"""Offerings, changes, the midnight job's health and violations: what happened and what is live."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable
from itertools import groupby

from portal.audit.models import AuditEvent
from portal.compliance.models import (
    EFFECTIVE,
    SUNSET,
    AvailabilityChange,
    OfferingStatus,
    VersionedRecord,
)
from portal.compliance.selectors import offering_is_live
from portal.core.padates import day_starts, pa_stamp
from portal.reports.document import column, section
from portal.reports.expiry.register import (
    LAPSED,
    approvals_section,
    implied_status,
    listed_by,
    rule_section,
    stuck_section,
    superseded_section,
)
from portal.reports.expiry.world import (
    APPROVED_EVER,
    JOB_RUN,
    KINDS,
    NOON,
    ROUND_VERSION,
    SOON_DAYS,
    VERBS,
    S,
    World,
    actions_of,
    date_text,
    holds_from,
    holds_until,
    instant_text,
    kind_name,
    record_label,
    status_label,
    subtotal_row,
)


def _rounds_by_offering(groups: list[dict]) -> dict[int, tuple[int, datetime.datetime]]:
    played: dict[int, tuple[int, datetime.datetime]] = {}
    for g in groups:
        count, last = played.get(g["offering_id"], (0, g["last_end"]))
        played[g["offering_id"]] = (count + g["rounds"], max(last, g["last_end"]))
    return played


def offerings_section(w: World) -> dict:
    at = day_starts(w.as_of) + NOON
    played = _rounds_by_offering(w.groups)
    rows, total = [], Counter()
    shown = sorted(w.shown, key=lambda o: (o.holder.name, o.name, o.pk))
    for holder, offerings in groupby(shown, key=lambda o: o.holder.name):
        counts = Counter()
        for o in offerings:
            liveness = offering_is_live(o, at=at)
            part = min((getattr(o, kind) for kind in KINDS), key=holds_until)
            dark = holds_until(part)
            dark_by = "the sunset" if dark == SUNSET else record_label(part)
            active = o.status == OfferingStatus.ACTIVE
            flags = []
            if active and not liveness.live:
                flags.append("active but not live")
            if o.status == OfferingStatus.SUSPENDED:
                flags.append("suspended while it is checked")
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
                    "status": o.get_status_display(),
                    "live": liveness.live,
                    "reasons": "; ".join(liveness.reasons),
                    "goes_dark": date_text(dark),
                    "dark_by": dark_by,
                    "rounds": rounds,
                    "last_round_ended": instant_text(last),
                    "flag": "; ".join(flags),
                }
            )
        rows.append(subtotal_row(holder, **_offering_totals(counts)))
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
        "reads only the PA date, so the answer holds for the whole day (reading:live-offering, "
        "reading:pennsylvania-dates).",
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


def changes_section(w: World) -> dict:
    first = w.first_day
    start = day_starts(first)
    rows = []
    events = AuditEvent.objects.filter(
        occurred_at__gte=start, occurred_at__lt=w.day_end, action__in=actions_of(*VERBS)
    ).values("occurred_at", "action", "object_type", "object_id", "actor_username", "reason")
    for e in events:
        record = w.by_key.get((e["object_type"], int(e["object_id"])))
        if record is None:  # another holder's, or outside the offering filter
            continue
        rows.append(
            {
                "at": e["occurred_at"],
                "holder": record.holder.name,
                "change": f"{kind_name(record.kind)} {VERBS[e['action'].rsplit('.', 1)[1]]}",
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
        row["at"] = instant_text(row["at"])
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
        f"Period: the {(w.as_of - first).days + 1} Pennsylvania days {first} to {w.as_of}, "
        "both included "
        "(00:00 to 24:00 PA time; reading:pennsylvania-dates).",
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


def job_section(w: World) -> dict:
    system = AuditEvent.objects.filter(
        actor__isnull=True,
        action__in=[*actions_of("expire"), "offering.opened", "offering.closed"],
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
            holder, change, subject = r.holder.name, f"{kind_name(r.kind)} expired", record_label(r)
        else:  # another holder's, or outside the offering filter
            continue
        rows.append(
            {
                "at": instant_text(e["occurred_at"]),
                "holder": holder,
                "change": change,
                "subject": subject,
                "reason": e["reason"],
            }
        )
    lapsed = sum(
        1 for r in w.records if r.status == S.APPROVED and implied_status(r, w.as_of) == LAPSED
    )
    notes = [
        f"Last ran: {pa_stamp(latest, seconds=True)} (its latest change); the rows are what "
        "it changed in that run (the hour before)."
        if latest
        else f"The expiry job never ran: no audit event of it up to the end of {w.as_of}.",
        f"Approvals lapsed by their dates but still stored approved on {w.as_of}: {lapsed} "
        "(flagged in the approvals register). Liveness never depends on the job "
        "(reading:live-offering).",
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


def _ends(w: World) -> dict[tuple[str, int], tuple[datetime.datetime, str]]:
    """When each withdrawn or superseded record stopped holding (the audit trail)."""
    events = AuditEvent.objects.filter(
        action__in=actions_of("withdraw", "supersede"), occurred_at__lt=w.day_end
    ).values_list("object_type", "object_id", "occurred_at", "action")
    return {
        (kind, int(pk)): (at, VERBS[action.rsplit(".", 1)[1]]) for kind, pk, at, action in events
    }


def _part_reasons(
    group: dict, kind: str, record: VersionedRecord, ends, listed: set[tuple[str, int]]
) -> list[str]:
    """Why rounds first..last on ``record`` were not all within its approval: it holds over
    one interval, so checking the first and last round checks every round between. A layout
    or paytable superseded while the round's rules submission listed it held on
    (reading:supersede): that submission's own end is checked as its part."""
    what = f"{kind_name(kind)} v{record.version}"
    reasons = []
    if group[ROUND_VERSION[kind]] != record.version:
        reasons.append(f"the round recorded {kind_name(kind)} version {group[ROUND_VERSION[kind]]}")
    if record.status not in APPROVED_EVER or record.decided_at is None:
        return [*reasons, f"the {what} was never approved (it is {status_label(record).lower()})"]
    start = max(record.decided_at, day_starts(holds_from(record)))
    if group["first"] < start:
        reasons.append(f"played before the {what} held (from {pa_stamp(start)})")
    end, why = day_starts(holds_until(record)), "expired"
    ended = ends.get((record.kind, record.pk))
    played_on = ended is not None and ended[1] == VERBS["supersede"] and (kind, record.pk) in listed
    if ended is not None and ended[0] < end and not played_on:
        end, why = ended
    if group["last"] >= end:
        reasons.append(f"played after the {what} was {why} ({pa_stamp(end)})")
    return reasons


def violations_section(w: World) -> dict:
    ends = _ends(w)
    offerings = {o.pk: o for o in w.offerings}
    rule = (day_starts(EFFECTIVE), day_starts(SUNSET))
    rows = []
    for g in w.groups:
        reasons = []
        if g["first"] < rule[0] or g["last"] >= rule[1]:
            reasons.append("played while § 617b.8 was not in force")
        listed = listed_by(w, g["rules_submission_id"])
        for kind in KINDS:
            record = w.parts[kind, g[f"{kind}_id"]]
            reasons += _part_reasons(g, kind, record, ends, listed)
        if reasons:
            o = offerings[g["offering_id"]]
            rows.append(
                {
                    "holder": o.holder.name,
                    "offering": o.name,
                    "parts": ", ".join(
                        f"{kind_name(k)} v{g[ROUND_VERSION[k]]} (#{g[f'{k}_id']})" for k in KINDS
                    ),
                    "rounds": g["rounds"],
                    "first": g["first"],
                    "last": g["last"],
                    "flag": "; ".join(reasons),
                }
            )
    rows.sort(key=lambda row: (row["holder"], row["offering"], row["first"]))
    for row in rows:
        row["first"], row["last"] = instant_text(row["first"]), instant_text(row["last"])
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


SECTIONS: tuple[Callable[[World], dict], ...] = (
    rule_section,
    approvals_section,
    superseded_section,
    offerings_section,
    changes_section,
    stuck_section,
    job_section,
    violations_section,
)
