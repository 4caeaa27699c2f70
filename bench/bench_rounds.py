"""Rounds per second through POST /api/rounds/ (10 wagers each) against the same server's
/healthz, in one run, one server process: the ratio is the figure, since absolute rates drift.

Rounds are played two ways, as the two kinds of client do: with an API token
(``Authorization: Bearer``, what a game client or integration uses) and with the browser's
session cookie and CSRF token (what the table page uses). The phases are interleaved in
many short cycles, so drift in the machine's speed touches every figure alike; the spread
of the per-cycle ratios is printed too. The target (≥ 30 %) is checked on the API-token
figure over the whole run; both are printed.

Where the time goes is printed as CPU time per request (Linux, from /proc): the server's
worker, the database server (every local ``postgres`` process; not shown for a remote one)
and this client. Requests are answered one at a time, so their sum is close to the wall
time of a request, and it shows which side a change moved.

Uses DATABASE_URL when set (it must point at a scratch PostgreSQL database: the bench
migrates it and loads the demo data); otherwise a throwaway SQLite file.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CYCLES = 15
HEALTH_REQUESTS = 200  # per cycle
ROUNDS = 100  # per cycle, each way
TARGET_RATIO = 0.30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def manage(env: dict, *args: str) -> str:
    return subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout


SETUP = """
from django.contrib.auth.models import User
from portal.game.services import wallet_top_up, MAX_TOP_UP, MAX_DEMO_BALANCE
from portal.game.models import Wallet
player = User.objects.get(username="player")
while Wallet.objects.get(player=player).balance + MAX_TOP_UP <= MAX_DEMO_BALANCE:
    wallet_top_up(player=player, amount=MAX_TOP_UP)
from portal.compliance.models import Offering
from portal.compliance.selectors import offering_is_live
print(next(o.pk for o in Offering.objects.all() if offering_is_live(o).live))
"""


class Client:
    """A keep-alive HTTP/1.1 client with a cookie jar of one site."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    def login(self, username: str, password: str) -> None:
        self.request("GET", "/accounts/login/")
        form = urllib.parse.urlencode(
            {
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": self.cookies["csrftoken"],
            }
        ).encode()
        status, _ = self.request(
            "POST",
            "/accounts/login/",
            form,
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
        if status != 302:
            raise SystemExit(f"login failed with {status}")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()
    except OSError:
        return None


def _cpu_seconds(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[str, list[str]]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            try:
                with open(f"/proc/{entry}/comm") as comm:
                    found[int(entry)] = (comm.read().strip(), fields)
            except OSError:
                continue
    return found


class CpuMeter:
    """CPU seconds used by the server's worker, the local database server and this client."""

    SIDES = ("server", "database", "client")

    def __init__(self, server_pid: int, database_is_local: bool) -> None:
        self.available = os.path.isdir("/proc")
        self.server_pid = server_pid
        self.database_is_local = database_is_local

    def sample(self) -> dict[str, dict[int, float]]:
        taken: dict[str, dict[int, float]] = {side: {} for side in self.SIDES}
        taken["client"][0] = time.process_time()
        if not self.available:
            return taken
        for pid, (name, fields) in _processes().items():
            if fields[1] == str(self.server_pid):  # the worker, a child of gunicorn's arbiter
                taken["server"][pid] = _cpu_seconds(fields)
            elif self.database_is_local and name == "postgres":
                taken["database"][pid] = _cpu_seconds(fields)
        return taken

    @staticmethod
    def used(before, after) -> dict[str, float]:
        # A process that started meanwhile counts from zero; one that ended is lost.
        return {
            side: sum(value - before[side].get(pid, 0.0) for pid, value in after[side].items())
            for side in after
        }


def rate(count: int, work) -> float:
    start = time.perf_counter()
    for number in range(count):
        work(number)
    return count / (time.perf_counter() - start)


def database_is_local(env: dict) -> bool:
    """Whether DATABASE_URL names a PostgreSQL server on this machine."""
    url = env.get("DATABASE_URL")
    if not url:
        return False
    host = urllib.parse.urlsplit(url).hostname
    return host in (None, "", "localhost", "127.0.0.1", "::1") or host.startswith("/")


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-"))
    env = dict(os.environ, JINZI_VAR_DIR=str(work), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    database = (
        "PostgreSQL" if env.get("DATABASE_URL") else "SQLite (set DATABASE_URL for PostgreSQL)"
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "seed_demo")
    offering = int(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    server = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "portal.wsgi",
            "--workers",
            "1",
            "--threads",
            "1",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        browser = Client(port)
        browser.login("player", "jinzi-demo-2026")
        csrf = {"Content-Type": "application/json", "X-CSRFToken": browser.cookies["csrftoken"]}
        status, data = browser.request(
            "POST", "/api/tokens/", json.dumps({"name": "bench", "days": 1}).encode(), csrf
        )
        assert status == 201, (status, data[:300])
        api = Client(port)  # no cookies: a token client
        bearer = {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {json.loads(data)['token']}",
        }
        wagers = [{"kind": "straight", "numbers": [n], "stake": 200} for n in range(10)]
        run = secrets.token_hex(4).encode()  # fresh keys, even on a database used before
        played = iter(range(10**9))

        def health(_):
            status, _ = api.request("GET", "/healthz")
            assert status == 200, status

        # The body is encoded once; only the idempotency key changes (the client's own
        # work is kept out of the figures as far as it can be).
        start = json.dumps({"offering": offering, "wagers": wagers})[:-1].encode()

        def player(client, headers):
            def play(_):
                body = b'%s, "idempotency_key": "bench-%s-%08d"}' % (start, run, next(played))
                status, data = client.request("POST", "/api/rounds/", body, headers)
                assert status == 201, (status, data[:300])

            return play

        phases = {
            "health": (HEALTH_REQUESTS, health),
            "token": (ROUNDS, player(api, bearer)),
            "session": (ROUNDS, player(browser, csrf)),
        }
        seconds = dict.fromkeys(phases, 0.0)
        cpu = {name: dict.fromkeys(CpuMeter.SIDES, 0.0) for name in phases}
        meter = CpuMeter(server.pid, database_is_local(env))
        cycle_ratios = []
        for _ in range(CYCLES):
            rates = {}
            for name, (count, work) in phases.items():
                before = meter.sample()
                rates[name] = rate(count, work)
                for side, used in meter.used(before, meter.sample()).items():
                    cpu[name][side] += used
                seconds[name] += count / rates[name]
            cycle_ratios.append(rates["token"] / rates["health"])
    finally:
        server.terminate()
        server.wait(timeout=10)
    per_second = {name: phases[name][0] * CYCLES / seconds[name] for name in phases}
    health_rate = per_second["health"]
    print(f"database: {database}; one gunicorn worker (sync, one thread); {CYCLES} cycles")
    print(f"{'endpoint':<48}{'requests':>10}{'per second':>12}{'vs healthz':>12}")
    rows = (
        ("GET /healthz", "health"),
        ("POST /api/rounds/ (10 wagers), API token", "token"),
        ("POST /api/rounds/ (10 wagers), session cookie", "session"),
    )
    for label, name in rows:
        count = phases[name][0] * CYCLES
        share = per_second[name] / health_rate
        print(f"{label:<48}{count:>10,}{per_second[name]:>12,.0f}{share:>12.0%}")
    if meter.available:
        print("CPU time per request, in ms: worker, database server, client, their sum; wall")
        for label, name in rows:
            count = phases[name][0] * CYCLES
            spent = {side: cpu[name][side] / count * 1000 for side in CpuMeter.SIDES}
            database = f"{spent['database']:.3f}" if meter.database_is_local else "-"
            print(
                f"  {label:<46}{spent['server']:>9.3f}{database:>9}{spent['client']:>9.3f}"
                f"{sum(spent.values()):>9.3f}{seconds[name] / count * 1000:>9.3f}"
            )
        if not meter.database_is_local:
            print("  (database: inside the worker on SQLite; not measured on a remote server)")
    ratio = per_second["token"] / health_rate
    cycle_ratios.sort()
    print(
        f"API rounds / healthz = {ratio:.1%} (target ≥ {TARGET_RATIO:.0%}); per cycle: "
        f"median {statistics.median(cycle_ratios):.1%}, "
        f"range {cycle_ratios[0]:.1%}–{cycle_ratios[-1]:.1%}; "
        f"{per_second['token'] * 10:,.0f} wagers settled per second"
    )
    return 0 if ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
