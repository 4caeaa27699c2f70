"""Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) against their ledger entries, their
rounds and their audit events (reading:voids-and-adjustments).

- Every void or adjustment entry of the ledger is the credit or the debit of exactly one
  approved correction of the matching kind, in its account, naming its round, moving what
  the correction says it moved. An entry no correction names is money moved outside the
  service.
- An approved void gave back its round's stakes and took back its returns, with what the
  round's earlier adjustments debited and credited (reading:corrections-compose), what it
  could not take recorded as uncollected; an approved adjustment moved its difference the
  same way. A correction is in its round's player's account with the round's holder.
- A void round whose adjustments still leave money moved (voided before voids undid
  adjustments, and not yet put right by the one adjustment that may follow) is listed.
- Each correction has one ``<kind>.propose`` event and, once decided, one ``<kind>.approve``
  or ``<kind>.reject`` event, by who the row says, saying what the row says (the approval:
  the entries, and what was credited, debited and left uncollected). An event naming no
  correction is a problem too.

Streams sorted by id, merged; a fixed number of queries whatever the volume.
"""

from __future__ import annotations

from itertools import groupby

from django.db.models import BigIntegerField, Q
from django.db.models.functions import Cast

from portal.audit.models import AuditEvent
from portal.game.corrections.composition import residual
from portal.game.models import (
    CORRECTION_KINDS,
    CorrectionKind,
    CorrectionStatus,
    LedgerEntry,
    LedgerKind,
    RoundCorrection,
)
from portal.integrity.records.report import CHUNK, RecordsReport, first_of, merged

VOID_CLAUSE = "§ 617a.6"
ADJUSTMENT_CLAUSE = "§ 812a.7(a)(9)"
CLAUSES = {CorrectionKind.VOID: VOID_CLAUSE, CorrectionKind.ADJUSTMENT: ADJUSTMENT_CLAUSE}
# The entry a correction of each kind writes, as credit and as debit.
ENTRY_KINDS = {
    CorrectionKind.VOID: (LedgerKind.VOID_STAKES, LedgerKind.VOID_RETURNS),
    CorrectionKind.ADJUSTMENT: (LedgerKind.ADJUSTMENT_CREDIT, LedgerKind.ADJUSTMENT_DEBIT),
}
KIND_OF_ENTRY = {
    entry_kind: (kind, side)
    for kind, pair in ENTRY_KINDS.items()
    for side, entry_kind in zip(("credit", "debit"), pair, strict=True)
}


def check_corrections(report: RecordsReport) -> None:
    _check_entries(report)
    _check_records(report)
    _check_residuals(report)


def _check_residuals(report: RecordsReport) -> None:
    """Void rounds whose adjustments the void did not undo (one query: the approved
    corrections of void rounds, few)."""
    void_rounds = RoundCorrection.objects.filter(
        kind=CorrectionKind.VOID, status=CorrectionStatus.APPROVED
    ).values("round_id")
    rows = (
        RoundCorrection.objects.filter(round_id__in=void_rounds, status=CorrectionStatus.APPROVED)
        .order_by("round_id", "decided_at", "pk")
        .iterator(chunk_size=CHUNK)
    )
    for round_id, corrections in groupby(rows, key=lambda c: c.round_id):
        left = residual(list(corrections))
        if left:
            report.add(
                "void",
                f"round #{round_id}",
                f"{VOID_CLAUSE}: voided before a void undid its adjustments, which still "
                f"leave {left:+d} cents moved to the player (reading:corrections-compose); "
                "an adjustment of the opposite, under four-eyes, puts it right",
            )


# The ledger's side -------------------------------------------------------------------------

ENTRY_COLUMNS = (
    *("pk", "kind", "account_id", "amount", "round_id"),
    *("correction_credited__pk", "correction_credited__kind", "correction_credited__status"),
    *("correction_credited__account_id", "correction_credited__round_id"),
    "correction_credited__credited",
    *("correction_debited__pk", "correction_debited__kind", "correction_debited__status"),
    *("correction_debited__account_id", "correction_debited__round_id"),
    "correction_debited__debited",
)


def _check_entries(report: RecordsReport) -> None:
    entries = (
        LedgerEntry.objects.filter(
            Q(kind__in=CORRECTION_KINDS)
            | Q(correction_credited__isnull=False)
            | Q(correction_debited__isnull=False)
        )
        .order_by("pk")
        .values_list(*ENTRY_COLUMNS)
    )
    for row in entries.iterator(chunk_size=CHUNK):
        entry_id, kind, account, amount, round_id = row[:5]
        credited_by, debited_by = row[5:11], row[11:17]
        subject = f"ledger entry #{entry_id} (account #{account}, {kind.replace('_', ' ')})"
        named = [(side, r) for side, r in (("credit", credited_by), ("debit", debited_by)) if r[0]]
        if kind not in KIND_OF_ENTRY:
            for _, (correction, c_kind, *_rest) in named:
                clause = CLAUSES.get(c_kind, VOID_CLAUSE)
                report.add(
                    c_kind,
                    f"{c_kind} #{correction}",
                    f"{clause}: it names ledger entry #{entry_id}, a {kind} entry",
                )
            continue
        c_kind, side = KIND_OF_ENTRY[kind]
        clause = CLAUSES[c_kind]
        if not named:
            report.add(
                c_kind,
                subject,
                f"{clause}: no approved {c_kind} names it: money moved outside the "
                f"{c_kind} service",
            )
            continue
        report.count(f"{c_kind} entries")
        for named_side, (correction, n_kind, status, n_account, n_round, moved) in named:
            said = {
                f"a {c_kind}'s {side}": (n_kind, named_side) == (c_kind, side),
                "approved": status == CorrectionStatus.APPROVED,
                "account": n_account == account,
                "round": n_round == round_id,
                "amount": moved == abs(amount),
            }
            wrong = [name for name, ok in said.items() if not ok]
            if wrong:
                report.add(
                    c_kind,
                    subject,
                    f"{clause}: {n_kind} #{correction} names it as its {named_side}; they "
                    f"differ in: {', '.join(wrong)} (it moves {amount:+d} for round "
                    f"#{round_id}; the {n_kind} is {status}, {moved} for round #{n_round})",
                )


# The corrections' side -----------------------------------------------------------------

RECORD_COLUMNS = (
    *("pk", "kind", "status", "amount", "reason", "notice", "round_id", "account_id"),
    *("proposed_by_id", "decided_by_id", "credited", "debited", "uncollected"),
    *("credit_entry_id", "debit_entry_id", "round__total_staked", "round__total_returned"),
    *("round__player_id", "round__offering__holder_id", "account__player_id"),
    *("account__holder_id", "undone_credits", "undone_debits"),
)
ACTIONS = tuple(
    f"{kind}.{verb}" for kind in CorrectionKind for verb in ("propose", "approve", "reject")
)


def _events():
    """(correction id, its events) by id; events not naming a correction's id as a number
    are reported by ``_check_records`` as naming none."""
    events = (
        AuditEvent.objects.filter(action__in=ACTIONS)
        .annotate(named=Cast("object_id", BigIntegerField()))
        .order_by("named", "sequence")
        .values_list("named", "sequence", "action", "object_type", "actor_id", "after")
    )
    for named, group in groupby(events.iterator(chunk_size=CHUNK), key=first_of):
        yield named, list(group)


def _check_records(report: RecordsReport) -> None:
    rows = RoundCorrection.objects.order_by("pk").values_list(*RECORD_COLUMNS)
    for row, correction_id, events in merged(
        rows.iterator(chunk_size=CHUNK), _events(), key=first_of
    ):
        if row is None:
            sequences = ", ".join(f"#{event[1]}" for event in events)
            report.add(
                "void",
                f"audit events {sequences}",
                f"{VOID_CLAUSE}, {ADJUSTMENT_CLAUSE}: they record void or adjustment "
                f"#{correction_id}, which is not among the corrections",
            )
            continue
        report.count(f"{row[1]}s")
        _check_record(row, events or [], report)


def _check_record(row: tuple, events: list[tuple], report: RecordsReport) -> None:
    (pk, kind, status, amount, reason, notice, round_id, account, proposed_by, decided_by,
     credited, debited, uncollected, credit_entry, debit_entry, staked, returned, r_player,
     r_holder, a_player, a_holder, undone_credits, undone_debits) = row  # fmt: skip
    clause = CLAUSES[kind]
    subject = f"{kind} #{pk} (round #{round_id})"

    def problem(detail: str) -> None:
        report.add(kind, subject, f"{clause}: {detail}")

    if (a_player, a_holder) != (r_player, r_holder):
        problem(
            f"it moves account #{account}, not its round's player's account with the "
            f"round's holder (player {r_player}, holder #{r_holder})"
        )
    if status == CorrectionStatus.APPROVED:
        due_in, due_out = (
            (staked + undone_debits, returned + undone_credits)
            if kind == CorrectionKind.VOID
            else (max(amount, 0), max(-amount, 0))
        )
        if (credited, debited + uncollected) != (due_in, due_out):
            problem(
                f"it credited {credited} and debited {debited} with {uncollected} uncollected; "
                f"it was due to credit {due_in} and take back {due_out}"
            )
        if (credit_entry is None) != (credited == 0) or (debit_entry is None) != (debited == 0):
            problem("what it moved has no ledger entry, or an entry moved nothing")
    by_verb: dict[str, list[tuple]] = {}
    for event in events:
        event_kind, verb = event[2].split(".")
        if event_kind != kind or event[3] != kind:
            problem(f"its audit event #{event[1]} records a {event[3]} ({event[2]})")
            continue
        by_verb.setdefault(verb, []).append(event)
    proposals = by_verb.get("propose", [])
    if len(proposals) != 1:
        problem(f"{len(proposals)} {kind}.propose audit events record it; one is due")
    for _, sequence, _, _, actor, after in proposals:
        said = {
            "proposer": (actor, proposed_by),
            "round": (after.get("round_id"), round_id),
            "account": (after.get("account_id"), account),
            "amount": (after.get("amount"), amount),
            "reason": (after.get("reason"), reason),
            "notice": (after.get("notice"), notice),
        }
        _differ(said, sequence, problem)
    decided = {
        CorrectionStatus.APPROVED: "approve",
        CorrectionStatus.REJECTED: "reject",
    }.get(status)
    for verb in ("approve", "reject"):
        found = by_verb.get(verb, [])
        due = 1 if verb == decided else 0
        if len(found) != due:
            problem(
                f"{len(found)} {kind}.{verb} audit events record it, where it is "
                f"{status}: {due} due"
            )
        for _, sequence, _, _, actor, after in found[:due]:
            said = {"decided by": (actor, decided_by), "status": (after.get("status"), status)}
            if verb == "approve":
                said |= {
                    "credit entry": (after.get("credit_entry"), credit_entry),
                    "debit entry": (after.get("debit_entry"), debit_entry),
                    "credited": (after.get("credited"), credited),
                    "debited": (after.get("debited"), debited),
                    "uncollected": (after.get("uncollected"), uncollected),
                }
                if kind == CorrectionKind.VOID:  # recorded since voids undo adjustments
                    said |= {
                        "undone credits": (after.get("undone_credits", 0), undone_credits),
                        "undone debits": (after.get("undone_debits", 0), undone_debits),
                    }
            _differ(said, sequence, problem)


def _differ(said: dict[str, tuple], sequence: int, problem) -> None:
    wrong = [name for name, (event, stored) in said.items() if event != stored]
    if wrong:
        pairs = "; ".join(
            f"{name}: event {said[name][0]!r}, record {said[name][1]!r}" for name in wrong
        )
        problem(f"its audit event #{sequence} records another {', '.join(wrong)} ({pairs})")
