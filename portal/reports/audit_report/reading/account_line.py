"""An account line of the audit report's reconciliation: what it adds up, by kind of
ledger entry, and how a new one starts. Shared by the two readers of the ledger:
``ledger.account_lines`` (the ORM) and ``ledger_copy`` (PostgreSQL's COPY). What a line's
entries are held to is the one ledger check's (``portal.game.ledger``)."""

from __future__ import annotations

from portal.game.models import LedgerKind
from portal.reports.audit_report.scope import Scope

# What each kind of entry adds to (older top-ups are deposits); all amounts unsigned.
KIND_SUM = {
    LedgerKind.TOP_UP: "deposits",
    LedgerKind.DEPOSIT: "deposits",
    LedgerKind.WITHDRAWAL: "withdrawals",
    LedgerKind.STAKE: "stakes",
    LedgerKind.RETURN: "returns",
    LedgerKind.CARRIED_IN: "carried_in",
    LedgerKind.CARRIED_OUT: "carried_out",
    LedgerKind.VOID_STAKES: "voids_in",
    LedgerKind.VOID_RETURNS: "voids_out",
    LedgerKind.ADJUSTMENT_CREDIT: "adjustments_in",
    LedgerKind.ADJUSTMENT_DEBIT: "adjustments_out",
}
MONEY_MOVED = (
    *("deposits", "withdrawals", "stakes", "returns", "carried_in", "carried_out"),
    *("voids_in", "voids_out", "adjustments_in", "adjustments_out"),
)


def new_line(
    scope: Scope, key: tuple[str, int], account, holder, wallet, player, opening: int
) -> dict:
    """A new account line (``key``: ("account", pk) or ("wallet", pk)), nothing moved yet;
    the other values are its first entry's."""
    return {
        "key": key, "account": account, "wallet": wallet, "player": player,
        "holder": holder_name(scope, holder), "entries": 0, "opening": opening,
        **dict.fromkeys(MONEY_MOVED, 0), "closing": opening, "problem": "",
    }  # fmt: skip


def holder_name(scope: Scope, holder: int | None) -> str:
    if holder is None:
        return ""
    found = scope.holders.get(holder)
    return found.name if found is not None else f"holder #{holder}"
