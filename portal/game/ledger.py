"""The one ledger consistency check (§ 810a.11, § 812a.4, § 811a.9): the rule that every
ledger's entries add up, stated once, with the words auditors read for each way it fails.

The rule:

- every entry's ``balance_after`` is its ledger's running total: the sum of its amounts and
  those of the ledger's entries before it (a ledger is a holder account's entries, or a
  single wallet's entries with no account, from before accounts per holder);
- an entry that names a round names one that is there; a round's stake entry leaves the
  balance the round recorded before it less what it staked, its return entry the balance the
  round recorded after it (a void's or an adjustment's entry names its round too, and moves
  the account later: its amounts are its correction's, checked by ``verify_records``);
- a carry-over out of the single wallet leaves it at 0;
- a ledger adds up to the balance its account or single wallet holds.

It is pure: it reads no rows. Whoever reads the entries feeds them here, in each ledger's
entry order, as ``Entry`` rows, and gets back each problem (``LedgerProblem``: which ledger,
which entry, what was expected and what was found) in its one wording:

- ``portal.game.chain.verify_ledgers`` (``verify_round_chain``, the round chains' page, the
  check of an export) feeds every entry to ``Ledgers`` and holds each account's and single
  wallet's balance to its total with ``balance_problem``;
- ``verify_records`` (``portal.integrity.records``: ``money`` and ``balances``) has the
  database pick the rows that may be wrong (a window of running sums, entries against
  their rounds, sums per account and wallet) and judges each with ``running_problem``,
  ``round_problem``, ``carry_over_problem`` and ``balance_problem``;
- the audit report's account lines: the ORM reader (``reading/ledger.py``) feeds each entry
  of the period to ``Ledgers`` from its account's opening balance; the COPY reader
  (``reading/ledger_copy.py``) keeps the running sums as NumPy columns, flags the entries the
  rule may fail on as vectors, and has ``entry_problem`` judge each flagged one (and a test
  holds its lines to ``ledger_problems`` on planted faults).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from portal.game.models import LedgerKind

# The kinds of entry the rule speaks of, for the readers that name them.
STAKE, RETURN = LedgerKind.STAKE, LedgerKind.RETURN
DEPOSIT, WITHDRAWAL = LedgerKind.DEPOSIT, LedgerKind.WITHDRAWAL
CARRIED_OUT, CARRIED_IN = LedgerKind.CARRIED_OUT, LedgerKind.CARRIED_IN
# The entries a round writes when it is played, which leave the balances it recorded.
PLAY_ENTRY_KINDS = (STAKE, RETURN)

ACCOUNT, WALLET = "account", "wallet"
# ("account", its id) for a holder account's ledger, ("wallet", its id) for the entries of a
# single wallet with no account.
Ledger = tuple[str, int]

# The words of each problem, once. ``{entry}`` or ``{ledger}`` is what it speaks of; a caller
# whose heading names it already says "it" instead (``LedgerProblem.said``).
RUNNING = "{entry} says the balance is {found}, the entries up to it add up to {expected}"
ROUND_BALANCE = "{entry} leaves {found}, its round #{round} recorded a balance of {expected}"
NO_ROUND = "{entry} names round {round}, which is not there"
CARRY_OVER = "{entry} leaves the single wallet at {found}; carrying it over leaves it at 0"
BALANCE = "{ledger} holds {found}, its ledger adds up to {expected}"


def ledger_of(wallet_id: int, account_id: int | None) -> Ledger:
    """The ledger an entry is in: its account's, or, with none, its single wallet's."""
    return (ACCOUNT, account_id) if account_id is not None else (WALLET, wallet_id)


def ledger_name(ledger: Ledger) -> str:
    return f"{ledger[0]} {ledger[1]}"


def entry_name(entry_id: int | None) -> str:
    # An entry read without its id (a caller's older rows) is still named.
    return f"ledger entry #{entry_id}" if entry_id is not None else "a ledger entry"


class Entry(NamedTuple):
    """One ledger entry as the check reads it."""

    ledger: Ledger
    id: int | None
    kind: str
    amount: int
    balance_after: int
    round_id: int | None = None
    # Its round's (balance_before, total_staked, balance_after); None when the round named
    # is not there (or it names none).
    recorded: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class LedgerProblem:
    words: str  # one of the wordings above
    ledger: Ledger
    entry: int | None = None  # None: the ledger as a whole (``BALANCE``)
    expected: int | None = None
    found: int | None = None
    round_id: int | None = None

    def said(self, subject: str | None = None) -> str:
        """The problem in its words; ``subject`` ("it") in place of the entry's or the
        ledger's name, where the caller's heading names it already."""
        return self.words.format(
            entry=subject or entry_name(self.entry),
            ledger=subject or ledger_name(self.ledger),
            found=self.found,
            expected=self.expected,
            round=self.round_id,
        )


def recorded_balance(kind: str, recorded: tuple[int, int, int]) -> int | None:
    """The balance a round's stake or return entry leaves, as the round recorded it (the
    balance before it less its stakes; the balance after it); None for other kinds."""
    if kind not in PLAY_ENTRY_KINDS:
        return None
    before, staked, after = recorded
    return before - staked if kind == STAKE else after


def running_problem(
    ledger: Ledger, entry_id: int | None, balance_after: int, total: int
) -> LedgerProblem | None:
    """``total``: the ledger's running total up to and with this entry."""
    if balance_after == total:
        return None
    return LedgerProblem(RUNNING, ledger, entry_id, total, balance_after)


def round_problem(
    ledger: Ledger,
    entry_id: int | None,
    kind: str,
    balance_after: int,
    round_id: int | None,
    recorded: tuple[int, int, int] | None,
) -> LedgerProblem | None:
    if round_id is None:
        return None
    if recorded is None:
        return LedgerProblem(NO_ROUND, ledger, entry_id, round_id=round_id)
    expected = recorded_balance(kind, recorded)
    if expected is None or balance_after == expected:
        return None
    return LedgerProblem(ROUND_BALANCE, ledger, entry_id, expected, balance_after, round_id)


def carry_over_problem(
    ledger: Ledger, entry_id: int | None, kind: str, balance_after: int
) -> LedgerProblem | None:
    if kind != CARRIED_OUT or balance_after == 0:
        return None
    return LedgerProblem(CARRY_OVER, ledger, entry_id, 0, balance_after)


def entry_problem(entry: Entry, total: int) -> LedgerProblem | None:
    """The first rule ``entry`` breaks, its ledger's running total (with it) being
    ``total``: its running balance, then its round, then its carry-over."""
    ledger, entry_id, kind, _, after, round_id, recorded = entry
    return (
        running_problem(ledger, entry_id, after, total)
        or round_problem(ledger, entry_id, kind, after, round_id, recorded)
        or carry_over_problem(ledger, entry_id, kind, after)
    )


def balance_problem(ledger: Ledger, balance: int, total: int) -> LedgerProblem | None:
    """``balance``: what the account or single wallet holds; ``total``: its ledger's sum."""
    if balance == total:
        return None
    return LedgerProblem(BALANCE, ledger, None, total, balance)


class Ledgers:
    """Every ledger's running total, fed entries in each ledger's order (ledgers may
    interleave). A ledger starts at its opening balance (``openings``: its balance before
    the first entry fed, None or missing for 0)."""

    def __init__(self, openings: Mapping[Ledger, int | None] | None = None) -> None:
        self.openings = openings or {}
        self.totals: dict[Ledger, int] = {}

    def check(self, entry: Entry) -> LedgerProblem | None:
        """Adds ``entry`` to its ledger's total; the first rule it breaks, if any."""
        total = self.totals.get(entry.ledger)
        if total is None:
            total = self.openings.get(entry.ledger) or 0
        total += entry.amount
        self.totals[entry.ledger] = total
        return entry_problem(entry, total)

    def total(self, ledger: Ledger) -> int:
        """The ledger's total so far (its opening, if no entry of it was fed)."""
        total = self.totals.get(ledger)
        return total if total is not None else self.openings.get(ledger) or 0


def ledger_problems(
    entries: Iterable[Entry], openings: Mapping[Ledger, int | None] | None = None
) -> Iterator[LedgerProblem]:
    """Every problem of ``entries`` (each ledger's in its entry order), as they come."""
    ledgers = Ledgers(openings)
    for entry in entries:
        problem = ledgers.check(entry)
        if problem is not None:
            yield problem
