"""Each player's rounds form a hash chain: a deleted or altered round is detected."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from portal.core.hashing import GENESIS_HASH, canonical_digest, hashed_instant_text
from portal.game.ledger import (
    ACCOUNT,
    CARRIED_IN,
    CARRIED_OUT,
    DEPOSIT,
    WALLET,
    WITHDRAWAL,
    Entry,
    Ledgers,
    balance_problem,
    ledger_name,
    ledger_of,
)

ROUND_FIELDS = (
    "player_id",
    "offering_id",
    "rules_submission_id",
    "rules_version",
    "layout_id",
    "layout_version",
    "paytable_id",
    "paytable_version",
    "paytable_odds",
    "wheel_order",
    "game_name",
    "software_version",
    "idempotency_key",
    "started_at",
    "ended_at",
    "rng_raw",
    "rng_method",
    "outcome",
    "total_staked",
    "total_returned",
    "balance_before",
    "balance_after",
    "sequence",
    "prev_hash",
)
# Added to the game record later (§ 810a.11). Every round that has them hashes them too;
# a round recorded before them has no "no more bets" instant, so the chains of old rounds
# still verify, and blanking that instant on a newer round breaks its hash.
LATER_ROUND_FIELDS = ("bets_closed_at", "status", "portal_version", "first_colour")
# Added later still: the player session the round was played in (§ 812a.9(a)(5)). A round
# that has one hashes it; rounds recorded before sessions had ids, and generated history,
# have none (blank), and their hashes stay as they were.
SESSION_FIELD = "session_id"
# Added later still: the identity of the game software the round was played under (§ 461a.4,
# reading:software-approval), its digest. Hashed as the session is: only where a round has
# one, so rounds recorded before it keep their hashes.
SOFTWARE_FIELD = "software_identity"
# The later fields a round hashes only where it has them (not blank).
WHEN_RECORDED_FIELDS = (SESSION_FIELD, SOFTWARE_FIELD)
# Every field of a round its hash may cover (the later ones once the round has them).
HASHED_ROUND_FIELDS = (*ROUND_FIELDS, *LATER_ROUND_FIELDS, *WHEN_RECORDED_FIELDS)
BET_FIELDS = ("position", "kind", "numbers", "spot", "stake", "returned")


def round_digest(round_fields: dict, bets: Iterable[dict]) -> str:
    payload = {name: round_fields[name] for name in ROUND_FIELDS}
    if round_fields.get("bets_closed_at") is not None:
        payload.update({name: round_fields[name] for name in LATER_ROUND_FIELDS})
        payload["bets_closed_at"] = hashed_instant_text(payload["bets_closed_at"])
    for name in WHEN_RECORDED_FIELDS:
        if round_fields.get(name):
            payload[name] = round_fields[name]
    payload["started_at"] = hashed_instant_text(payload["started_at"])
    payload["ended_at"] = hashed_instant_text(payload["ended_at"])
    payload["bets"] = [{name: bet[name] for name in BET_FIELDS} for bet in bets]
    return canonical_digest(payload)


def digest_of(round_obj, bets) -> str:
    return round_digest(
        {name: getattr(round_obj, name) for name in HASHED_ROUND_FIELDS},
        ({name: getattr(bet, name) for name in BET_FIELDS} for bet in bets),
    )


def heads_digest(heads: dict[int, tuple[int, str]]) -> str:
    """One hash for the players' chain heads (player id: (sequence, hash)), to keep outside
    the system: the audit report prints it for the period's end, the round chains' page for
    now (§ 810a.11)."""
    return canonical_digest(
        {"heads": [[player, seq, hash_] for player, (seq, hash_) in sorted(heads.items())]}
    )


@dataclass(frozen=True)
class RoundChainReport:
    checked: int
    broken_round_id: int | None = None
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_round_id is None


def verify_rounds(rounds, heads: dict[int, tuple[int, str]] | None = None) -> RoundChainReport:
    """``rounds`` ordered by (player, sequence), with ``bets`` prefetched."""
    return verify_round_records(((round_obj, round_obj.bets.all()) for round_obj in rounds), heads)


def verify_round_records(
    records: Iterable[tuple[Any, Iterable[Any]]], heads: dict[int, tuple[int, str]] | None = None
) -> RoundChainReport:
    """``records``: each round with its bets (in position order), ordered by (player,
    sequence); stored rows or rows read back from an export alike.

    ``heads`` maps each player to their wallet's (rounds_played, chain_head): the chain
    must end exactly there, so even the deletion of a player's latest round shows.
    """
    checked = 0
    ends: dict[int, tuple[int, str]] = {}
    player, expected_prev, expected_sequence = None, GENESIS_HASH, 1
    for round_obj, bets in records:
        if round_obj.player_id != player:
            player, expected_prev, expected_sequence = round_obj.player_id, GENESIS_HASH, 1
        problem = ""
        if round_obj.sequence != expected_sequence:
            problem = f"player {player}'s round {expected_sequence} is missing"
        elif round_obj.prev_hash != expected_prev:
            problem = "its prev_hash does not match the player's previous round"
        elif digest_of(round_obj, bets) != round_obj.hash:
            problem = "its content does not match its hash (the round or a bet was altered)"
        if problem:
            return RoundChainReport(checked, round_obj.pk, problem)
        checked += 1
        expected_prev, expected_sequence = round_obj.hash, expected_sequence + 1
        if heads is not None:
            ends[player] = (round_obj.sequence, round_obj.hash)
    for player_id, head in (heads or {}).items():
        if ends.get(player_id, (0, GENESIS_HASH)) != head:
            return RoundChainReport(
                checked,
                -1,
                f"player {player_id}'s wallet says {head[0]} rounds ending in "
                f"{head[1][:12]}…, its rounds end elsewhere (a round is missing)",
            )
    return RoundChainReport(checked)


@dataclass(frozen=True)
class LedgerReport:
    checked: int
    problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem


def verify_ledgers(
    wallets,
    entries,
    rounds: dict[int, tuple[int, int, int]],
    accounts=(),
    deposits=(),
    withdrawals=(),
) -> LedgerReport:
    """Every account's ledger adds up, entry by entry, to its balance, and agrees with the
    balances its rounds recorded (and hashed); so does each single wallet's (the entries
    with no account, from before accounts per holder), whose carry-over into the accounts
    adds up (the one ledger check, ``portal.game.ledger``, judges each entry and balance);
    every deposit and paid withdrawal is its entry's, and what an account holds back is the
    sum of its pending withdrawals. The first problem is reported.

    ``wallets``: (wallet_id, balance); ``entries``: (wallet_id, kind, amount, balance_after,
    round_id, account_id, id) ordered by wallet and id (an entry without the last two is a
    single wallet's); ``rounds``: id → (balance_before, staked, balance_after);
    ``accounts``: (account_id, balance, held); ``deposits``: (id, account_id, amount,
    entry_id); ``withdrawals``: (id, account_id, amount, status, entry_id). Each read once,
    in that order after the entries.
    """
    balances = dict(wallets)
    ledgers = Ledgers()
    carried: dict[int, int] = {}
    # Deposit and payout entries by id, until their records are read.
    moved: dict[int, tuple[str, int | None, int]] = {}
    checked = 0
    for row in entries:
        wallet_id, kind, amount, balance_after, round_id, *rest = row
        account_id, entry_id = (*rest, None, None)[:2]
        ledger = ledger_of(wallet_id, account_id)
        recorded = rounds.get(round_id) if round_id is not None else None
        problem = ledgers.check(
            Entry(ledger, entry_id, kind, amount, balance_after, round_id, recorded)
        )
        if problem is not None:
            return LedgerReport(checked, f"{ledger_name(ledger)}: {problem.said()}")
        if kind in (CARRIED_OUT, CARRIED_IN):
            carried[wallet_id] = carried.get(wallet_id, 0) + amount
        if kind in (DEPOSIT, WITHDRAWAL) and entry_id is not None:
            moved[entry_id] = (kind, account_id, amount)
        checked += 1
    for wallet_id, balance in balances.items():
        ledger = (WALLET, wallet_id)
        problem = balance_problem(ledger, balance, ledgers.total(ledger))
        if problem is not None:
            return LedgerReport(checked, problem.said())
        if carried.get(wallet_id, 0) != 0:
            return LedgerReport(
                checked,
                f"wallet {wallet_id}: what was carried out of it is not what its accounts "
                f"received (they differ by {carried[wallet_id]})",
            )
    pending: dict[int, int] = {}
    held_by: dict[int, int] = {}
    for account_id, balance, held in accounts:
        ledger = (ACCOUNT, account_id)
        problem = balance_problem(ledger, balance, ledgers.total(ledger))
        if problem is not None:
            return LedgerReport(checked, problem.said())
        held_by[account_id] = held
    unknown = sorted(key for kind, key in ledgers.totals if kind == ACCOUNT and key not in held_by)
    if unknown:
        return LedgerReport(
            checked, f"account {unknown[0]}: its ledger entries name an account not there"
        )
    for deposit_id, account_id, amount, entry_id in deposits:
        if moved.pop(entry_id, None) != (DEPOSIT, account_id, amount):
            return LedgerReport(
                checked,
                f"deposit {deposit_id}: ledger entry {entry_id} is not its deposit of {amount} "
                f"into account {account_id}",
            )
    for withdrawal_id, account_id, amount, status, entry_id in withdrawals:
        if status == "pending":
            pending[account_id] = pending.get(account_id, 0) + amount
        if entry_id is None:
            continue
        if status != "paid" or moved.pop(entry_id, None) != (WITHDRAWAL, account_id, -amount):
            return LedgerReport(
                checked,
                f"withdrawal {withdrawal_id} ({status}): ledger entry {entry_id} is not its "
                f"payout of {amount} from account {account_id}",
            )
    if moved:
        entry_id, (kind, account_id, _) = min(moved.items())
        return LedgerReport(
            checked,
            f"account {account_id}: ledger entry {entry_id}, a {kind}, has no {kind} record",
        )
    for account_id, held in held_by.items():
        if pending.get(account_id, 0) != held:
            return LedgerReport(
                checked,
                f"account {account_id} holds back {held}, its pending withdrawals add up to "
                f"{pending.get(account_id, 0)}",
            )
    return LedgerReport(checked)


# What the ledger check reads of each entry, in ``verify_ledgers``'s order.
LEDGER_CHECKED = ("wallet_id", "kind", "amount", "balance_after", "round_id", "account_id", "id")
WALLET_CHECKED = ("id", "player_id", "balance", "rounds_played", "chain_head")
ACCOUNT_CHECKED = ("id", "balance", "held")
DEPOSIT_CHECKED = ("id", "account_id", "amount", "entry_id")
WITHDRAWAL_CHECKED = ("id", "account_id", "amount", "status", "entry_id")


@dataclass(frozen=True)
class GameRecordsReport:
    rounds: RoundChainReport
    ledger: LedgerReport | None = None  # not checked once a round chain is broken

    @property
    def ok(self) -> bool:
        return self.rounds.ok and self.ledger is not None and self.ledger.ok


def verify_game_records(
    records: Iterable[tuple[Any, Iterable[Any]]],
    wallets: Iterable[dict[str, Any]],
    entries: Iterable[tuple],
    accounts: Iterable[tuple] = (),
    deposits: Iterable[tuple] = (),
    withdrawals: Iterable[tuple] = (),
) -> GameRecordsReport:
    """Everything ``verify_round_chain`` checks, stored or exported: every player's chain of
    rounds (``records`` as ``verify_round_records`` takes them) against their wallet's
    head, then the ledger (``entries`` as ``verify_ledgers`` takes them, in
    ``LEDGER_CHECKED`` order) against every account's and single wallet's balance, its
    rounds' recorded balances, the deposits and the withdrawals (in ``ACCOUNT_CHECKED``,
    ``DEPOSIT_CHECKED`` and ``WITHDRAWAL_CHECKED`` order). ``wallets``: each wallet's
    ``WALLET_CHECKED`` columns by name."""
    wallets = list(wallets)
    heads = {
        wallet["player_id"]: (wallet["rounds_played"], wallet["chain_head"]) for wallet in wallets
    }
    balances: dict[int, tuple[int, int, int]] = {}

    def noting_balances() -> Iterator[tuple[Any, Iterable[Any]]]:
        for round_obj, bets in records:
            balances[round_obj.pk] = (
                round_obj.balance_before,
                round_obj.total_staked,
                round_obj.balance_after,
            )
            yield round_obj, bets

    chains = verify_round_records(noting_balances(), heads)
    if not chains.ok:
        return GameRecordsReport(chains)
    ledger = verify_ledgers(
        ((wallet["id"], wallet["balance"]) for wallet in wallets),
        entries,
        balances,
        accounts,
        deposits,
        withdrawals,
    )
    return GameRecordsReport(chains, ledger)
