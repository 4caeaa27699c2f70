"""The portal under load: gunicorn with 4 workers on PostgreSQL, players playing rounds while
compliance officers decide paytables and managers submit new ones, all at once, for a bounded
time. It prints throughput, latency per operation (p50, p95, p99), the refusals the rules
call for (a stake above the balance, a record another officer decided first) apart from the
errors, and checks the database afterwards: every round complete, its bets and ledger
entries matching its totals and balances, every account its ledger's sum, the rounds and
decisions stored exactly those the clients were told of, and both chains intact
(``verify_round_chain``, ``verify_audit_chain``). It fails on any error or mismatch, never
on a rate.

The database is a throwaway PostgreSQL 15 cluster of its own (``tests/stack.py``: initdb into
a temporary folder, a free port of 127.0.0.1), or the scratch PostgreSQL database that
DATABASE_URL names (migrated; the bench adds its own holder and people). gunicorn runs with
production settings: DEBUG off, a secret key made for the run, only 127.0.0.1 allowed.
Both are stopped by their PIDs at the end, whatever happens, and the temporary folders
removed.

JINZI_BENCH_LOAD_SECONDS (default 20) or ``--seconds`` sets how long the load lasts.

``--report-during`` (a throwaway cluster only) adds a streaming replica of it and a history
of 100,000 generated rounds (``--history``), then runs the load three times: alone, while a
30-day audit report over that history is built again and again on the primary, and while it
is built on the replica (``portal.core.replica``). It prints the rounds' p50/p95/p99 in each
case and the report's build times, as measured: the machine's cores are shared by the
database, its replica, gunicorn, the clients and the report, so there is no pass mark.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import jinzi  # noqa: E402
from portal.game.play.messages import INSUFFICIENT  # noqa: E402
from tests.stack import (  # noqa: E402
    Client,
    Cluster,
    Replica,
    Server,
    manage,
    missing_postgres,
    portal_environment,
    run_stack_command,
)

DEFAULT_SECONDS = 20
WORKERS = 4
PLAYERS = 16
OFFICERS = 3
MANAGERS = 2
SUBMITTED = 20  # paytables waiting for a decision when the load starts
DECIDED_PER_LIST = 5  # an officer reads the queue, then decides this many from it
CREDIT = 20_000  # each player's card deposit at the start, in cents
TOP_UP = 20_000  # what a player deposits when a round's stake is above their balance
MAX_WAGERS = 6
STAKES = range(100, 1_001, 100)  # the table's chip unit is 100
SPOTS = jinzi.legal_wagers()
MINIMUM_ODDS = dict(jinzi.Paytable.minimum().as_dict())
OPERATIONS = (
    ("round", "POST /api/rounds/"),
    ("deposit", "POST /api/accounts/deposit/"),
    ("list", "GET /api/paytables/?status=submitted"),
    ("decide", "POST /api/paytables/{id}/approve|reject/"),
    ("draft", "POST /api/paytables/"),
    ("submit", "POST /api/paytables/{id}/submit/"),
)
_INSUFFICIENT = re.compile(
    re.escape(INSUFFICIENT).replace(r"\{total\}", r"\d+").replace(r"\{balance\}", r"\d+")
)


class Tally:
    """Every answer the clients got: latencies per operation, refusals, errors."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.ok: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.errors: list[str] = []
        self.round_keys: set[str] = set()
        self.wagers = 0

    def answered(self, operation: str, answer, *, ok: bool, refusal: str = "") -> None:
        with self.lock:
            self.seconds[operation].append(answer.seconds)
            if ok:
                self.ok[operation] += 1
            elif refusal:
                self.refused[refusal] += 1
            else:
                detail = answer.failure or answer.body[:200].decode(errors="replace")
                self.errors.append(f"{operation}: {answer.status} {detail}")


def _detail(answer) -> str:
    try:
        body = answer.json()
    except ValueError:
        return ""
    errors = body.get("errors") or {}
    return " ".join([str(body.get("detail", ""))] + [str(m) for v in errors.values() for m in v])


def play(
    client: Client, offering: int, holder: int, tag: str, index: int, until: float, tally: Tally
) -> None:
    """A player: rounds of 1–6 wagers of varied stakes; a card deposit into their account
    with the table's holder when the balance runs short."""
    chance = random.Random(f"{tag}-{index}")
    number = 0
    while time.monotonic() < until:
        number += 1
        chosen = chance.sample(SPOTS, chance.randint(1, MAX_WAGERS))
        wagers = [
            {"kind": spot.kind.value, "numbers": list(spot.numbers), "stake": chance.choice(STAKES)}
            for spot in chosen
        ]
        key = f"load-{tag}-{index:02d}-{number:06d}"
        body = {"offering": offering, "wagers": wagers, "idempotency_key": key}
        answer = client.call("POST", "/api/rounds/", body)
        if answer.status == 201:
            played = answer.json()
            adds_up = played["status"] == "complete" and played["balance_after"] == (
                played["balance_before"] - played["total_staked"] + played["total_returned"]
            )
            tally.answered("round", answer, ok=adds_up)
            if adds_up:
                with tally.lock:
                    tally.round_keys.add(key)
                    tally.wagers += len(wagers)
        elif answer.status == 400 and _INSUFFICIENT.search(_detail(answer)):
            tally.answered("round", answer, ok=False, refusal="stake above the balance (400)")
            deposit = {"holder": holder, "amount": TOP_UP, "method": "card", "reference": key}
            topped = client.call("POST", "/api/accounts/deposit/", deposit)
            tally.answered("deposit", topped, ok=topped.status == 201)
        else:
            tally.answered("round", answer, ok=False)


def decide(client: Client, holder: int, index: int, until: float, tally: Tally) -> None:
    """An officer: reads the queue of submitted paytables, then decides a few of them, each
    approved (two in three) or rejected; one another officer decided first is a 409."""
    chance = random.Random(f"officer-{index}")
    while time.monotonic() < until:
        listed = client.call("GET", f"/api/paytables/?status=submitted&holder={holder}")
        tally.answered("list", listed, ok=listed.status == 200)
        if listed.status != 200:
            continue
        waiting = [record["id"] for record in listed.json()["results"]]
        if not waiting:
            time.sleep(0.05)
            continue
        for record in chance.sample(waiting, min(len(waiting), DECIDED_PER_LIST)):
            if time.monotonic() >= until:
                break
            if chance.random() < 2 / 3:
                answer = client.call("POST", f"/api/paytables/{record}/approve/", {})
            else:
                reason = {"reason": "Proposal not needed on this floor"}
                answer = client.call("POST", f"/api/paytables/{record}/reject/", reason)
            if answer.status == 409:
                refusal = "decided by another officer first (409)"
                tally.answered("decide", answer, ok=False, refusal=refusal)
            else:
                tally.answered("decide", answer, ok=answer.status == 200)


def propose(client: Client, index: int, until: float, tally: Tally) -> None:
    """A manager: drafts a paytable and submits it, so officers always have work."""
    number = 0
    while time.monotonic() < until:
        number += 1
        name = f"Load proposal {index}-{number}"
        drafted = client.call("POST", "/api/paytables/", {"name": name, "odds": MINIMUM_ODDS})
        tally.answered("draft", drafted, ok=drafted.status == 201)
        if drafted.status == 201:
            record = drafted.json()["id"]
            submitted = client.call("POST", f"/api/paytables/{record}/submit/")
            tally.answered("submit", submitted, ok=submitted.status == 200)


def percentile_ms(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        only = values[0] * 1000 if values else 0.0
        return only, only, only
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[94] * 1000, cuts[98] * 1000


def report(tally: Tally, elapsed: float) -> None:
    print(
        f"{'operation':<44}{'answers':>9}{'ok':>8}{'refused':>9}{'per s':>8}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
    )
    for name, label in OPERATIONS:
        values = tally.seconds.get(name, [])
        if not values:
            continue
        p50, p95, p99 = percentile_ms(values)
        refused = len(values) - tally.ok[name] - sum(e.startswith(f"{name}:") for e in tally.errors)
        print(
            f"{label:<44}{len(values):>9,}{tally.ok[name]:>8,}{refused:>9,}"
            f"{tally.ok[name] / elapsed:>8.1f}{p50:>9.1f}{p95:>9.1f}{p99:>9.1f}"
        )
    print(
        f"\nthroughput: {tally.ok['round'] / elapsed:.1f} rounds/s "
        f"({tally.wagers / elapsed:.0f} wagers settled/s), "
        f"{tally.ok['decide'] / elapsed:.1f} decisions/s, "
        f"{sum(len(v) for v in tally.seconds.values()) / elapsed:.1f} requests/s in all"
    )
    refusals = ", ".join(f"{reason}: {count}" for reason, count in sorted(tally.refused.items()))
    print(f"refusals the rules call for: {refusals or 'none'}")
    print(f"errors: {len(tally.errors)}")
    for error in tally.errors[:20]:
        print(f"  {error}")


def load(server: Server, world: dict, seconds: float, tag: str) -> tuple[Tally, float]:
    tally = Tally()
    until = time.monotonic() + seconds
    work = [
        (
            play,
            (
                Client(server.port, p["token"]),
                *(world["offering"], world["holder"], tag, i, until, tally),
            ),
        )
        for i, p in enumerate(world["players"])
    ]
    work += [
        (decide, (Client(server.port, o["token"]), world["holder"], i, until, tally))
        for i, o in enumerate(world["officers"])
    ]
    work += [
        (propose, (Client(server.port, m["token"]), i, until, tally))
        for i, m in enumerate(world["managers"])
    ]
    threads = [threading.Thread(target=job, args=args, daemon=True) for job, args in work]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally, time.perf_counter() - start


def check_database(env: dict, world: dict, tally: Tally) -> list[str]:
    """Every mismatch between what the clients were told and what the database holds."""
    players = ",".join(str(p["id"]) for p in world["players"])
    officers = ",".join(str(o["id"]) for o in world["officers"])
    held = run_stack_command(env, "check", "--players", players, "--officers", officers)
    decided = held["decided"] - world["decided"]
    print(
        f"\ndatabase: {held['rounds']:,} rounds ({len(tally.round_keys):,} answered 201), "
        f"{held['incomplete']} not complete, {held['bets_mismatched']} with bets off their "
        f"totals, {held['ledger_mismatched']} with ledger entries off their balances; "
        f"{held['accounts_mismatched']} of {held['accounts']} accounts and "
        f"{held['wallets_mismatched']} of {held['wallets']} wallets off their ledger; "
        f"{decided:,} decisions stored ({tally.ok['decide']:,} answered 200)"
    )
    problems = [
        f"{held[name]} {label}"
        for name, label in (
            ("incomplete", "rounds not complete"),
            ("bets_mismatched", "rounds whose bets disagree with their totals"),
            ("ledger_mismatched", "rounds whose ledger entries disagree with their balances"),
            ("accounts_mismatched", "accounts whose balance is not their ledger's sum"),
            ("wallets_mismatched", "wallets whose balance is not their ledger's sum"),
        )
        if held[name]
    ]
    stored = set(held["keys"])
    if stored != tally.round_keys:
        problems.append(
            f"rounds stored but never answered: {len(stored - tally.round_keys)}; "
            f"answered but not stored: {len(tally.round_keys - stored)}"
        )
    if decided != tally.ok["decide"]:
        problems.append(f"{decided} decisions stored, {tally.ok['decide']} answered 200")
    for command in ("verify_round_chain", "verify_audit_chain"):
        done = manage(env, command, check=False)
        print(f"{command}: {(done.stdout or done.stderr).strip()}")
        if done.returncode != 0:
            problems.append(f"{command} failed")
    return problems


HISTORY_START = "2026-10-01"
HISTORY_DAYS = 30
# The report built again and again while the clients play, in a process of its own; prints
# what it did as JSON on its last line.
REPORT_LOOP = """
import json, time
from django.utils import timezone
from portal.core.replica import read_source, reading_from
from portal.reports import definitions
from portal.reports.audit_report.scope import last_round_before
audit = definitions.definition("audit")
days = {"start": "%(start)s", "end": "%(end)s"}
parameters = audit.read(definitions.clean("audit", days))
until, took, alias = time.monotonic() + %(seconds)s, [], "primary"
while time.monotonic() < until:
    cutoff = timezone.now()
    source = read_source()
    alias = "replica" if source.alias == "replica" else "primary"
    clock = time.perf_counter()
    with reading_from(source.alias):
        audit.build(parameters, lambda done, total: None, cutoff, last_round_before(cutoff))
    took.append(time.perf_counter() - clock)
print(json.dumps({"alias": alias, "took": took}))
"""


def _history_end() -> str:
    import datetime

    first = datetime.date.fromisoformat(HISTORY_START)
    return (first + datetime.timedelta(days=HISTORY_DAYS - 1)).isoformat()


def report_loop(env: dict, replica: bool, seconds: float) -> subprocess.Popen:
    code = REPORT_LOOP % {"start": HISTORY_START, "end": _history_end(), "seconds": seconds}
    env = dict(env, JINZI_READ_REPLICA="1" if replica else "0")
    return subprocess.Popen(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def reports_during_load(server: Server, world: dict, env: dict, seconds: float, tag: str) -> None:
    """The rounds' latency alone, then beside the report on the primary, then beside the
    report on the replica."""
    print(
        f"{'case':<40}{'rounds':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
        f"{'reports built':>15}{'median build s':>16}"
    )
    problems = []
    cases = (("alone", None), ("report on the primary", False), ("report on the replica", True))
    for number, (case, replica) in enumerate(cases):
        loop = report_loop(env, replica, seconds) if replica is not None else None
        tally, _ = load(server, world, seconds, f"{tag}-{number}")  # each case its own keys
        built, median = "", ""
        if loop is not None:
            out, err = loop.communicate(timeout=seconds * 20 + 600)
            if loop.returncode != 0:
                problems.append(f"{case}: the report failed: {err.strip()[-400:]}")
            else:
                done = json.loads(out.strip().splitlines()[-1])
                built = f"{len(done['took'])} ({done['alias']})"
                median = f"{statistics.median(done['took']):.2f}" if done["took"] else "-"
        p50, p95, p99 = percentile_ms(tally.seconds.get("round", []))
        print(
            f"{case:<40}{tally.ok['round']:>8,}{p50:>9.1f}{p95:>9.1f}{p99:>9.1f}"
            f"{built:>15}{median:>16}"
        )
        problems += tally.errors
    if problems:
        raise RuntimeError("; ".join(str(p) for p in problems[:5]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=float(os.environ.get("JINZI_BENCH_LOAD_SECONDS") or DEFAULT_SECONDS),
        help=f"how long the load lasts (JINZI_BENCH_LOAD_SECONDS, default {DEFAULT_SECONDS})",
    )
    parser.add_argument(
        "--report-during",
        action="store_true",
        help="time the rounds alone, beside a report on the primary, and on a replica",
    )
    parser.add_argument("--history", type=int, default=100_000, help="rounds of history")
    args = parser.parse_args(argv)
    given = os.environ.get("DATABASE_URL", "")
    if args.report_during:
        given = ""  # the replica needs a cluster of the bench's own
    if not given.startswith(("postgres://", "postgresql://")):
        reason = missing_postgres()
        if reason:
            print(f"skipped: {reason}, or set DATABASE_URL to a scratch PostgreSQL database")
            return 0
    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-load-"))
    cluster: Cluster | None = None
    replica: Replica | None = None
    server: Server | None = None
    tag = secrets.token_hex(3)
    try:
        if given.startswith(("postgres://", "postgresql://")):
            url, where = given, "the scratch database DATABASE_URL names"
        else:
            cluster = Cluster()
            cluster.start()
            url = cluster.url
            where = f"a throwaway PostgreSQL 15 cluster on 127.0.0.1:{cluster.port} (fsync off)"
        env = portal_environment(url, work / "var")
        clock = time.perf_counter()
        manage(env, "migrate", "--noinput", "-v0")
        if args.report_during:
            replica = Replica(cluster)
            replica.start()
            history = time.perf_counter()
            manage(
                dict(env, JINZI_DEMO="1"), "generate_round_history", "--rounds",
                str(args.history), "--start", HISTORY_START, "--days", str(HISTORY_DAYS),
                "--seed", "7",
            )  # fmt: skip
            print(
                f"history: {args.history:,} rounds over {HISTORY_DAYS} days generated in "
                f"{time.perf_counter() - history:.1f} s; replica on 127.0.0.1:{replica.port}"
            )
            env = dict(env, DATABASE_REPLICA_URL=replica.url)
        world = run_stack_command(
            env,
            "world",
            f"--tag={tag}",
            f"--players={PLAYERS}",
            f"--officers={OFFICERS}",
            f"--managers={MANAGERS}",
            f"--submitted={SUBMITTED}",
            f"--credit={CREDIT}",
        )
        server = Server(env, workers=WORKERS, log=work / "gunicorn.log")
        server.wait_until_healthy()
        print(
            f"database: {where}; gunicorn: {WORKERS} sync workers on 127.0.0.1:{server.port}, "
            f"DEBUG off; set up in {time.perf_counter() - clock:.1f} s"
        )
        print(
            f"clients, each on its own connection with an API token: {PLAYERS} players, "
            f"{OFFICERS} officers, {MANAGERS} managers; {args.seconds:g} s\n"
        )
        if args.report_during:
            reports_during_load(server, world, env, args.seconds, tag)
            return 0
        before = os.getloadavg()[0]
        tally, elapsed = load(server, world, args.seconds, tag)
        server.stop()
        report(tally, elapsed)
        print(
            f"machine: {os.cpu_count()} CPUs, load average {before:.1f} before the load and "
            f"{os.getloadavg()[0]:.1f} after (the rates drift with whatever else runs)"
        )
        problems = check_database(env, world, tally)
        if tally.errors:
            problems.append(f"{len(tally.errors)} errors")
            print(f"\nthe server's log, last lines:\n{server.log_tail()}")
    finally:
        if server is not None:
            server.stop()
        if replica is not None:
            replica.close()
        if cluster is not None:
            cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    if problems:
        print(f"\nFAIL: {'; '.join(problems)}")
        return 1
    print("\nno errors, no mismatches, both chains intact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
