"""The audit report's exceptions: what an auditor looks at first, each row something that
needs their attention (the document counts them, ``exceptions``):

- single wins of at least the report's threshold (a round's returns less its stakes);
- paytables with a spot that took bets at a stake whose house edge is 0 or less, paid with
  each return rounded up (reading:round-up; legal under § 617b.8(f), but to be flagged
  loudly);
- rounds played on an offering that was not live: the expiry report's own section
  (``portal.reports.expiry``), read over this report's period.

Beside them, the routine records (``routine``: listed for the record, each saying so, and
never counted as exceptions):

- approvals, submissions, supersessions, expiries, withdrawals and openings/closings in the
  period: the expiry report's changes, read over this report's period;
- exports taken in the period: report downloads and audit-trail exports (§ 811a.7).
"""

from __future__ import annotations

from portal.audit.models import AuditEvent
from portal.audit.services import EXPORTED
from portal.core.player_refs import player_ref
from portal.reports.audit_report.figures.spots import SpotTotal
from portal.reports.audit_report.figures.sums import ROUNDS_LISTED
from portal.reports.audit_report.scope import Scope
from portal.reports.audit_report.values import decimal_text, ratio
from portal.reports.document import column, section
from portal.reports.expiry.activity import changes_section, violations_section
from portal.reports.expiry.world import load_world

DOWNLOADED = "report.download"


def big_wins_section(scope: Scope, wins: list[dict], threshold: int) -> dict:
    rows = [
        {
            "round": w["pk"],
            "holder": scope.holders[scope.offerings[w["offering_id"]][0]].name,
            "offering": scope.offerings[w["offering_id"]][1],
            "player": player_ref(w["player_id"]),
            "started": w["started_at"].isoformat(),
            "outcome": w["outcome"],
            "staked": w["total_staked"],
            "returned": w["total_returned"],
            "won": w["won"],
        }
        for w in wins
    ]
    columns = [
        column("round", "Round id", "integer"),
        column("holder", "Certificate holder"),
        column("offering", "Offering"),
        column("player", "Player"),
        column("started", "Started", "datetime"),
        column("outcome", "Outcome", "integer"),
        column("staked", "Staked", "money"),
        column("returned", "Returned", "money"),
        column("won", "Player's win", "money"),
    ]
    notes = [f"Rounds whose player won {threshold:,} cents or more (returned − staked)."]
    if len(rows) == ROUNDS_LISTED:
        notes.append(f"The largest {ROUNDS_LISTED:,} are listed; raise the threshold to see fewer.")
    totals = {"won": sum(r["won"] for r in rows)} if rows else None
    return section(
        "big_wins", "Single wins above the threshold", columns, rows, totals=totals, notes=notes
    )


def generous_section(scope: Scope, spots: list[SpotTotal]) -> dict:
    flagged = sorted(
        (spot for spot in spots if spot.lowest_edge is not None and spot.lowest_edge <= 0),
        key=lambda s: (scope.offerings[s.group[0]][1], s.group, s.wager.spot_index),
    )
    rows = [
        {
            "offering": scope.offerings[spot.group[0]][1],
            "paytable": f"#{spot.group[1]} v{spot.group[2]}",
            "spot": spot.wager.label,
            "edge": decimal_text(spot.lowest_edge * 100),
            "stake": spot.lowest_stake,
            "expected_hold": ratio(spot.expected_win, spot.handle),
            "bets": spot.bets,
            "handle": spot.handle,
        }
        for spot in flagged
    ]
    columns = [
        column("offering", "Offering"),
        column("paytable", "Paytable"),
        column("spot", "Spot"),
        column("edge", "Lowest house edge (%)", "decimal"),
        column("stake", "At a stake of", "money"),
        column("expected_hold", "Expected hold % (E/H)", "percent"),
        column("bets", "Bets", "integer"),
        column("handle", "Handle", "money"),
    ]
    notes = [
        "Spots that took bets at a stake whose exact house edge under the recorded odds is 0 "
        "or less: legal under § 617b.8(f) (it sets minimums only), flagged for review.",
        "Each edge is that of what the stake is paid, a return that fractional odds make "
        "fractional rounded up to the cent (reading:round-up): the lowest among the stakes "
        "the spot took, with the smallest stake at it; E/H is over all its stakes.",
    ]
    return section(
        "generous",
        "Paytables with an edge of 0 or less",
        columns,
        rows,
        notes=notes,
        sheet="Paytables edge 0 or less",
    )


def exports_section(scope: Scope) -> dict:
    first, end = scope.money_span
    events = AuditEvent.objects.filter(
        occurred_at__gte=first, occurred_at__lt=end, action__in=(DOWNLOADED, EXPORTED)
    ).order_by("sequence")
    rows = [
        {
            "at": e["occurred_at"].isoformat(),
            "by": e["actor_username"],
            "what": "report file" if e["action"] == DOWNLOADED else "audit trail",
            "object": f"{e['object_type']} {e['object_id']}",
            "detail": ", ".join(f"{k}: {v}" for k, v in sorted((e["after"] or {}).items())),
        }
        for e in events.values(
            "occurred_at", "actor_username", "action", "object_type", "object_id", "after"
        )
    ]
    columns = [
        column("at", "When", "datetime"),
        column("by", "By"),
        column("what", "Export"),
        column("object", "Object"),
        column("detail", "Detail"),
    ]
    notes = ["Every copy taken out of the system in the period (the audit trail, § 811a.7)."]
    return section("exports", "Exports taken", columns, rows, notes=notes)


ROUTINE_NOTE = (
    "Routine: listed for the record, not counted among the report's exceptions (what needs "
    "an auditor's attention)."
)


def routine(parts: list[dict]) -> list[dict]:
    """``parts``, each saying in a note that it is routine, not an exception."""
    for part in parts:
        part["notes"].insert(0, ROUTINE_NOTE)
    return parts


def record_sections(scope: Scope) -> list[dict]:
    """The changes and the violations, as the expiry report reads them, over the period."""
    world = load_world(scope.end, scope.holder_id, scope.offering_id, first_day=scope.start)
    changes = changes_section(world)
    violations = violations_section(world)
    violations["title"] = "Rounds on an offering that was not live"
    violations["sheet"] = "Rounds on offerings not live"
    for part in (changes, violations):
        part["notes"].append(
            "Read as the expiry report reads them: over the period's Pennsylvania calendar "
            "days (00:00 to 24:00), whatever hour a holder's gaming day starts."
        )
    return [changes, violations]
