"""Rounds per second through POST /api/rounds/ (10 wagers each) against the same server's
/healthz, in one run, one server process: the ratio is the figure, since absolute rates drift.

Rounds are played two ways, as the two kinds of client do: with an API token
(``Authorization: Bearer``, what a game client or integration uses) and with the browser's
session cookie and CSRF token (what the table page uses). The phases are interleaved in
many short cycles, so drift in the machine's speed touches every figure alike; the spread
of the per-cycle ratios is printed too. There is no target: the figures are for comparing
builds, best in one run: ``--baseline DIR`` serves another checkout (say, a worktree of
the previous commit) from a second worker on the same database, and plays its rounds and
health checks in the same cycles.

Every round answered is settled again through ``jinzi`` (after the timing): the bench
fails if any server paid a wager other than the engine says.

Where the time goes is printed as CPU time per request (Linux, from /proc): the server's
worker, the database server (every local ``postgres`` process; not shown for a remote one)
and this client. Requests are answered one at a time, so their sum is close to the wall
time of a request, and it shows which side a change moved.

Uses DATABASE_URL when set (it must point at a scratch PostgreSQL database: the bench
migrates it and loads the demo data); otherwise a throwaway SQLite file.
"""

from __future__ import annotations

import argparse
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
WAGERS = [{"kind": "straight", "numbers": [n], "stake": 200} for n in range(10)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def manage(env: dict, *args: str) -> str:
    return subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout


# The demo player's account with the live table's holder, filled by demo deposits to the
# demo's cap; the table's id is printed last.
SETUP = """
from django.contrib.auth.models import User
from portal.compliance.models import Offering
from portal.compliance.selectors import offering_is_live
from portal.game.money.services.deposits import MAX_DEMO_BALANCE, MAX_DEMO_TOP_UP, deposit_make
from portal.game.models import DepositMethod, GamingAccount
player = User.objects.get(username="player")
table = next(o for o in Offering.objects.all() if offering_is_live(o).live)
def balance():
    account = GamingAccount.objects.filter(player=player, holder_id=table.holder_id).first()
    return account.balance if account is not None else 0
while balance() + MAX_DEMO_TOP_UP <= MAX_DEMO_BALANCE:
    deposit_make(
        player=player, holder_id=table.holder_id, amount=MAX_DEMO_TOP_UP, method=DepositMethod.DEMO
    )
print(table.pk)
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


class Server:
    """One gunicorn worker serving the checkout at ``root``, with a browser and a token client."""

    def __init__(self, root: Path, env: dict, label: str) -> None:
        self.root, self.label, self.port = root, label, free_port()
        self.process = subprocess.Popen(
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
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
            ],
            cwd=root,
            env=env,
        )

    def sign_in(self) -> None:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        self.browser = Client(self.port)
        self.browser.login("player", "jinzi-demo-2026")
        self.csrf = {
            "Content-Type": "application/json",
            "X-CSRFToken": self.browser.cookies["csrftoken"],
        }
        status, data = self.browser.request(
            "POST", "/api/tokens/", json.dumps({"name": "bench", "days": 1}).encode(), self.csrf
        )
        assert status == 201, (status, data[:300])
        self.api = Client(self.port)  # no cookies: a token client
        self.bearer = {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {json.loads(data)['token']}",
        }
        # The token plays inside an API session, begun by the API's own sign-in.
        signed_in = json.dumps({"username": "player", "password": "jinzi-demo-2026"}).encode()
        status, data = self.api.request(
            "POST", "/api/sessions/", signed_in, {"Content-Type": "application/json"}
        )
        assert status == 201, (status, data[:300])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def misjudged(answers: list[bytes]) -> list[str]:
    """Every wager a server paid differently from ``jinzi`` (the engine's own settlement)."""
    import jinzi

    problems = []
    for body in answers:
        played = json.loads(body)
        paytable = jinzi.Paytable.of(played["paytable"]["odds"])
        paid = 0
        for wager in played["wagers"]:
            owed = jinzi.settle(
                jinzi.Wager.parse(wager["spot"]),
                wager["stake"],
                played["outcome"],
                paytable=paytable,
            )
            paid += wager["returned"]
            if owed != wager["returned"]:
                problems.append(
                    f"round {played['id']}: {wager['spot']} paid {wager['returned']}, owed {owed}"
                )
        if paid != played["total_returned"]:
            problems.append(
                f"round {played['id']}: returns add up to {paid}, not {played['total_returned']}"
            )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout to measure in the same run")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-"))
    env = dict(os.environ, JINZI_VAR_DIR=str(work), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    env["JINZI_DEMO"] = "1"  # the demo data and the history generators are the demo app's
    # DEBUG off needs its secrets; a bench makes its own unless they are given.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.stack import throwaway_secrets

    for name, value in throwaway_secrets().items():
        env.setdefault(name, value)
    database = (
        "PostgreSQL" if env.get("DATABASE_URL") else "SQLite (set DATABASE_URL for PostgreSQL)"
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "seed_demo")
    offering = int(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    servers = [Server(ROOT, env, "this build")]
    if args.baseline:
        servers.append(Server(args.baseline.resolve(), env, f"baseline {args.baseline}"))
    answers: list[bytes] = []
    try:
        for server in servers:
            server.sign_in()
        run = secrets.token_hex(4).encode()  # fresh keys, even on a database used before
        played = iter(range(10**9))
        # The body is encoded once; only the idempotency key changes (the client's own
        # work is kept out of the figures as far as it can be).
        start = json.dumps({"offering": offering, "wagers": WAGERS})[:-1].encode()

        def health(client):
            def check(_):
                status, _ = client.request("GET", "/healthz")
                assert status == 200, status

            return check

        def player(client, headers):
            def play(_):
                body = b'%s, "idempotency_key": "bench-%s-%08d"}' % (start, run, next(played))
                status, data = client.request("POST", "/api/rounds/", body, headers)
                assert status == 201, (status, data[:300])
                answers.append(data)

            return play

        phases = {}
        for index, server in enumerate(servers):
            phases[(index, "health")] = (HEALTH_REQUESTS, health(server.api))
            phases[(index, "token")] = (ROUNDS, player(server.api, server.bearer))
            phases[(index, "session")] = (ROUNDS, player(server.browser, server.csrf))
        seconds = dict.fromkeys(phases, 0.0)
        cpu = {name: dict.fromkeys(CpuMeter.SIDES, 0.0) for name in phases}
        meters = [CpuMeter(server.process.pid, database_is_local(env)) for server in servers]
        cycle_ratios: dict[int, list[float]] = {index: [] for index in range(len(servers))}
        for _ in range(CYCLES):
            rates = {}
            for name, (count, work) in phases.items():
                meter = meters[name[0]]
                before = meter.sample()
                rates[name] = rate(count, work)
                for side, used in meter.used(before, meter.sample()).items():
                    cpu[name][side] += used
                seconds[name] += count / rates[name]
            for index in cycle_ratios:
                cycle_ratios[index].append(rates[(index, "token")] / rates[(index, "health")])
    finally:
        for server in servers:
            server.stop()
    per_second = {name: phases[name][0] * CYCLES / seconds[name] for name in phases}
    print(f"database: {database}; one gunicorn worker (sync, one thread) each; {CYCLES} cycles")
    rows = (
        ("GET /healthz", "health"),
        ("POST /api/rounds/ (10 wagers), API token", "token"),
        ("POST /api/rounds/ (10 wagers), session cookie", "session"),
    )
    for index, server in enumerate(servers):
        health_rate = per_second[(index, "health")]
        print(f"\n{server.label}")
        print(f"{'endpoint':<48}{'requests':>10}{'per second':>12}{'vs healthz':>12}")
        for label, kind in rows:
            name = (index, kind)
            share = per_second[name] / health_rate
            count = phases[name][0] * CYCLES
            print(f"{label:<48}{count:>10,}{per_second[name]:>12,.0f}{share:>12.0%}")
        meter = meters[index]
        if meter.available:
            print("CPU time per request, in ms: worker, database server, client, their sum; wall")
            for label, kind in rows:
                name = (index, kind)
                count = phases[name][0] * CYCLES
                spent = {side: cpu[name][side] / count * 1000 for side in CpuMeter.SIDES}
                database_ms = f"{spent['database']:.3f}" if meter.database_is_local else "-"
                print(
                    f"  {label:<46}{spent['server']:>9.3f}{database_ms:>9}{spent['client']:>9.3f}"
                    f"{sum(spent.values()):>9.3f}{seconds[name] / count * 1000:>9.3f}"
                )
            if not meter.database_is_local:
                print("  (database: inside the worker on SQLite; not measured on a remote server)")
        ratios = sorted(cycle_ratios[index])
        print(
            f"API rounds / healthz = {per_second[(index, 'token')] / health_rate:.1%}; per cycle: "
            f"median {statistics.median(ratios):.1%}, range {ratios[0]:.1%}–{ratios[-1]:.1%}; "
            f"{per_second[(index, 'token')] * len(WAGERS):,.0f} wagers settled per second"
        )
    if len(servers) == 2:
        gain = per_second[(0, "token")] / per_second[(1, "token")] - 1
        print(f"\nAPI rounds per second, this build against the baseline: {gain:+.1%}")
    problems = misjudged(answers)
    print(f"\n{len(answers):,} rounds settled again through jinzi: {len(problems)} disagree")
    for problem in problems[:20]:
        print(f"  {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
