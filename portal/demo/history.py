"""BENCH/DEMO DATA: a history of rounds that reads like real play, written fast.

``generate_history`` sets up new certificate holders, tables and paytable versions through
the compliance services (``history_setup``: real approvals and audit trail) and new players
(Player group, a wallet each, an account with every new holder), then writes N rounds over
past Pennsylvania days as ``round_play`` stores them: the outcome from ``jinzi.draw`` (the
OS CSPRNG), ``jinzi.SettlementTable``, the player's chain by ``round_digest``, each round
played from the player's account with its table's holder (§ 812a.4) and its ledger entries
written at the round's end; demo deposits just before a round they fund, each with its
ledger entry, its ``Deposit`` and its audit event as
``portal.game.money.services.deposits.deposit_make`` writes them, chained after the trail's
head in the same batch.
Each holder's Table 1 moves from the minimum paytable (v1) to a more generous v2 halfway
through; every second holder also runs a Table 2 (black-first wheel, above the minimum).
Batches of rows, one transaction each: COPY on PostgreSQL, executemany INSERT elsewhere.

No clock is changed, so the approvals, their audit events, the offerings and the accounts'
openings are dated when it runs, after the rounds: a check of a round's time against its
approval's decision (the expiry report's violations section) flags them.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import operator
import random
import time
import uuid
from dataclasses import dataclass
from itertools import accumulate

from django.db import connections, router, transaction

import jinzi
from portal.audit.chain import HASHED_FIELDS, event_digest
from portal.audit.models import GENESIS_HASH, AuditEvent, AuditHead
from portal.audit.services import lock_chain
from portal.compliance.models import ListedGame
from portal.core.padates import UTC, day_starts, pa_time, pa_today
from portal.demo.history_setup import Account, Player, Table, setup_players, setup_tables
from portal.game.chain import (
    BET_FIELDS,
    LATER_ROUND_FIELDS,
    ROUND_FIELDS,
    SESSION_FIELD,
    SOFTWARE_FIELD,
    round_digest,
)
from portal.game.models import (
    Bet,
    Deposit,
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Round,
    Wallet,
)
from portal.game.money.services.deposits import DEPOSIT_ACTION, MAX_DEMO_TOP_UP, deposit_picture

BATCH = 10_000  # rounds per transaction
# Outside bets and columns are played far more than any one inside spot.
SPOT_WEIGHTS = {"red": 9, "black": 9, "small": 7, "big": 7, "column": 5, "street": 1.2}
SPOT_WEIGHTS |= {"corner": 0.8, "three_numbers": 0.8, "straight": 0.6, "split": 0.4}
CHIPS = (1, 2, 5, 10, 25, 50, 100)  # a bet's stake in chip units, times the player's level
CHIP_CUM = list(accumulate((30, 22, 20, 13, 8, 5, 2)))
DEPOSITS = (20_000, 50_000, MAX_DEMO_TOP_UP)  # demo deposits, as a player makes them
DEMO_REFERENCE = "demo"  # what ``deposit_make`` records for a demo deposit
HOME_SHARE = 0.85  # of a player's rounds, at their usual table
# Play by Pennsylvania hour, quiet before dawn, busiest late evening; Fri and Sat busier.
HOUR_WEIGHTS = (6, 4, 3, 2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 6, 7, 8, 9, 11, 13, 14, 14, 12, 9)
WEEKEND = 1.4
HOUR_US = 3_600_000_000
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)

# The columns each COPY or INSERT names, in the order of the rows built below.
# Generated history records no session and no software identity ("not recorded").
ROUND_ROW = (
    *("id", *ROUND_FIELDS, *LATER_ROUND_FIELDS, SESSION_FIELD, SOFTWARE_FIELD),
    *("request_fingerprint", "hash"),
)
BET_ROW = ("round_id", *BET_FIELDS)
LEDGER_ROW = (
    *("id", "wallet_id", "account_id", "round_id"),
    *("kind", "amount", "balance_after", "created_at"),
)
DEPOSIT_ROW = ("id", "account_id", "amount", "method", "reference", "made_by_id", "made_at")
DEPOSIT_ROW += ("entry_id",)
AUDIT_ROW = (*HASHED_FIELDS, "hash")
# The wallet is the chain's head; the money is in the accounts (its balance stays 0).
WALLET_FIELDS = ("rounds_played", "chain_head", "updated_at")
ACCOUNT_FIELDS = ("balance", "updated_at")
DEPOSIT, STAKE, RETURN = LedgerKind.DEPOSIT.value, LedgerKind.STAKE.value, LedgerKind.RETURN.value
DEMO = DepositMethod.DEMO.value
_ROUND_ROW = operator.itemgetter(*ROUND_ROW)

_WAGERS = jinzi.legal_wagers()
_KIND = [w.kind.value for w in _WAGERS]
_NUMBERS = [list(w.numbers) for w in _WAGERS]
_NUMBERS_JSON = [json.dumps(numbers) for numbers in _NUMBERS]
_SPOT = [w.spot for w in _WAGERS]
_SPOT_CUM = list(accumulate(SPOT_WEIGHTS[kind] for kind in _KIND))


class HistoryError(ValueError):
    """Arguments that cannot make a history (the message says why)."""


@dataclass
class HistoryReport:
    tag: str
    start: datetime.date
    days: int
    tables: list[Table]
    players: int
    rounds: int = 0
    bets: int = 0
    entries: int = 0
    deposits: int = 0
    audit_events: int = 0
    setup_seconds: float = 0.0
    write_seconds: float = 0.0


def _at(us: int) -> datetime.datetime:
    return EPOCH + datetime.timedelta(microseconds=us)


def _us(instant: datetime.datetime) -> int:
    return (instant - EPOCH) // datetime.timedelta(microseconds=1)


# When rounds happen -------------------------------------------------------------------


def _hour_counts(rng, start_at: datetime.datetime, hours: int, rounds: int) -> list[int]:
    """Rounds per hour of the period: by the hour's PA time, weekday and the day's mood."""
    moods: dict[datetime.date, float] = {}
    weights = []
    for hour in range(hours):
        local = pa_time(start_at + datetime.timedelta(hours=hour))
        if local.date() not in moods:
            moods[local.date()] = rng.uniform(0.8, 1.2)
        mood = moods[local.date()]
        weekend = WEEKEND if local.weekday() in (4, 5) else 1.0
        weights.append(HOUR_WEIGHTS[local.hour] * weekend * mood)
    total = sum(weights)
    exact = [rounds * w / total for w in weights]
    counts = [int(x) for x in exact]
    by_remainder = sorted(range(hours), key=lambda h: exact[h] - counts[h], reverse=True)
    for hour in by_remainder[: rounds - sum(counts)]:
        counts[hour] += 1
    return counts


def _start_times(rng, start_us: int, counts: list[int]):
    """(start, slot) of every round in time order: a round starts in the first half of its
    slot and ends within it, so no two rounds overlap, least of all one player's."""
    for hour, n in enumerate(counts):
        if n:
            slot, base = HOUR_US // n, start_us + hour * HOUR_US
            for k in range(n):
                yield base + k * slot + rng.randrange(slot // 2), slot


# The rounds ---------------------------------------------------------------------------


class _Game:
    """Plays one round after another and keeps the rows ``round_play`` would have stored."""

    def __init__(self, rng, tables: list[Table], players: list[Player], bets: int, adapt):
        self.rng, self.tables, self.players, self.adapt = rng, tables, players, adapt
        self.bets, self.spread, self.deposits = bets, bets // 3, 0
        # Deposits depend on the outcomes: their own stream keeps every other choice seeded.
        self.cash = random.Random(rng.getrandbits(64))
        self.cum = list(accumulate(rng.lognormvariate(0, 1) for _ in players))  # regulars
        self.rounds, self.placed, self.ledger, self.moved = [], [], [], {}
        self.accounts: dict[int, Account] = {}  # moved since the last take
        self.funded = []  # each deposit: (its place in self.ledger, player, aware instant)

    def take(self) -> tuple[list, list, list, list, list[Wallet], list[GamingAccount]]:
        """The rows played since the last take, and the wallets and accounts as round_play
        and the deposits leave them."""
        wallets = [
            Wallet(pk=pk, rounds_played=p.sequence, chain_head=p.head)
            for pk, p in self.moved.items()
        ]
        for wallet, p in zip(wallets, self.moved.values(), strict=True):
            wallet.updated_at = _at(p.end)  # the last round's end
        accounts = [
            GamingAccount(pk=pk, balance=a.balance, updated_at=a.moved_at)
            for pk, a in self.accounts.items()
        ]
        taken = (self.rounds, self.placed, self.ledger, self.funded, wallets, accounts)
        self.rounds, self.placed, self.ledger, self.moved = [], [], [], {}
        self.accounts, self.funded = {}, []
        return taken

    def _spots(self, count: int) -> list[int]:
        chosen: dict[int, None] = {}  # distinct spots, in the order placed
        while len(chosen) < count:
            for spot in self.rng.choices(range(len(_SPOT)), cum_weights=_SPOT_CUM, k=count):
                chosen[spot] = None
                if len(chosen) == count:
                    break
        return list(chosen)

    def _stakes(self, limits: ListedGame, level: int, count: int) -> list[int]:
        unit = limits.chip_unit
        low, high = -(-limits.min_wager // unit), limits.max_wager // unit
        chips = self.rng.choices(CHIPS, cum_weights=CHIP_CUM, k=count)
        return [unit * max(low, min(high, chip * level)) for chip in chips]

    def _deposit(self, p: Player, account: Account, needed: int, start_us: int) -> None:
        """Demo deposits into the account in the amounts a player makes, seconds before the
        round (each within ``deposit_make``'s cap for the demo method)."""
        amounts = []
        while account.balance + sum(amounts) < needed:
            amounts.append(self.cash.choice(DEPOSITS))
        room = (start_us - p.end) // 2 if p.end is not None else HOUR_US
        lead = min(self.cash.randint(2_000_000, 40_000_000), room)
        for n, amount in enumerate(amounts):
            account.balance += amount
            at = _at(start_us - lead * (len(amounts) - n) // len(amounts))
            self.funded.append((len(self.ledger), p, at))
            self.ledger.append(
                (p.wallet_id, account.account_id, None, DEPOSIT, amount, account.balance)
                + (self.adapt(at),)
            )
            account.moved_at = at
        self.deposits += len(amounts)

    def play(self, round_id: int, start_us: int, slot: int) -> None:
        rng, adapt = self.rng, self.adapt
        p = rng.choices(self.players, cum_weights=self.cum)[0]
        table = p.home if rng.random() < HOME_SHARE else rng.choice(self.tables)
        era = table.era_at(start_us)
        table.rounds[era.shared["paytable_version"]] += 1
        count = min(len(_SPOT), max(1, self.bets + rng.randint(-self.spread, self.spread)))
        spots, stakes = self._spots(count), self._stakes(era.limits, p.level, count)
        total = sum(stakes)
        while total > era.limits.max_round_stake:
            spots.pop()
            total -= stakes.pop()
        account = p.accounts[table.holder_id]  # § 812a.4: the table's holder's account
        if account.balance < total:
            self._deposit(p, account, total, start_us)
        quarter = max(1, slot // 4)
        closed_us = start_us + min(rng.randint(150, 2_500), quarter)
        ended_us = closed_us + min(rng.randint(300, 6_000), quarter)
        draw = jinzi.draw()  # after "no more bets" (§ 617b.8(e)), from the OS CSPRNG
        returns = era.table.settle_columns(draw.outcome, spots, stakes)
        returned = sum(returns)
        before, after = account.balance, account.balance - total + returned
        started, closed, ended = _at(start_us), _at(closed_us), _at(ended_us)
        fields = {
            **era.shared,
            "player_id": p.user_id,
            "idempotency_key": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "started_at": started,
            "bets_closed_at": closed,
            "ended_at": ended,
            "rng_raw": draw.raw,
            "rng_method": draw.method,
            "outcome": draw.outcome,
            "total_staked": total,
            "total_returned": returned,
            "balance_before": before,
            "balance_after": after,
            "sequence": p.sequence + 1,
            "prev_hash": p.head,
            # Generated history was played in no recorded session (§ 812a.9(a)(5)): blank,
            # "not recorded", and left out of its hash.
            SESSION_FIELD: "",
            # Nor under a recorded identity of the game software (§ 461a.4): blank too.
            SOFTWARE_FIELD: "",
        }
        bets = list(zip(spots, stakes, returns, strict=True))
        digest = round_digest(
            fields,
            [
                {"position": n, "kind": _KIND[s], "numbers": _NUMBERS[s], "spot": _SPOT[s]}
                | {"stake": stake, "returned": back}
                for n, (s, stake, back) in enumerate(bets)
            ],
        )
        # As portal.game.play.services fingerprints a request: the table and its (spot, stake)s.
        body = [table.offering_id, sorted((_SPOT[s], stake) for s, stake, _ in bets)]
        fields |= era.stored
        fields |= {"started_at": adapt(started), "bets_closed_at": adapt(closed)}
        fields |= {"ended_at": adapt(ended), "id": round_id, "hash": digest}
        fields["request_fingerprint"] = hashlib.sha256(json.dumps(body).encode()).hexdigest()
        self.rounds.append(_ROUND_ROW(fields))
        self.placed += [
            (round_id, n, _KIND[s], _NUMBERS_JSON[s], _SPOT[s], stake, back)
            for n, (s, stake, back) in enumerate(bets)
        ]
        end, moved = fields["ended_at"], (p.wallet_id, account.account_id, round_id)
        self.ledger.append((*moved, STAKE, -total, before - total, end))
        if returned:
            self.ledger.append((*moved, RETURN, returned, after, end))
        account.balance, account.moved_at = after, ended
        p.sequence, p.head, p.end = p.sequence + 1, digest, ended_us
        self.moved[p.wallet_id] = p
        self.accounts[account.account_id] = account


# Writing ------------------------------------------------------------------------------


def _reserve_ids(cursor, copy: bool, model, count: int) -> list[int]:
    """Ids for the batch's rounds (so its bets and ledger entries can name them), ledger
    entries and deposits (so the deposits and their audit events can)."""
    table, pk = model._meta.db_table, model._meta.pk.column
    if copy:  # taken for good, whatever becomes of the batch
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [table, pk, count],
        )
        return [row[0] for row in cursor.fetchall()]
    # Inside the batch's transaction, which holds SQLite's write lock (IMMEDIATE).
    cursor.execute(f"SELECT COALESCE(MAX({pk}), 0) FROM {table}")
    first = cursor.fetchone()[0] + 1
    return list(range(first, first + count))


def _write(cursor, copy: bool, model, names: tuple[str, ...], rows: list[tuple]) -> None:
    """COPY on PostgreSQL (psycopg 3's, through Django's cursor), executemany elsewhere."""
    table = model._meta.db_table
    columns = ", ".join(model._meta.get_field(name).column for name in names)
    if not copy:
        marks = ", ".join(["%s"] * len(names))
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
        return
    # COPY's text format, written here: every string is a fixed text, a hex digest, a UUID
    # or JSON of numbers and odds, none with a tab, newline or backslash to escape (the
    # chain check reads every one back); datetimes print in ISO form with their zone.
    line = "\t".join(["%s"] * len(names)) + "\n"
    text = "".join(
        line % (row if None not in row else tuple("\\N" if v is None else v for v in row))
        for row in rows
    )
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as stream:
        stream.write(text)


def _deposits(adapt, funded: list, entries: list, ids: list[int]) -> list[tuple]:
    """The batch's ``Deposit`` rows, one per deposit entry, as ``deposit_make`` writes them
    for a demo deposit (made by the player, when its entry was written)."""
    rows = []
    for deposit_id, (place, player, at) in zip(ids, funded, strict=True):
        entry_id, _, account_id, _, _, amount, _, _ = entries[place]
        rows.append((deposit_id, account_id, amount, DEMO, DEMO_REFERENCE, player.user_id))
        rows[-1] += (adapt(at), entry_id)
    return rows


def _audit_deposits(using: str, adapt, funded: list, entries: list, ids: list[int]) -> list:
    """The batch's deposits' audit events, as ``deposit_make`` records each (actor the
    player, the account, the deposit and its ledger entry), chained in order after the
    trail's head, which moves to the last; the chain stays locked until the batch commits
    (§ 811a.7)."""
    if not funded:
        return []
    lock_chain()
    last = AuditEvent.objects.using(using).order_by("-sequence").values_list("sequence", "hash")
    sequence, prev_hash = last.first() or (0, GENESIS_HASH)
    rows = []
    for deposit_id, (place, player, at) in zip(ids, funded, strict=True):
        entry_id, _, account_id, _, _, amount, balance_after, _ = entries[place]
        entry = LedgerEntry(pk=entry_id, balance_after=balance_after)
        deposit = Deposit(
            pk=deposit_id, amount=amount, method=DEMO, reference=DEMO_REFERENCE, entry=entry
        )
        before, after = {"balance": balance_after - amount}, deposit_picture(deposit)
        sequence += 1
        fields = {
            "sequence": sequence,
            "occurred_at": at,
            "actor_id": player.user_id,
            "actor_username": player.username,
            "action": DEPOSIT_ACTION,
            "object_type": "player_account",
            "object_id": str(account_id),
            "object_version": None,
            "before": before,
            "after": after,
            "reason": "",
            "request_id": "",
            "prev_hash": prev_hash,
        }
        prev_hash = event_digest(fields)
        stored = {"occurred_at": adapt(at), "hash": prev_hash}
        stored |= {"before": json.dumps(before), "after": json.dumps(after)}
        rows.append(tuple(stored[name] if name in stored else fields[name] for name in AUDIT_ROW))
    head = {"sequence": sequence, "hash": prev_hash}
    if not AuditHead.objects.using(using).filter(pk=1).update(**head):
        AuditHead.objects.using(using).create(pk=1, **head)
    return rows


def _period(start, days: int) -> tuple[datetime.date, int, int]:
    if days < 1:
        raise HistoryError("the period is at least one day")
    start = start or pa_today() - datetime.timedelta(days=days + 30)
    end = start + datetime.timedelta(days=days)
    if start < jinzi.EFFECTIVE:
        raise HistoryError(f"§ 617b.8 takes effect on {jinzi.EFFECTIVE}: start on or after it")
    if end > pa_today():
        raise HistoryError(f"the period ends on {end}: rounds are history, end it by today (PA)")
    return start, _us(day_starts(start)), _us(day_starts(end))


def generate_history(
    *,
    rounds: int,
    bets_per_round: int = 10,
    holders: int = 3,
    players: int | None = None,
    start: datetime.date | None = None,
    days: int = 30,
    seed: int | None = None,
    batch: int = BATCH,
    progress=None,
) -> HistoryReport:
    """Set up new holders, tables and players, then write ``rounds`` rounds over ``days``
    Pennsylvania days from ``start``; ``progress(done, total)`` after each batch. Memory
    holds one batch and each player's running state (balance, sequence, chain head)."""
    players = max(5, rounds // 500) if players is None else players
    if min(rounds, holders, players, batch) < 1 or not 1 <= bets_per_round <= len(_SPOT):
        raise HistoryError("rounds, holders, players and batch are at least 1; bets 1 to 52")
    start, start_us, end_us = _period(start, days)
    clock, rng, tag = time.perf_counter(), random.Random(seed), uuid.uuid4().hex[:8]
    counts = _hour_counts(rng, _at(start_us), (end_us - start_us) // HOUR_US, rounds)
    if max(counts) > HOUR_US // 8:
        raise HistoryError("too many rounds for so short a period")
    midway = start + datetime.timedelta(days=days // 2)  # a PA midnight, or noon of one day
    switch_us = _us(day_starts(midway)) if days > 1 else (start_us + end_us) // 2
    with transaction.atomic():
        tables = setup_tables(tag, holders, start, switch_us)
        people = setup_players(tag, players, tables, rng)
    report = HistoryReport(tag, start, days, tables, players)
    report.setup_seconds, clock = time.perf_counter() - clock, time.perf_counter()
    connection = connections[router.db_for_write(Round)]
    copy = connection.vendor == "postgresql"
    # Datetimes in the rows as the backend writes them (as they are, on PostgreSQL).
    game = _Game(rng, tables, people, bets_per_round, connection.ops.adapt_datetimefield_value)
    times = _start_times(rng, start_us, counts)
    while report.rounds < rounds:
        size = min(batch, rounds - report.rounds)
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            ids = _reserve_ids(cursor, copy, Round, size)
            for round_id, (start_at, slot) in zip(ids, times, strict=False):
                game.play(round_id, start_at, slot)
            rows, placed, ledger, funded, wallets, accounts = game.take()
            entry_ids = _reserve_ids(cursor, copy, LedgerEntry, len(ledger))
            ledger = [(entry_id, *row) for entry_id, row in zip(entry_ids, ledger, strict=True)]
            deposit_ids = _reserve_ids(cursor, copy, Deposit, len(funded)) if funded else []
            deposits = _deposits(game.adapt, funded, ledger, deposit_ids)
            events = _audit_deposits(connection.alias, game.adapt, funded, ledger, deposit_ids)
            _write(cursor, copy, Round, ROUND_ROW, rows)
            _write(cursor, copy, Bet, BET_ROW, placed)
            _write(cursor, copy, LedgerEntry, LEDGER_ROW, ledger)
            _write(cursor, copy, Deposit, DEPOSIT_ROW, deposits)
            _write(cursor, copy, AuditEvent, AUDIT_ROW, events)
            Wallet.objects.using(connection.alias).bulk_update(wallets, WALLET_FIELDS)
            GamingAccount.objects.using(connection.alias).bulk_update(accounts, ACCOUNT_FIELDS)
        report.rounds, report.bets = report.rounds + size, report.bets + len(placed)
        report.entries += len(ledger)
        report.audit_events += len(events)
        if progress is not None:
            progress(report.rounds, rounds)
    report.deposits = game.deposits
    report.write_seconds = time.perf_counter() - clock
    return report
