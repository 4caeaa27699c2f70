"""The audit report's voids and adjustments (§ 617a.6, § 812a.7(a)(9),
reading:voids-and-adjustments), listed with the exceptions.

- **Void rounds:** every round of the period voided before the report's cutoff, counted
  apart from play (out of handle, win, expected win and its SD; still re-settled and
  chain-checked), with what the void gave back, took back and could not collect.
- **Adjustments:** every adjustment of a round of the period decided before the cutoff,
  with the difference, what moved and what was not collected.
- Proposals still waiting for a decision are counted in a note: until decided they change
  nothing.
"""

from __future__ import annotations

from itertools import groupby

from django.db.models import Count, Q

from portal.core.money import dollars
from portal.core.player_refs import player_ref
from portal.game.corrections.composition import residual
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection
from portal.reports.audit_report.scope import Scope
from portal.reports.document import column, section

CORRECTIONS_LISTED = 1_000  # voids, and adjustments, listed in full (each kind)

CORRECTION_COLUMNS = (
    "pk", "kind", "round_id", "round__offering_id", "round__player_id", "round__started_at",
    "round__total_staked", "round__total_returned", "amount", "credited", "debited",
    "uncollected", "undone_credits", "undone_debits", "reason", "notice",
    "proposed_by__username", "proposed_at", "decided_by__username", "decided_at",
)  # fmt: skip


def _decided(scope: Scope) -> dict[str, list[dict]]:
    """The period's approved voids and adjustments by kind, the first ``CORRECTIONS_LISTED``
    of each: one query."""
    rows = (
        RoundCorrection.objects.filter(
            scope.q("round__"), status=CorrectionStatus.APPROVED, decided_at__lt=scope.cutoff
        )
        .order_by("kind", "round_id", "pk")
        .values(*CORRECTION_COLUMNS)
    )
    found: dict[str, list[dict]] = {kind: [] for kind in CorrectionKind}
    for row in rows.iterator(chunk_size=CORRECTIONS_LISTED):
        listed = found[row["kind"]]
        if len(listed) < CORRECTIONS_LISTED:
            listed.append(row)
    return found


def common(scope: Scope, row: dict) -> dict:
    offering = row["round__offering_id"]
    return {
        "round": row["round_id"],
        "holder": scope.holders[scope.offerings[offering][0]].name,
        "offering": scope.offerings[offering][1],
        "player": player_ref(row["round__player_id"]),
        "started": row["round__started_at"].isoformat(),
        "reason": row["reason"],
        "proposed_by": row["proposed_by__username"],
        "proposed_at": row["proposed_at"].isoformat(),
        "decided_by": row["decided_by__username"],
        "decided_at": row["decided_at"].isoformat(),
    }


# The columns every row starts with (``common``): the round corrected.
ROUND = [
    column("round", "Round id", "integer"),
    column("holder", "Certificate holder"),
    column("offering", "Offering"),
    column("player", "Player"),
    column("started", "Started", "datetime"),
]
# Who asked for the correction and who approved it, and when: each instant a date-time
# column of its own, which every format shows as its readers read it.
PEOPLE = [
    column("reason", "Reason"),
    column("proposed_by", "Proposed by"),
    column("proposed_at", "Proposed at", "datetime"),
    column("decided_by", "Approved by"),
    column("decided_at", "Approved at", "datetime"),
]


def _waiting(scope: Scope) -> dict[str, int]:
    """How many of each kind were waiting for a decision at the cutoff: one query."""
    return RoundCorrection.objects.filter(
        scope.q("round__"),
        Q(status=CorrectionStatus.PROPOSED) | Q(decided_at__gte=scope.cutoff),
        proposed_at__lt=scope.cutoff,
    ).aggregate(**{kind.value: Count("pk", filter=Q(kind=kind)) for kind in CorrectionKind})


def _waiting_note(waiting: dict[str, int], kind: CorrectionKind) -> str:
    label = CorrectionKind(kind).label.lower()
    return (
        f"{waiting[kind]:,} {label} proposals of the period's rounds were waiting for a "
        "decision when the report was made: they change nothing until approved."
    )


def _residuals(scope: Scope, voids: list[dict]) -> list[tuple[int, int]]:
    """(round, residual) of the listed void rounds whose adjustments the void did not undo
    (voided before voids undid adjustments, ``composition``): one query, only when a listed
    void undid nothing."""
    candidates = [
        row["round_id"] for row in voids if not row["undone_credits"] + row["undone_debits"]
    ]
    if not candidates:
        return []
    rows = RoundCorrection.objects.filter(
        round_id__in=candidates, status=CorrectionStatus.APPROVED, decided_at__lt=scope.cutoff
    ).order_by("round_id", "decided_at", "pk")
    found = []
    for round_id, corrections in groupby(rows, key=lambda c: c.round_id):
        if left := residual(list(corrections)):
            found.append((round_id, left))
    return found


def sections(scope: Scope) -> list[dict]:
    """The two sections, from two queries (three when a void round's adjustments may be
    left undone)."""
    decided, waiting = _decided(scope), _waiting(scope)
    voids = decided[CorrectionKind.VOID]
    return [
        voids_section(scope, voids, waiting, _residuals(scope, voids)),
        adjustments_section(scope, decided[CorrectionKind.ADJUSTMENT], waiting),
    ]


def voids_section(scope: Scope, decided: list[dict], waiting: dict[str, int], residuals=()) -> dict:
    rows = [
        {
            **common(scope, row),
            "staked": row["round__total_staked"],
            "returned": row["round__total_returned"],
            "adjustment_debits": row["undone_debits"],
            "adjustment_credits": row["undone_credits"],
            "given_back": row["credited"],
            "taken_back": row["debited"],
            "uncollected": row["uncollected"],
        }
        for row in decided
    ]
    columns = [
        *ROUND,
        column("staked", "Staked", "money"),
        column("returned", "Returned", "money"),
        column("adjustment_debits", "Adjustment debits undone", "money"),
        column("adjustment_credits", "Adjustment credits undone", "money"),
        column("given_back", "Stakes given back", "money"),
        column("taken_back", "Returns taken back", "money"),
        column("uncollected", "Uncollected", "money"),
        *PEOPLE,
    ]
    notes = [
        f"§ 617a.6: a malfunction voids all pays and plays. {len(scope.voided):,} rounds of "
        "the period were voided before the report was made: they are counted apart from "
        "play (out of handle, win, expected win and its standard deviation), still settled "
        "again and chain-checked. A void undoes the round's earlier adjustments too "
        "(reading:corrections-compose): it gives back what their debits took and takes back "
        "what their credits paid, so the player ends as if the round had never been played. "
        "What a void could not take back from the account is uncollected.",
        _waiting_note(waiting, CorrectionKind.VOID),
    ]
    if residuals:
        listed = "; ".join(
            f"round {r} ({dollars(abs(left))} {'kept by' if left > 0 else 'owed to'} the player)"
            for r, left in residuals
        )
        notes.append(
            "Voided before a void undid its adjustments, their money still moved "
            f"(reading:corrections-compose): {listed}. One adjustment of the opposite, "
            "decided under four-eyes, puts each right."
        )
    keys = ("staked", "returned", "adjustment_debits", "adjustment_credits")
    keys += ("given_back", "taken_back", "uncollected")
    return _section("voids", "Void rounds", columns, rows, keys, notes)


def adjustments_section(scope: Scope, decided: list[dict], waiting: dict[str, int]) -> dict:
    rows = [
        {
            **common(scope, row),
            "difference": row["amount"],
            "credited": row["credited"],
            "debited": row["debited"],
            "uncollected": row["uncollected"],
            "notice": row["notice"],
        }
        for row in decided
    ]
    columns = [
        *ROUND,
        column("difference", "Difference owed to the player", "money"),
        column("credited", "Credited", "money"),
        column("debited", "Debited", "money"),
        column("uncollected", "Uncollected", "money"),
        column("notice", "Notification to the player"),
        *PEOPLE,
    ]
    notes = [
        "§ 812a.7(a)(9): a wrong payout or an upheld dispute is adjusted by the difference, "
        "decided by a second person, with the notification sent to the player. The rounds "
        "stay in play as settled; the adjustments are shown here, apart.",
        _waiting_note(waiting, CorrectionKind.ADJUSTMENT),
    ]
    keys = ("difference", "credited", "debited", "uncollected")
    return _section("adjustments", "Adjustments", columns, rows, keys, notes)


def _section(key: str, title: str, columns, rows: list[dict], summed, notes: list[str]) -> dict:
    """The section, with the totals of the ``summed`` columns and, when the list was cut
    at ``CORRECTIONS_LISTED``, a note saying so."""
    if len(rows) == CORRECTIONS_LISTED:
        notes.append(f"The first {CORRECTIONS_LISTED:,} are listed, by round id.")
    totals = {name: sum(row[name] for row in rows) for name in summed} if rows else None
    return section(key, title, columns, rows, totals=totals, notes=notes)
