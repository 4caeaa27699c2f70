"""The audit report's reconciliation (§ 811a.9: a report of money reconciles it).

- **Stakes and returns three ways:** Σ the rounds' stakes = Σ their bets' stakes = − Σ
  their stake ledger entries; Σ the rounds' returns = Σ their bets' returns = Σ their
  return ledger entries (of the rounds played: void rounds are reconciled apart).
- **Voids and adjustments** (§ 617a.6, § 812a.7(a)(9)): the void rounds' stakes (with
  what their earlier adjustments debited, reading:corrections-compose) were given back,
  their returns (with what those adjustments credited) taken back or recorded as
  uncollected; each adjustment's difference was credited, or debited and uncollected. The
  same holds, apart, for the corrections applied in the period to rounds of earlier
  gaming days (reading:late-corrections), whose money the account lines carry.
- **Every account** that moved in the period (reading:one-account-per-holder; and the
  single wallet of before accounts per holder, where its older entries fall in it):
  opening balance (its last entry before) + deposits (older top-ups among them) −
  withdrawals paid − stakes + returns (+ carried in − carried out, + voids and adjustments
  in − out) = closing balance,
  every entry's running balance, and every round entry against its round's recorded
  balances. A report of one holder reads only that holder's accounts. The account lines
  are read by ``reading.ledger``; this reconciles them.
- **The chains:** the round chains of the period's rounds (the pass), and the whole
  audit trail (``portal.audit.chain.verify_stored``); both heads are printed so they can be
  kept outside the system and compared with a later report.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from portal.audit.chain import stored_head, verify_stored
from portal.game.chain import heads_digest
from portal.game.models import (
    CorrectionKind,
    CorrectionStatus,
    LedgerEntry,
    LedgerKind,
    Round,
    RoundCorrection,
)
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.scope import Scope


@dataclass
class Money:
    rounds: int
    bets: int
    ledger: int

    @property
    def ok(self) -> bool:
        return self.rounds == self.bets == self.ledger


def ledger_of_rounds(scope: Scope) -> tuple[int, int]:
    """(− Σ stake entries, Σ return entries) of the scope's rounds played (not void)."""
    # The rounds as a subquery: joined instead, the planner may walk the ledger round by round.
    played = Round.objects.filter(scope.played()).values("pk")
    sums = LedgerEntry.objects.filter(round__in=played).aggregate(
        stakes=Sum("amount", filter=Q(kind=LedgerKind.STAKE)),
        returns=Sum("amount", filter=Q(kind=LedgerKind.RETURN)),
    )
    return -(sums["stakes"] or 0), sums["returns"] or 0


@dataclass(frozen=True)
class Corrected:
    """The money of the period's void rounds and of its rounds' adjustments (decided before
    the cutoff), as the rounds, the corrections and the ledger each say it."""

    void_rounds: int
    void_staked: int  # Σ the void rounds' stakes
    void_returned: int  # Σ their returns
    # Σ what the voids undid of their rounds' earlier adjustments (reading:corrections-compose)
    void_undone_debits: int  # adjustment debits given back
    void_undone_credits: int  # adjustment credits taken back
    given_back: int  # Σ void "stakes given back" entries
    taken_back: int  # Σ void "returns taken back" entries (unsigned)
    void_uncollected: int
    adjustments: int
    adjusted: int  # Σ the adjustments' differences (signed)
    adjusted_in: int  # Σ adjustment credits
    adjusted_out: int  # Σ adjustment debits (unsigned)
    adjustment_uncollected: int

    @property
    def voids_ok(self) -> bool:
        return (
            self.given_back == self.void_staked + self.void_undone_debits
            and self.taken_back + self.void_uncollected
            == self.void_returned + self.void_undone_credits
        )

    @property
    def adjustments_ok(self) -> bool:
        return self.adjusted == self.adjusted_in - self.adjusted_out - self.adjustment_uncollected


def corrected(scope: Scope) -> Corrected:
    """The money of the period's void rounds and of its rounds' adjustments, decided before
    the cutoff: one query. A void of a round in the period counts here whenever the money
    moved, since it is the round's period it corrects."""
    return _corrections_money(
        RoundCorrection.objects.filter(
            scope.q("round__"), status=CorrectionStatus.APPROVED, decided_at__lt=scope.cutoff
        )
    )


def corrected_late(scope: Scope) -> Corrected:
    """The money of the corrections applied in the period to rounds of earlier gaming days
    (reading:late-corrections): one query."""
    return _corrections_money(
        RoundCorrection.objects.filter(scope.applied_late(), status=CorrectionStatus.APPROVED)
    )


# The ledger entries a correction moved money by, summed by kind: each is reached from its
# correction (by the entry's key), so the sums read only the corrections' own entries, however
# long the ledger has grown.
ENTRY_KINDS = (
    LedgerKind.VOID_STAKES,
    LedgerKind.VOID_RETURNS,
    LedgerKind.ADJUSTMENT_CREDIT,
    LedgerKind.ADJUSTMENT_DEBIT,
)
ENTRY_SIDES = ("credit_entry", "debit_entry")


def _corrections_money(decided) -> Corrected:
    """One query: the ``decided`` corrections' sums (with their rounds'), and the sums of the
    ledger entries they moved money by."""
    void, adjustment = Q(kind=CorrectionKind.VOID), Q(kind=CorrectionKind.ADJUSTMENT)
    # A round is voided at most once: the voids' rounds' totals are the void rounds'. A
    # correction has at most one entry on each side, so joining them repeats no row.
    entries = {
        f"{side}_{kind.value}": Sum(f"{side}__amount", filter=Q(**{f"{side}__kind": kind}))
        for side in ENTRY_SIDES
        for kind in ENTRY_KINDS
    }
    sums = decided.aggregate(
        void_rounds=Count("pk", filter=void),
        void_staked=Sum("round__total_staked", filter=void),
        void_returned=Sum("round__total_returned", filter=void),
        void_uncollected=Sum("uncollected", filter=void),
        void_undone_debits=Sum("undone_debits", filter=void),
        void_undone_credits=Sum("undone_credits", filter=void),
        adjusted=Sum("amount", filter=adjustment),
        adjustment_uncollected=Sum("uncollected", filter=adjustment),
        adjustments=Count("pk", filter=adjustment),
        **entries,
    )
    moved = {
        kind: sum(sums[f"{side}_{kind.value}"] or 0 for side in ENTRY_SIDES) for kind in ENTRY_KINDS
    }
    return Corrected(
        void_rounds=sums["void_rounds"],
        void_staked=sums["void_staked"] or 0,
        void_returned=sums["void_returned"] or 0,
        void_undone_debits=sums["void_undone_debits"] or 0,
        void_undone_credits=sums["void_undone_credits"] or 0,
        given_back=moved[LedgerKind.VOID_STAKES],
        taken_back=-moved[LedgerKind.VOID_RETURNS],
        void_uncollected=sums["void_uncollected"] or 0,
        adjustments=sums["adjustments"],
        adjusted=sums["adjusted"] or 0,
        adjusted_in=moved[LedgerKind.ADJUSTMENT_CREDIT],
        adjusted_out=-moved[LedgerKind.ADJUSTMENT_DEBIT],
        adjustment_uncollected=sums["adjustment_uncollected"] or 0,
    )


def _voids_json(c: Corrected) -> dict:
    return {
        "ok": c.voids_ok,
        "rounds": c.void_rounds,
        "staked": c.void_staked,
        "returned": c.void_returned,
        "given_back": c.given_back,
        "taken_back": c.taken_back,
        "uncollected": c.void_uncollected,
        "adjustment_debits_given_back": c.void_undone_debits,
        "adjustment_credits_taken_back": c.void_undone_credits,
    }


def _adjustments_json(c: Corrected) -> dict:
    return {
        "ok": c.adjustments_ok,
        "count": c.adjustments,
        "difference": c.adjusted,
        "credited": c.adjusted_in,
        "debited": c.adjusted_out,
        "uncollected": c.adjustment_uncollected,
    }


def ledger_label(row: dict) -> str:
    """An account line's name: the account, or the single wallet of older entries."""
    if row["account"] is not None:
        return f"account #{row['account']}"
    return f"wallet #{row['wallet']} (single wallet)"


def reconciliation(
    *,
    stakes: Money,
    returns: Money,
    account_lines: list[dict],
    found: Pass,
    corrections: Corrected,
    late: Corrected,
) -> dict:
    """The contract's ``reconciliation`` object; the audit chain is verified here.
    ``late``: the corrections applied in the period to rounds of earlier gaming days."""
    audit = verify_stored()
    sequence, head = stored_head()
    bad = [row for row in account_lines if not row["ok"]]
    c = corrections
    return {
        "ok": stakes.ok
        and returns.ok
        and c.voids_ok
        and c.adjustments_ok
        and late.voids_ok
        and late.adjustments_ok
        and not bad
        and found.chain_problem_count == 0
        and audit.ok,
        "stakes": {"rounds": stakes.rounds, "bets": stakes.bets, "ledger": stakes.ledger},
        "returns": {"rounds": returns.rounds, "bets": returns.bets, "ledger": returns.ledger},
        "voids": _voids_json(c),
        "adjustments": _adjustments_json(c),
        "late_corrections": {
            "ok": late.voids_ok and late.adjustments_ok,
            "voids": _voids_json(late),
            "adjustments": _adjustments_json(late),
        },
        "accounts": {"checked": len(account_lines), "mismatched": [ledger_label(r) for r in bad]},
        "round_chains": {
            "ok": found.chain_problem_count == 0,
            "rounds_checked": found.rounds_checked,
            "problems": found.chain_problem_count,
            "players": len(found.heads),
            "heads_digest": heads_digest(found.heads),
        },
        "audit_chain": {
            "ok": audit.ok,
            "events_checked": audit.checked,
            "head": {"sequence": sequence, "hash": head},
            "problem": audit.problem,
        },
    }
