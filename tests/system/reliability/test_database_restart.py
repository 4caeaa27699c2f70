"""PostgreSQL restarted under a portal in play (gunicorn on a throwaway cluster of its own,
never the suite's database): every answer meanwhile is a settled round or a clean 503 with
Retry-After; no round is left half-settled (§ 810a.11: a round is stored complete, or not at
all, and moves no money); and play comes back on its own once the database does, without
restarting gunicorn. A round answered 503 is safe to send again under its idempotency key:
the answer is the round, if its commit had landed after all, or the round played now.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace

import psycopg
import pytest

from portal.core.views import DATABASE_DOWN, RETRY_AFTER
from portal.game.models import Wallet
from tests.stack import (
    Answer,
    Client,
    Cluster,
    Server,
    manage,
    missing_postgres,
    portal_environment,
    run_stack_command,
)

pytestmark = pytest.mark.postgres

PLAYERS = 3
WORKERS = 2
SUBMITTED = 15
SUCCESSES_BEFORE = 3  # each player's rounds settled before the restart
OUTAGE_ANSWERS = 2  # each player's 503s seen while the database is down
SUCCESSES_AFTER = 3  # each player's rounds settled once it is back
WAIT = 60  # seconds: the longest any step may take before the test gives up on it
WAGERS = [
    {"kind": "red", "stake": 200},
    {"kind": "straight", "numbers": [7], "stake": 100},
    {"kind": "split", "numbers": [0, 1], "stake": 200},
]


@pytest.fixture
def stack(tmp_path):
    reason = missing_postgres()
    if reason:
        pytest.skip(reason)
    cluster = Cluster()
    server = None
    try:
        cluster.start()
        env = portal_environment(cluster.url, tmp_path / "var")
        manage(env, "migrate", "--noinput", "-v0")
        world = run_stack_command(
            env,
            "world",
            "--tag=restart",
            f"--players={PLAYERS}",
            "--officers=1",
            "--managers=1",
            f"--submitted={SUBMITTED}",
            "--credit=500000",
        )
        server = Server(env, workers=WORKERS, log=tmp_path / "gunicorn.log")
        server.wait_until_healthy()
        yield SimpleNamespace(cluster=cluster, env=env, world=world, server=server)
    finally:
        if server is not None:
            server.stop()
        cluster.close()


@dataclass
class Play:
    """Everything the clients were answered, with the phase each request was sent in."""

    phase: str = "before"
    lock: threading.Condition = field(default_factory=threading.Condition)
    answers: list[tuple[str, str, str, Answer]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def add(self, who: str, phase: str, key: str, answer: Answer) -> None:
        with self.lock:
            self.answers.append((who, phase, key, answer))
            self.lock.notify_all()

    def count(self, who: str, phases: tuple[str, ...], statuses: tuple[int, ...]) -> int:
        return sum(
            1
            for name, phase, _, answer in self.answers
            if name == who and phase in phases and answer.status in statuses
        )

    def wait_until(self, condition) -> None:
        with self.lock:
            assert self.lock.wait_for(condition, timeout=WAIT), self.summary()

    def summary(self) -> str:
        return f"after {len(self.answers)} answers in phase {self.phase}: " + ", ".join(
            f"{who} {phase} {answer.status}" for who, phase, _, answer in self.answers[-12:]
        )


def player(play: Play, port: int, token: str, offering: int, who: str) -> None:
    client = Client(port, token)
    number = 0
    while not play.stop.is_set():
        number += 1
        key = f"{who}-{number:05d}"
        phase = play.phase
        body = {"offering": offering, "wagers": WAGERS, "idempotency_key": key}
        play.add(who, phase, key, client.call("POST", "/api/rounds/", body))


def officer(play: Play, port: int, token: str, holder: int) -> None:
    client = Client(port, token)
    while not play.stop.is_set():
        phase = play.phase
        listed = client.call("GET", f"/api/paytables/?status=submitted&holder={holder}")
        play.add("officer", phase, "", listed)
        if listed.status != 200:
            continue
        for record in listed.json()["results"][:3]:
            phase = play.phase
            decided = client.call("POST", f"/api/paytables/{record['id']}/approve/", {})
            play.add("officer", phase, f"paytable-{record['id']}", decided)


@contextmanager
def wallet_held(url: str, player_id: int) -> Iterator[int]:
    """Another transaction holding the player's wallet row, as a concurrent top-up would: the
    player's next round waits for it inside its own transaction. Yields the holder's PID."""
    holder = psycopg.connect(url)
    try:
        holder.execute(
            f"SELECT 1 FROM {Wallet._meta.db_table} WHERE player_id = %s FOR UPDATE", [player_id]
        )
        yield holder.info.backend_pid
    finally:
        holder.close()


def wait_until_blocked(url: str, holder_pid: int) -> None:
    """Until a session waits for the holder's lock (a tenth of a second between looks)."""
    with psycopg.connect(url, autocommit=True) as watcher:
        for _ in range(WAIT * 10):
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                [holder_pid],
            ).fetchone()[0]
            if waiting:
                return
            time.sleep(0.1)
    raise AssertionError("no round waited for the wallet's lock")


def is_clean_outage_answer(answer: Answer) -> bool:
    return (
        answer.status == 503
        and answer.headers.get("content-type") == "application/json"
        and answer.json() == {"detail": DATABASE_DOWN, "errors": {}}
        and answer.headers.get("retry-after") == str(RETRY_AFTER)
    )


def test_810a11_database_restart_mid_play_answers_clean_503s_and_leaves_no_half_round(stack):
    world, server = stack.world, stack.server
    players = [f"player{index}" for index in range(PLAYERS)]
    play = Play()
    threads = [
        threading.Thread(
            target=player, args=(play, server.port, p["token"], world["offering"], name)
        )
        for name, p in zip(players, world["players"], strict=True)
    ]
    threads.append(
        threading.Thread(
            target=officer, args=(play, server.port, world["officers"][0]["token"], world["holder"])
        )
    )
    health = Client(server.port)
    try:
        for thread in threads:
            thread.start()
        play.wait_until(
            lambda: all(play.count(p, ("before",), (201,)) >= SUCCESSES_BEFORE for p in players)
        )
        # One round is caught mid-transaction: it waits for its wallet's lock when the
        # database stops; the others play on until then.
        with wallet_held(stack.cluster.url, world["players"][0]["id"]) as holder:
            wait_until_blocked(stack.cluster.url, holder)
            mark = len(play.answers)
            play.phase = "outage"
            stack.cluster.stop("fast")  # ends every session, rolling back open transactions
        play.wait_until(
            lambda: all(play.count(p, ("outage",), (503,)) >= OUTAGE_ANSWERS for p in players)
        )
        down = health.call("GET", "/healthz")
        stack.cluster.start()
        play.phase = "after"
        play.wait_until(
            lambda: all(play.count(p, ("after",), (201,)) >= SUCCESSES_AFTER for p in players)
        )
    finally:
        play.stop.set()
        for thread in threads:
            thread.join(timeout=WAIT)
    up = health.call("GET", "/healthz")

    assert down.status == 503 and down.json()["database"] == "unavailable"
    assert up.status == 200 and up.json()["database"] == "ok"
    assert server.running(), "gunicorn lives through the outage: nothing restarts it"
    # Every answer is a success or a clean 503: no 500, no HTML, no dropped connection.
    unclean = [
        (who, phase, answer.status, answer.failure or answer.body[:200])
        for who, phase, _, answer in play.answers
        if answer.status not in (200, 201) and not is_clean_outage_answer(answer)
    ]
    assert unclean == [], server.log_tail()
    # Once the database is back, every request succeeds: nothing stays broken.
    assert {a.status for _, phase, _, a in play.answers if phase == "after"} <= {200, 201}

    # A key answered 503 is sent again: its round if the commit had landed, else played now.
    rounds = [(who, key, a) for who, _, key, a in play.answers if who.startswith("player")]
    settled = {key for _, key, answer in rounds if answer.status == 201}
    cut_off = [(who, key) for who, key, answer in rounds if answer.status == 503]
    caught = next(key for who, _, key, _ in play.answers[mark:] if who == players[0])
    assert (players[0], caught) in cut_off
    tokens = dict(zip(players, (p["token"] for p in world["players"]), strict=True))
    retried = {}
    for who, key in cut_off:
        body = {"offering": world["offering"], "wagers": WAGERS, "idempotency_key": key}
        again = Client(server.port, tokens[who]).call("POST", "/api/rounds/", body)
        assert again.status in (200, 201), (key, again.status, again.body[:200])
        assert again.json()["status"] == "complete"
        retried[key] = again.status
        settled.add(key)
    assert retried[caught] == 201, "the round caught mid-transaction had left nothing behind"
    server.stop()

    ids = ",".join(str(p["id"]) for p in world["players"])
    held = run_stack_command(
        stack.env, "check", f"--players={ids}", f"--officers={world['officers'][0]['id']}"
    )
    assert set(held["keys"]) == settled
    assert held["incomplete"] == 0
    assert held["bets_mismatched"] == 0
    assert held["ledger_mismatched"] == 0
    assert held["wallets_mismatched"] == 0
    assert held["accounts_mismatched"] == 0
    decisions = [a for who, _, key, a in play.answers if who == "officer" and key]
    approved = sum(answer.status == 200 for answer in decisions)
    refused = sum(answer.status == 503 for answer in decisions)
    assert approved <= held["decided"] - world["decided"] <= approved + refused
    for command in ("verify_round_chain", "verify_audit_chain"):
        done = manage(stack.env, command, check=False)
        assert done.returncode == 0, done.stderr
