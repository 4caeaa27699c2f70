"""The audit report's proofs as sections: RNG methods, the re-settlement, the
reconciliation, the player accounts and the chain heads."""

from __future__ import annotations

import jinzi
from portal.core.player_refs import player_ref
from portal.reports.audit_report.figures.sums import OddRng
from portal.reports.audit_report.resettlement.findings import PROBLEMS_LISTED, Pass
from portal.reports.audit_report.scope import Scope
from portal.reports.document import column, section

PASSED = "ok"  # what a check that passed says (a blank could be a check not made)


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
    return section(
        "rng",
        "Rounds not drawn by the OS CSPRNG",
        columns,
        rows,
        notes=notes,
        sheet="Rounds not by the OS CSPRNG",
    )


def resettlement_section(found: Pass) -> dict:
    rows = [dict(d) for d in found.discrepancies]
    notes = [
        f"Every bet of every round in the period settled again through jinzi's batch path "
        f"from its recorded wager, stake, outcome, odds and wheel (§ 617b.8(f), (g)): "
        f"{found.bets_checked:,} bets in {found.rounds_checked:,} rounds checked, "
        f"{found.discrepancy_count:,} discrepancies.",
    ]
    if found.discrepancy_count > len(rows):
        notes.append(f"The first {PROBLEMS_LISTED:,} are listed.")
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


def _ok(flag: bool) -> str:
    return PASSED if flag else "does not reconcile"


def _correction_rows(voids: dict, adjusted: dict, void_label: str, label: str) -> list[dict]:
    """The reconciliation's three lines of a set of corrections (§ 617a.6, § 812a.7(a)(9)):
    the voids' stakes, their returns, the adjustments' differences."""
    given_back = voids["staked"] + voids["adjustment_debits_given_back"]
    owed = voids["returned"] + voids["adjustment_credits_taken_back"]
    return [
        {
            "check": f"{void_label} ({voids['rounds']:,}): their stakes and the adjustment "
            "debits they undid = stakes given back",
            "rounds": given_back,
            "ledger": voids["given_back"],
            "flag": _ok(given_back == voids["given_back"]),
        },
        {
            "check": f"{void_label}: their returns and the adjustment credits they undid = "
            f"returns taken back + uncollected ({voids['uncollected']:,} cents uncollected)",
            "rounds": owed,
            "ledger": voids["taken_back"] + voids["uncollected"],
            "flag": _ok(owed == voids["taken_back"] + voids["uncollected"]),
        },
        {
            "check": f"{label} ({adjusted['count']:,}): differences = credited − debited "
            f"− uncollected ({adjusted['uncollected']:,} cents uncollected)",
            "rounds": adjusted["difference"],
            "ledger": adjusted["credited"] - adjusted["debited"] - adjusted["uncollected"],
            "flag": _ok(adjusted["ok"]),
        },
    ]


def reconciliation_section(reconciliation: dict) -> dict:

    stakes, returns = reconciliation["stakes"], reconciliation["returns"]
    voids, adjusted = reconciliation["voids"], reconciliation["adjustments"]
    chains, audit = reconciliation["round_chains"], reconciliation["audit_chain"]
    late = reconciliation["late_corrections"]
    rows = [
        {
            "check": "Stakes: rounds = bets = − stake ledger entries",
            "rounds": stakes["rounds"],
            "bets": stakes["bets"],
            "ledger": stakes["ledger"],
            "flag": _ok(stakes["rounds"] == stakes["bets"] == stakes["ledger"]),
        },
        {
            "check": "Returns: rounds = bets = return ledger entries",
            "rounds": returns["rounds"],
            "bets": returns["bets"],
            "ledger": returns["ledger"],
            "flag": _ok(returns["rounds"] == returns["bets"] == returns["ledger"]),
        },
        *_correction_rows(voids, adjusted, "Void rounds", "Adjustments"),
        *_correction_rows(
            late["voids"],
            late["adjustments"],
            "Voids applied to earlier gaming days",
            "Adjustments applied to earlier gaming days",
        ),
        {
            "check": "Player accounts: opening + deposits − withdrawals paid − stakes + "
            f"returns (+ carried in − carried out, + voids and adjustments in − out) = closing "
            f"({reconciliation['accounts']['checked']:,} accounts)",
            "flag": _ok(not reconciliation["accounts"]["mismatched"]),
        },
        {
            "check": f"Round chains of the period ({chains['rounds_checked']:,} rounds, "
            f"{chains['players']:,} players); heads digest {chains['heads_digest']}",
            "flag": PASSED if chains["ok"] else f"{chains['problems']:,} problems (listed below)",
        },
        {
            "check": f"Audit trail chain ({audit['events_checked']:,} events); head "
            f"#{audit['head']['sequence']} {audit['head']['hash']}",
            "flag": PASSED if audit["ok"] else audit["problem"],
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
        "Keep both chain heads outside the system: a later report, or the operators' round and "
        "audit chain checks, must find the same heads at these points (§ 811a.7).",
        "All reconcile." if reconciliation["ok"] else "SOMETHING DOES NOT RECONCILE: see above.",
    ]
    return section("reconciliation", "Reconciliation", columns, rows, notes=notes)


MONEY_OF_ACCOUNT = (
    "opening",
    "deposits",
    "withdrawals",
    "stakes",
    "returns",
    "carried_in",
    "carried_out",
    "voids_in",
    "voids_out",
    "adjustments_in",
    "adjustments_out",
    "closing",
)


def accounts_section(rows: list[dict]) -> dict:
    """**Reading** (reading:one-account-per-holder): a player's money with a holder is their
    account with that holder, so a report narrowed to one holder or offering (which its
    managers may read) lists that holder's accounts only, in full, and never the play of
    its players elsewhere. Money of the single wallet from before accounts per holder is
    its own line, in a report of every holder."""
    shown = [
        {
            "account": row["account"] if row["account"] is not None else "single wallet",
            "holder": row["holder"],
            "player": player_ref(row["player"]),
            "entries": row["entries"],
            **{key: row[key] for key in MONEY_OF_ACCOUNT},
            "flag": row["problem"] or PASSED,
        }
        for row in rows
    ]
    columns = [
        column("account", "Account"),
        column("holder", "Certificate holder"),
        column("player", "Player"),
        column("entries", "Ledger entries", "integer"),
        column("opening", "Opening", "money"),
        column("deposits", "Deposits", "money"),
        column("withdrawals", "Withdrawals paid", "money"),
        column("stakes", "Stakes", "money"),
        column("returns", "Returns", "money"),
        column("carried_in", "Carried in", "money"),
        column("carried_out", "Carried out", "money"),
        column("voids_in", "Void: stakes given back", "money"),
        column("voids_out", "Void: returns taken back", "money"),
        column("adjustments_in", "Adjustments credited", "money"),
        column("adjustments_out", "Adjustments debited", "money"),
        column("closing", "Closing", "money"),
        column("flag", "Check", "flag"),
    ]
    keys = ("entries", *MONEY_OF_ACCOUNT[1:-1])
    totals = {key: sum(row[key] for row in rows) for key in keys}
    notes = [
        "Each player account's ledger over the period's instants (§ 811a.9, § 812a.4): "
        "opening (its last entry before) + deposits − withdrawals paid − stakes + returns "
        "(+ carried in − carried out, + voids and adjustments in − out) = closing; every "
        "entry's running balance; every stake and return entry against the balances its "
        "round recorded. A withdrawal still pending moves "
        "nothing until it is paid (§ 812a.10).",
        "Demo top-ups of the single wallet used before accounts per holder count as "
        "deposits; that wallet's balance was carried into the player's holder accounts "
        "(carried out of the wallet, carried into each account).",
    ]
    return section(
        "accounts",
        "Player accounts",
        columns,
        shown,
        totals=totals if rows else None,
        notes=notes,
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
