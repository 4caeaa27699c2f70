"""The audit report's reconciliation (§ 811a.9: a report of money reconciles it).

- **Stakes and returns three ways:** Σ the rounds' stakes = Σ their bets' stakes = − Σ
  their stake ledger entries; Σ the rounds' returns = Σ their bets' returns = Σ their
  return ledger entries.
- **Every wallet** that moved in the period: opening balance (its last entry before) +
  top-ups − stakes + returns = closing balance, every entry's running balance, and every
  round entry against its round's recorded balances (the whole wallet: a player may also
  have played at a holder or offering the report leaves out).
- **The chains:** the round chains of the period's rounds (``resettle``), and the whole
  audit trail (``portal.audit.chain.verify_stored``); both heads are printed so they can be
  kept outside the system and compared with a later report.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery, Sum

from portal.audit.chain import stored_head, verify_stored
from portal.game.chain import heads_digest
from portal.game.models import LedgerEntry, LedgerKind, Round, Wallet
from portal.reports.audit_report.resettle import Pass
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
    """(− Σ stake entries, Σ return entries) of the scope's rounds."""
    sums = LedgerEntry.objects.filter(scope.q("round__")).aggregate(
        stakes=Sum("amount", filter=Q(kind=LedgerKind.STAKE)),
        returns=Sum("amount", filter=Q(kind=LedgerKind.RETURN)),
    )
    return -(sums["stakes"] or 0), sums["returns"] or 0


def wallets(scope: Scope) -> list[dict]:
    """Per wallet that moved over the period's instants: its opening balance (its last
    entry before the period), top-ups, stakes, returns and closing balance, each entry's
    running balance checked, and each round entry checked against the balances its round
    recorded (and hashed), as ``chain.verify_ledgers`` does. Two queries; the entries are
    streamed, one wallet's sums kept at a time."""
    first, end = scope.money_span
    entries = LedgerEntry.objects.filter(created_at__gte=first, created_at__lt=end)
    if scope.holder_id is not None or scope.offering_id is not None:
        entries = entries.filter(wallet__player_id__in=scope_players(scope))
    before = LedgerEntry.objects.filter(wallet=OuterRef("pk"), created_at__lt=first)
    last_before = before.order_by("-created_at", "-pk").values("balance_after")[:1]
    openings = dict(
        Wallet.objects.filter(pk__in=entries.values("wallet_id"))
        .annotate(opening=Subquery(last_before))
        .values_list("pk", "opening")
    )
    streamed = entries.order_by("wallet_id", "pk").values_list(*LEDGER_COLUMNS)
    rows: list[dict] = []
    row = None
    for (
        wallet,
        player,
        kind,
        amount,
        after,
        round_id,
        r_before,
        r_staked,
        r_after,
    ) in streamed.iterator(chunk_size=10_000):
        if row is None or row["wallet"] != wallet:
            opening = openings.get(wallet) or 0
            row = {
                "wallet": wallet, "player": player, "entries": 0, "opening": opening,
                "top_ups": 0, "stakes": 0, "returns": 0, "closing": opening, "problem": "",
            }  # fmt: skip
            rows.append(row)
        row["entries"] += 1
        row[KIND_SUM[kind]] += abs(amount)
        row["closing"] += amount
        if after != row["closing"] and not row["problem"]:
            row["problem"] = f"an entry says {after}, the ledger adds up to {row['closing']}"
        if round_id is not None and not row["problem"]:
            recorded = r_before - r_staked if kind == LedgerKind.STAKE else r_after
            if after != recorded:
                row["problem"] = f"round {round_id} recorded {recorded}, its entry {after}"
    for row in rows:
        row["ok"] = not row["problem"]
    return rows


LEDGER_COLUMNS = (
    "wallet_id",
    "wallet__player_id",
    "kind",
    "amount",
    "balance_after",
    "round_id",
    "round__balance_before",
    "round__total_staked",
    "round__balance_after",
)
KIND_SUM = {LedgerKind.TOP_UP: "top_ups", LedgerKind.STAKE: "stakes", LedgerKind.RETURN: "returns"}


def scope_players(scope: Scope):
    return Round.objects.filter(scope.q()).values("player_id").distinct()


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
