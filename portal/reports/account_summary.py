"""The daily Player Account Summary (§ 811a.9(d)(1)): for one gaming day, each player
account's transactions by the categories the rule names, per certificate holder.

The account lines are the audit report's (``audit_report.reading.ledger.account_lines``:
each account that moved over the holder's gaming day, its opening balance, its sums by kind
of ledger entry, its closing balance, each entry held to the one ledger check), read over
the holder's own gaming day (reading:gaming-day). One more query per holder reads what of
the deposits was promotional credit.

How the rule's categories read here (each is also a note in the document):
- *by game type (sports, slots and tables)*: every transfer to and from a game is a round of
  Jinzi Roulette, a table game, so it is reported under "tables"; there is nothing else.
- *noncashable bonuses*: promotional credit (§ 812a.7(a)) is deposited as cash, to be
  wagered or withdrawn like any deposit; it is counted in the deposits, shown apart, and is
  not a noncashable bonus. No noncashable bonus exists, so its three categories are zero.
- *test accounts*: the project has none; every account listed is a player's.
- *funds on game*: a round is staked, drawn and settled in one step, so no wager is pending
  when a gaming day starts or ends; both are zero, and the player's win or loss is what
  came back from the game less what went to it.
- voids and adjustments (§ 617a.6, § 812a.7(a)(9)) are counted on the day they were applied
  (reading:late-corrections), and so is a carry-over from the single wallet.

A day when no account moved says "No Activity" (§ 811a.9).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.db.models import Sum
from django.utils import timezone

from portal.accounts.models import CertificateHolder
from portal.core.player_refs import player_ref
from portal.game.models import DepositMethod, LedgerEntry, LedgerKind
from portal.reports.audit_report.reading.ledger import account_lines
from portal.reports.audit_report.scope import Scope, scope_of
from portal.reports.audit_report.sections.checks import PASSED
from portal.reports.document import column, made, section

TITLE = "Player Account Summary"
DEFINITION_VERSION = "1"
ALL_HOLDERS = "All certificate holders"

COLUMNS = [
    column("holder", "Certificate holder"),
    column("account", "Account"),
    column("player", "Player"),
    column("opening", "Beginning balance", "money"),
    column("deposits", "Deposits", "money"),
    column("promotional", "Of which promotional credit (cashable)", "money"),
    column("bonus_deposited", "Noncashable bonuses deposited", "money"),
    column("bonus_wagered", "Noncashable bonuses wagered: tables", "money"),
    column("bonus_expired", "Noncashable bonuses expired", "money"),
    column("to_games", "Transfers to games: tables", "money"),
    column("from_games", "Transfers from games: tables", "money"),
    column("withdrawals", "Withdrawals", "money"),
    column("on_game_start", "Funds on game at the start of the day", "money"),
    column("on_game_end", "Funds on game at the end of the day", "money"),
    column("win_loss", "Player win or loss", "money"),
    column("corrections", "Voids and adjustments (net)", "money"),
    column("carried", "Carried over from the single wallet (net)", "money"),
    column("closing", "Ending balance", "money"),
    column("flag", "Check", "flag"),
]
SUMMED = [c["key"] for c in COLUMNS if c["type"] == "money"]

NOTES = [
    "§ 811a.9(d)(1): each player account's transactions over the certificate holder's "
    "gaming day, by the categories the rule names. Accounts with no transaction that day "
    "are not listed.",
    "Game type: every transfer to and from a game is a round of Jinzi Roulette, a table "
    "game, so it is reported under tables; no sports or slots are offered.",
    "Promotional credit is deposited as cash: it can be wagered and withdrawn like any "
    "deposit, so it is counted in the deposits (and shown apart) and is not a noncashable "
    "bonus. No noncashable bonus is issued: those three categories are zero.",
    "Test accounts: none exist; every account listed is a player's.",
    "Funds on game: a round is staked, drawn and settled in one step, so no wager is "
    "pending when a gaming day starts or ends; both are zero. The player's win or loss is "
    "the transfers from games less the transfers to games.",
    "Voids and adjustments (§ 617a.6, § 812a.7(a)(9)) count on the day they were applied "
    "(reading:late-corrections), whichever day their round was played.",
    "Each account reconciles: beginning balance + deposits − withdrawals − transfers to "
    "games + transfers from games + voids and adjustments + carried over = ending balance, "
    "every entry held to its running balance and to the balances its round recorded.",
]


def _promotional(scope: Scope) -> dict[int, int]:
    """Each account's promotional credit deposited over the holder's day: one query."""
    first, end = scope.money_span
    rows = (
        LedgerEntry.objects.filter(
            kind=LedgerKind.DEPOSIT,
            deposit__method=DepositMethod.PROMOTIONAL,
            created_at__gte=first,
            created_at__lt=end,
            account__holder_id__in=list(scope.holders),
        )
        .values("account_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    return {row["account_id"]: row["total"] for row in rows}


def _row(line: dict, promotional: dict[int, int]) -> dict:
    corrections = (
        line["voids_in"] - line["voids_out"] + line["adjustments_in"] - line["adjustments_out"]
    )
    return {
        "holder": line["holder"],
        "account": f"Account #{line['account']}",
        "player": player_ref(line["player"]),
        "opening": line["opening"],
        "deposits": line["deposits"],
        "promotional": promotional.get(line["account"], 0),
        "bonus_deposited": 0,
        "bonus_wagered": 0,
        "bonus_expired": 0,
        "to_games": line["stakes"],
        "from_games": line["returns"],
        "withdrawals": line["withdrawals"],
        "on_game_start": 0,
        "on_game_end": 0,
        "win_loss": line["returns"] - line["stakes"],
        "corrections": corrections,
        "carried": line["carried_in"] - line["carried_out"],
        "closing": line["closing"],
        "flag": line["problem"] or PASSED,
    }


def _summed(rows: list[dict]) -> dict[str, int]:
    return {key: sum(row[key] for row in rows) for key in SUMMED}


def account_summary(
    *,
    day: datetime.date,
    holder_id: int | None = None,
    now: datetime.datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The summary of gaming ``day`` for one holder, or for every holder (each over its own
    gaming day, with a subtotal each), as of ``now``."""
    now = now or timezone.now()
    holders = CertificateHolder.objects.order_by("name")
    if holder_id is not None:
        holders = holders.filter(pk=holder_id)
    chosen = list(holders.values_list("pk", "name"))
    rows: list[dict] = []
    mismatched: list[str] = []
    accounts = 0
    for number, (pk, name) in enumerate(chosen, start=1):
        scope = scope_of(start=day, end=day, holder_id=pk, offering_id=None, cutoff=now)
        lines = account_lines(scope)
        promotional = _promotional(scope)
        found = [_row(line, promotional) for line in lines]
        accounts += len(found)
        mismatched += [row["account"] for row in found if row["flag"] != PASSED]
        rows += found
        if found and holder_id is None:
            rows.append({"label": f"Subtotal {name}", "row_type": "subtotal", **_summed(found)})
        if progress is not None:
            progress(number, len(chosen))
    details = [row for row in rows if row.get("row_type") != "subtotal"]
    return {
        "report": "account_summary",
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        **made(now),
        "holder": dict(chosen)[holder_id] if holder_id is not None else ALL_HOLDERS,
        "period": {"gaming_day": day.isoformat()},
        "filters": {"holder": holder_id},
        "reconciliation": {
            "ok": not mismatched,
            "accounts": accounts,
            "mismatched": mismatched,
        },
        "sections": [
            section(
                "accounts",
                "Player accounts",
                COLUMNS,
                rows,
                totals=_summed(details) if details else None,
                notes=list(NOTES),
            )
        ],
    }
