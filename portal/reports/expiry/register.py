"""The rule, the approvals register and the stuck items of the expiry report."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from itertools import groupby

import jinzi
from portal.compliance.models import (
    EFFECTIVE,
    SUNSET,
    Game,
    VersionedRecord,
)
from portal.compliance.selectors import superseded_in_play
from portal.compliance.workflow import OPEN_STATUSES
from portal.reports.document import column, section
from portal.reports.expiry.world import (
    APPROVED_EVER,
    BUCKETS,
    KINDS,
    OTHER,
    STILL_APPROVABLE,
    S,
    World,
    date_text,
    holds_from,
    holds_until,
    instant_text,
    kind_name,
    record_label,
    status_label,
    subtotal_row,
)


def rule_section(w: World) -> dict:
    row = {
        "effective": date_text(EFFECTIVE),
        "sunset": date_text(SUNSET),
        "as_of": date_text(w.as_of),
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
        "not including, 00:00 on 2028-06-14 (reading:pennsylvania-dates). At the sunset every "
        "offering stops taking bets and nothing approved under it holds."
    ]
    return section("rule", "§ 617b.8: effective date and sunset", columns, [row], notes=notes)


# 2. The approvals register -------------------------------------------------------------


# What an approved or expired record's dates say on the report's date, in words.
LAPSED, NOT_YET_IN_FORCE, IN_FORCE = "Lapsed", "Not yet in force", "In force"


def implied_status(record: VersionedRecord, as_of: datetime.date) -> str:
    """The status the dates imply on ``as_of`` (approved or expired records); else stored,
    in the pages' words (``status_label``)."""
    if record.status not in (S.APPROVED, S.EXPIRED):
        return status_label(record)
    if as_of >= holds_until(record):
        return LAPSED
    if as_of < holds_from(record):
        return NOT_YET_IN_FORCE
    return IN_FORCE


def _mismatch(record: VersionedRecord, implied: str) -> str:
    if record.status == S.APPROVED and implied == LAPSED:
        return (
            f"stored approved, but it lapsed on {holds_until(record)}: the expiry job has not run"
        )
    if record.status == S.EXPIRED and implied != LAPSED:
        return f"stored expired, but its dates hold until {holds_until(record)}"
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


def approvals_section(w: World) -> dict:
    users = defaultdict(list)
    for offering in w.offerings:
        for kind in KINDS:
            users[kind, getattr(offering, f"{kind}_id")].append(offering.name)
    superseded_by = _superseders(w.records)
    rows, total = [], Counter()
    for holder, records in groupby(w.records, key=lambda r: r.holder.name):
        counts = Counter()
        for r in records:
            implied = implied_status(r, w.as_of)
            dated = r.status in (S.APPROVED, S.EXPIRED)
            days = max((holds_until(r) - w.as_of).days, 0) if dated else None
            bucket = _bucket(days) if dated else ""
            counts[bucket or OTHER] += 1
            rows.append(
                {
                    "kind": kind_name(r.kind),
                    "holder": holder,
                    "series": str(r.series)[:8],
                    "version": r.version,
                    "title": r.title_for_display,
                    "status": status_label(r),
                    "status_on_date": implied,
                    "flag": _mismatch(r, implied),
                    "effective": date_text(r.effective_date),
                    "expiry": date_text(holds_until(r)) if dated else date_text(r.expiry_date),
                    "expiry_basis": "sunset" if dated and not r.expiry_date else "",
                    "days_left": days,
                    "bucket": bucket,
                    "decided_by": r.decided_by.username if r.decided_by else "",
                    "decided_at": instant_text(r.decided_at),
                    "reference": getattr(r, "reference_number", ""),
                    "conditions": getattr(r, "conditions", ""),
                    "superseded_by": superseded_by.get((r.kind, r.pk), ""),
                    "offerings": ", ".join(users[r.kind, r.pk]),
                }
            )
        rows.append(subtotal_row(holder, bucket=_summary(counts)))
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


# 2b. Superseded, still in play ----------------------------------------------------------


def superseded_section(w: World) -> dict:
    """Superseded layout and paytable versions some active table still plays under, because
    the approved rules submission it runs on still lists them (reading:supersede): each
    needs that submission's amendment approved to move its tables to the new version."""
    superseded_by = _superseders(w.records)
    in_play = superseded_in_play(w.shown)
    rows, total = [], Counter()
    records = [w.by_key[key] for key in in_play if key in w.by_key]
    records.sort(key=lambda r: (r.holder.name, r.kind, r.title_for_display, r.version))
    for holder, group in groupby(records, key=lambda r: r.holder.name):
        counts = Counter()
        for r in group:
            tables = in_play[r.kind, r.pk]
            rules = sorted(
                {
                    f"{o.rules_submission.title_for_display!r} v{o.rules_submission.version}"
                    for o in tables
                }
            )
            new = superseded_by.get((r.kind, r.pk), "")
            counts.update(versions=1, tables=len(tables))
            rows.append(
                {
                    "holder": holder,
                    "kind": kind_name(r.kind),
                    "title": r.title_for_display,
                    "version": r.version,
                    "superseded_by": new,
                    "expiry": date_text(holds_until(r)),
                    "offerings": ", ".join(sorted(o.name for o in tables)),
                    "tables": len(tables),
                    "rules": ", ".join(rules),
                    "flag": "still in play: amend "
                    + ", ".join(f"rules submission {label}" for label in rules)
                    + f" to list {new or 'the approved version'}",
                }
            )
        rows.append(subtotal_row(holder, **_superseded_totals(counts)))
        total += counts
    columns = [
        column("holder", "Certificate holder"),
        column("kind", "Kind"),
        column("title", "Title / name"),
        column("version", "Version", "integer"),
        column("superseded_by", "Superseded by"),
        column("expiry", "Holds until", "date"),
        column("offerings", "Tables still on it"),
        column("tables", "Tables", "integer"),
        column("rules", "Rules submission listing it"),
        column("flag", "To do", "flag"),
    ]
    notes = [
        "A layout or paytable superseded by a later approved version still plays at the tables "
        "whose approved rules submission lists it, until that submission's amendment is "
        "approved and moves them to the new version in one step (reading:supersede). It "
        "leaves play sooner only if withdrawn, at its expiry, or at the sunset.",
        "Statuses as stored when the report ran; tables that are active and on an approved "
        "rules submission listing that very version.",
    ]
    totals = _superseded_totals(total) if rows else None
    return section(
        "superseded", "Superseded, still in play", columns, rows, totals=totals, notes=notes
    )


def _superseded_totals(counts: Counter) -> dict:
    return {"title": f"versions {counts['versions']}", "tables": counts["tables"]}


def listed_by(w: World, rules_pk: int) -> set[tuple[str, int]]:
    """The layout and paytable the rules submission ``rules_pk`` lists for Jinzi Roulette."""
    for game in w.games.get(rules_pk, ()):
        if game.game == Game.JINZI_ROULETTE:
            return {("layout", game.layout_id), ("paytable", game.paytable_id)}
    return set()


# 3. Offerings --------------------------------------------------------------------------


def _stuck_reasons(w: World, r: VersionedRecord) -> list[str]:
    reasons = []
    if w.as_of >= SUNSET:
        reasons.append("nothing can be approved on or after the sunset 2028-06-14")
    elif r.expiry_date and r.expiry_date <= w.as_of:
        reasons.append(f"its expiry date {r.expiry_date} is not after {w.as_of}")
    for game in w.games.get(r.pk, ()) if r.kind == "rules_submission" else ():
        for listed in (game.layout, game.paytable):
            if listed.status not in STILL_APPROVABLE:
                status = status_label(listed).lower()
                reasons.append(f"it lists {record_label(listed)}, which is {status}")
            elif listed.status == S.APPROVED and holds_until(listed) <= w.as_of:
                reasons.append(
                    f"it lists {record_label(listed)}, which lapsed on {holds_until(listed)}"
                )
    return reasons


def stuck_section(w: World) -> dict:
    rows = []
    for r in w.records:
        if r.status not in OPEN_STATUSES:
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
                    "kind": kind_name(r.kind),
                    "title": r.title_for_display,
                    "series": str(r.series)[:8],
                    "version": r.version,
                    "status": status_label(r),
                    "submitted_at": instant_text(r.submitted_at),
                    "review_due": date_text(due),
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
