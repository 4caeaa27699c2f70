"""The audit report's proofs as sections: RNG methods, the re-settlement, the
reconciliation, the wallets and the chain heads."""

from __future__ import annotations

import jinzi
from portal.reports.audit_report.figures import OddRng
from portal.reports.audit_report.resettle import LISTED, Pass
from portal.reports.audit_report.scope import Scope
from portal.reports.document import column, section


def player_ref(player_id: int) -> str:
    """**Reading** (reading:player-internal-id): a player is named by the portal's internal
    id, never by name or username: pseudonymous, yet it leads back to the account for those
    allowed to look."""
    return f"P{player_id}"


def odd_rng_section(scope: Scope, odd: OddRng) -> dict:
    rows = [
        {
            "round": r["pk"],
            "offering": scope.offerings[r["offering_id"]][1],
            "player": player_ref(r["player_id"]),
            "started": r["started_at"].isoformat(),
            "method": r["rng_method"],
            "raw": r["rng_raw"],
            "outcome": r["outcome"],
        }
        for r in odd.rounds
    ]
    notes = [
        f"§ 810a.5 asks for a cryptographically strong RNG: every round's method should read "
        f"'{jinzi.RNG_METHOD}' (the OS CSPRNG). Rounds recorded with any other: {odd.count:,}.",
    ]
    if odd.count > len(rows):
        notes.append(f"The first {len(rows):,} are listed, by round id.")
    columns = [
        column("round", "Round id", "integer"),
        column("offering", "Offering"),
        column("player", "Player"),
        column("started", "Started", "datetime"),
        column("method", "RNG method", "flag"),
        column("raw", "Raw value", "integer"),
        column("outcome", "Outcome", "integer"),
    ]
    return section("rng", "Rounds not drawn by the OS CSPRNG", columns, rows, notes=notes)


def resettlement_section(found: Pass) -> dict:
    rows = [dict(d) for d in found.discrepancies]
    notes = [
        f"Every bet of every round in the period settled again through jinzi's batch path "
        f"from its recorded wager, stake, outcome, odds and wheel (§ 617b.8(f), (g)): "
        f"{found.bets_checked:,} bets in {found.rounds_checked:,} rounds checked, "
        f"{found.discrepancy_count:,} discrepancies.",
    ]
    if found.discrepancy_count > len(rows):
        notes.append(f"The first {LISTED:,} are listed.")
    columns = [
        column("round", "Round id", "integer"),
        column("position", "Bet position", "integer"),
        column("spot", "Spot"),
        column("stake", "Stake", "money"),
        column("paid", "Paid", "money"),
        column("settled", "Settled again", "money"),
        column("problem", "Problem", "flag"),
    ]
    return section("resettlement", "Independent re-settlement", columns, rows, notes=notes)


def reconciliation_section(reconciliation: dict) -> dict:
    def ok(flag: bool) -> str:
        return "" if flag else "does not reconcile"

    stakes, returns = reconciliation["stakes"], reconciliation["returns"]
    chains, audit = reconciliation["round_chains"], reconciliation["audit_chain"]
    rows = [
        {
            "check": "Stakes: rounds = bets = − stake ledger entries",
            "rounds": stakes["rounds"],
            "bets": stakes["bets"],
            "ledger": stakes["ledger"],
            "flag": ok(stakes["rounds"] == stakes["bets"] == stakes["ledger"]),
        },
        {
            "check": "Returns: rounds = bets = return ledger entries",
            "rounds": returns["rounds"],
            "bets": returns["bets"],
            "ledger": returns["ledger"],
            "flag": ok(returns["rounds"] == returns["bets"] == returns["ledger"]),
        },
        {
            "check": f"Wallets: opening + top-ups − stakes + returns = closing "
            f"({reconciliation['wallets']['checked']:,} wallets)",
            "flag": ok(not reconciliation["wallets"]["mismatched"]),
        },
        {
            "check": f"Round chains of the period ({chains['rounds_checked']:,} rounds, "
            f"{chains['players']:,} players); heads digest {chains['heads_digest']}",
            "flag": "" if chains["ok"] else f"{chains['problems']:,} problems (listed below)",
        },
        {
            "check": f"Audit trail chain ({audit['events_checked']:,} events); head "
            f"#{audit['head']['sequence']} {audit['head']['hash']}",
            "flag": "" if audit["ok"] else audit["problem"],
        },
    ]
    columns = [
        column("check", "Check"),
        column("rounds", "Rounds (cents)", "money"),
        column("bets", "Bets (cents)", "money"),
        column("ledger", "Ledger (cents)", "money"),
        column("flag", "Result", "flag"),
    ]
    notes = [
        "Keep both chain heads outside the system: a later report, or verify_round_chain and "
        "verify_audit_chain, must find the same heads at these points (§ 811a.7).",
        "All reconcile." if reconciliation["ok"] else "SOMETHING DOES NOT RECONCILE: see above.",
    ]
    return section("reconciliation", "Reconciliation", columns, rows, notes=notes)


MONEY_OF_WALLET = ("opening", "top_ups", "stakes", "returns", "closing")


def wallets_section(scope: Scope, rows: list[dict]) -> dict:
    """**Reading** (reading:player-wallet): a wallet is the player's, not a holder's: a
    report narrowed to one holder or offering (which its managers may read) checks the whole
    wallet of each of its players but shows only whether it reconciles, never the amounts of
    play elsewhere (reading:player-wallet)."""
    narrowed = scope.holder_id is not None or scope.offering_id is not None
    shown = []
    for row in rows:
        values = {
            "wallet": row["wallet"],
            "player": player_ref(row["player"]),
            "entries": row["entries"],
            "flag": row["problem"],
        }
        if not narrowed:
            values |= {key: row[key] for key in MONEY_OF_WALLET}
        shown.append(values)
    columns = [
        column("wallet", "Wallet", "integer"),
        column("player", "Player"),
        column("entries", "Ledger entries", "integer"),
        column("opening", "Opening", "money"),
        column("top_ups", "Top-ups", "money"),
        column("stakes", "Stakes", "money"),
        column("returns", "Returns", "money"),
        column("closing", "Closing", "money"),
        column("flag", "Check", "flag"),
    ]
    keys = ("entries",) if narrowed else ("entries", "top_ups", "stakes", "returns")
    totals = {key: sum(row[key] for row in rows) for key in keys}
    notes = [
        "Each wallet's ledger over the period's instants: opening (its last entry before) + "
        "top-ups − stakes + returns = closing; every entry's running balance; every round "
        "entry against the balances its round recorded.",
    ]
    if narrowed:
        notes.append(
            "Narrowed to one holder or offering: each player's whole wallet is checked, and "
            "only the result is shown (the wallet also holds play elsewhere)."
        )
    return section(
        "wallets", "Wallets", columns, shown, totals=totals if rows else None, notes=notes
    )


def chains_section(found: Pass) -> dict:
    rows = [
        {"round": p["round"], "player": player_ref(p["player"]), "problem": p["problem"]}
        for p in found.chain_problems
    ]
    heads = [
        {"round": None, "player": player_ref(player), "sequence": seq, "hash": hash_}
        for player, (seq, hash_) in sorted(found.heads.items())
    ]
    columns = [
        column("player", "Player"),
        column("sequence", "Last round (sequence)", "integer"),
        column("hash", "Chain head (SHA-256)"),
        column("round", "Broken at round id", "integer"),
        column("problem", "Problem", "flag"),
    ]
    notes = [
        "Each player's rounds form a SHA-256 chain (§ 811a.7); the heads are each player's "
        "last round in the period. Problems come first.",
    ]
    return section("chains", "Round chains", columns, [*rows, *heads], notes=notes)
