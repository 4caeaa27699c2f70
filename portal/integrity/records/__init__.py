"""Integrity beyond the chains (§ 811a.7, § 810a.11): the rows the audit trail speaks of
still say what the trail says.

The hash chains prove that no audit event and no round was altered; they say nothing of the
rows beside them, which an attacker with database rights can still change. So:

- **Compliance records** (layouts, paytables, rules submissions, offerings). Every service
  that writes one records a picture of the row (``portal.audit.snapshot``: its columns but
  ``updated_at``, and a rules submission's listed games) as the event's ``after``, and the
  picture it found as ``before``. Replaying a record's events in order, each ``before`` must
  be the state the events before it left (nothing changed it in between), and the last
  ``after`` must be the row as stored, field by field. One exception, by design: an edit
  that changes no content writes no event but adds its editor to ``author_ids``, so that
  list may only have grown (never lost a name: four-eyes depends on it). A row no event
  records, and events whose row is gone, are reported too.
- **Ledger entries.** A stake or return entry belongs to a round of its wallet's player and
  moves exactly that round's total stake or return, to the balance the round recorded; a
  round has one stake entry, and one return entry when it returned anything; a round's
  totals are the sums of its bets. A top-up entry (the single wallet's demo credit, from
  before accounts per holder; none is written now) has exactly one ``wallet.top_up`` audit
  event (written with it, in the same transaction) naming it, its wallet, its player, its
  amount and the balance it left.
- **Accounts** (§ 812a.4). The ledger is kept per holder account: an entry with an account
  is that account's, an entry without one the player's single wallet's from before accounts
  per holder (reading:one-account-per-holder). A stake or return is in the account with the
  holder whose table the round was played at, and the round's balances are that account's;
  an entry's account is its wallet's player's.
- **Deposits** (§ 812a.7). A deposit entry has its deposit (same account and amount) and
  exactly one ``account.deposit`` audit event naming both, who made it, the amount and the
  balance it left.
- **Withdrawals** (§ 812a.10). A withdrawal entry is a paid withdrawal's (same account,
  minus its amount) with exactly one ``withdrawal.pay`` event naming both, who paid it, the
  amount and the balance it left; what an account holds back is the sum of its pending
  withdrawals.
- **Voids and adjustments** (§ 617a.6, § 812a.7(a)(9)). Every void or adjustment entry is
  the credit or debit of one approved correction of its kind, in its account, for its round,
  moving what the correction says; an approved void gave back its round's stakes and took
  back its returns (the rest recorded as uncollected), an adjustment its difference; each
  correction has one proposal event and, once decided, one decision event saying what the
  row says (``portal.integrity.records.voids_and_adjustments``).
- **Balances.** Every entry's ``balance_after`` is its account's running sum (or its single
  wallet's), so the last entry's is the ledger's sum; each account's balance, and each
  single wallet's, is the sum of its ledger; what was carried out of a single wallet (to
  zero, once) was carried into its accounts. The database picks the rows that may break
  this; each is judged, and its problem worded, by the one ledger check
  (``portal.game.ledger``) that the round chains' check and the audit report use too.

Everything is read in one transaction (a repeatable-read snapshot on PostgreSQL), in a fixed
number of queries whatever the data size: the per-round checks are aggregates and
anti-joins the database answers with the offending rows only, and the replays and the
matches of top-ups, deposits and payouts to their events are merges of streams sorted by
id, holding one record's events at a time.
"""

from __future__ import annotations

import time

from django.db import connection, transaction

from portal.integrity.records.balances import check_wallets
from portal.integrity.records.compliance import RECORD_MODELS, check_records
from portal.integrity.records.money import check_round_entries, check_rounds
from portal.integrity.records.movements import check_deposits, check_top_ups, check_withdrawals
from portal.integrity.records.report import MAX_LISTED, Problem, RecordsReport
from portal.integrity.records.voids_and_adjustments import check_corrections

__all__ = ["MAX_LISTED", "Problem", "RecordsReport", "verify_records"]

# What the report counts, in the order it shows them.
CHECKED = (
    *(f"{model.kind.replace('_', ' ')}s" for model in RECORD_MODELS),
    *("record events replayed", "rounds", "ledger entries", "top-ups", "deposits"),
    *("withdrawals paid", "voids", "void entries", "adjustments", "adjustment entries"),
    *("accounts", "wallets"),
)


def verify_records() -> RecordsReport:
    """Check every compliance record against its audit events, every ledger entry against
    its round, its deposit, its payout or its top-up event, every account and wallet
    against its ledger."""
    clock = time.perf_counter()
    report = RecordsReport(checked=dict.fromkeys(CHECKED, 0))
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with transaction.atomic():
            # One snapshot for every query, so play going on meanwhile never shows as a
            # mismatch between two of them; read-only, it blocks no one.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            _check_all(report)
    else:
        # The embedded SQLite database opens every transaction IMMEDIATE (its write lock):
        # the checks read outside one, so play never waits for them. A round played
        # meanwhile can then show as a mismatch: check again when play is quiet.
        _check_all(report)
    report.seconds = time.perf_counter() - clock
    return report


def _check_all(report: RecordsReport) -> None:
    for model in RECORD_MODELS:
        check_records(model, report)
    check_round_entries(report)
    check_rounds(report)
    check_top_ups(report)
    check_deposits(report)
    check_withdrawals(report)
    check_corrections(report)
    check_wallets(report)
