"""The audit report's reconciliation (§ 811a.9: a report of money reconciles it).

- **Stakes and returns three ways:** Σ the rounds' stakes = Σ their bets' stakes = − Σ
  their stake ledger entries; Σ the rounds' returns = Σ their bets' returns = Σ their
  return ledger entries.
- **Every wallet** that moved in the period: opening balance + top-ups − stakes + returns
  = closing balance, from its ledger over the period's instants (the whole wallet: a
  player may also have played at a holder or offering the report leaves out).
- **The chains:** the round chains of the period's rounds (``resettle``), and the whole
  audit trail (``portal.audit.chain.verify_stored``); both heads are printed so they can be
  kept outside the system and compared with a later report.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Min, Q, Sum

from portal.audit.chain import stored_head, verify_stored
from portal.core.hashing import canonical_digest
from portal.game.models import LedgerEntry, LedgerKind, Round
from portal.reports.audit.resettle import Pass
from portal.reports.audit.scope import Scope


@dataclass
class Money:
    rounds: int
    bets: int
    ledger: int

    @property
    def ok(self) -> bool:
        return self.rounds == self.bets == self.ledger


def ledger_of_rounds(scope: Scope) -> tuple[int, int]:
    """(− Σ stake entries, Σ return entries) of the scope's rounds."""
    sums = LedgerEntry.objects.filter(scope.q("round__")).aggregate(
        stakes=Sum("amount", filter=Q(kind=LedgerKind.STAKE)),
        returns=Sum("amount", filter=Q(kind=LedgerKind.RETURN)),
    )
    return -(sums["stakes"] or 0), sums["returns"] or 0


def wallets(scope: Scope) -> list[dict]:
    """Per wallet that moved over the period's instants: opening, top-ups, stakes, returns,
    closing, and whether they add up. Three queries whatever the number of wallets."""
    first, end = scope.money_span
    moved = (
        LedgerEntry.objects.filter(created_at__gte=first, created_at__lt=end)
        .values("wallet_id", "wallet__player_id")
        .annotate(
            entries=Count("pk"),
            top_ups=Sum("amount", filter=Q(kind=LedgerKind.TOP_UP)),
            stakes=Sum("amount", filter=Q(kind=LedgerKind.STAKE)),
            returns=Sum("amount", filter=Q(kind=LedgerKind.RETURN)),
            first_pk=Min("pk"),
            last_pk=Max("pk"),
        )
        .order_by("wallet_id")
    )
    if scope.holder_id is not None or scope.offering_id is not None:
        players = scope_players(scope)
        moved = moved.filter(wallet__player_id__in=players)
    moved = list(moved)
    ends = {
        pk: (balance_after - amount, balance_after)
        for pk, amount, balance_after in LedgerEntry.objects.filter(
            pk__in=[m["first_pk"] for m in moved] + [m["last_pk"] for m in moved]
        ).values_list("pk", "amount", "balance_after")
    }
    rows = []
    for m in moved:
        opening, closing = ends[m["first_pk"]][0], ends[m["last_pk"]][1]
        top_ups, stakes, returns = m["top_ups"] or 0, -(m["stakes"] or 0), m["returns"] or 0
        rows.append(
            {
                "wallet": m["wallet_id"],
                "player": m["wallet__player_id"],
                "entries": m["entries"],
                "opening": opening,
                "top_ups": top_ups,
                "stakes": stakes,
                "returns": returns,
                "closing": closing,
                "ok": opening + top_ups - stakes + returns == closing,
            }
        )
    return rows


def scope_players(scope: Scope):
    return Round.objects.filter(scope.q()).values("player_id").distinct()


def heads_digest(heads: dict[int, tuple[int, str]]) -> str:
    """One hash for all the players' chain heads at the period's end, to keep outside."""
    return canonical_digest(
        {"heads": [[player, seq, hash_] for player, (seq, hash_) in sorted(heads.items())]}
    )


def reconciliation(*, stakes: Money, returns: Money, wallet_rows: list[dict], found: Pass) -> dict:
    """The contract's ``reconciliation`` object; the audit chain is verified here."""
    audit = verify_stored()
    sequence, head = stored_head()
    bad_wallets = [row for row in wallet_rows if not row["ok"]]
    return {
        "ok": stakes.ok
        and returns.ok
        and not bad_wallets
        and found.chain_problem_count == 0
        and audit.ok,
        "stakes": {"rounds": stakes.rounds, "bets": stakes.bets, "ledger": stakes.ledger},
        "returns": {"rounds": returns.rounds, "bets": returns.bets, "ledger": returns.ledger},
        "wallets": {"checked": len(wallet_rows), "mismatched": [r["wallet"] for r in bad_wallets]},
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
