"""Rounds per second through POST /api/rounds/ (10 wagers each) against the same server's
/healthz, in one run, one server process: the ratio is the figure, since absolute rates drift.

Uses DATABASE_URL when set (it must point at a scratch PostgreSQL database: the bench
migrates it and loads the demo data); otherwise a throwaway SQLite file.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HEALTH_REQUESTS = 3000
ROUNDS = 1500
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


def rate(count: int, work) -> float:
    start = time.perf_counter()
    for number in range(count):
        work(number)
    return count / (time.perf_counter() - start)


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
        client = Client(port)
        client.login("player", "jinzi-demo-2026")
        wagers = [{"kind": "straight", "numbers": [n], "stake": 200} for n in range(10)]
        headers = {"Content-Type": "application/json", "X-CSRFToken": client.cookies["csrftoken"]}

        def health(_):
            status, _ = client.request("GET", "/healthz")
            assert status == 200, status

        def play(number):
            body = {
                "offering": offering,
                "wagers": wagers,
                "idempotency_key": f"bench-{number:08d}",
            }
            status, data = client.request(
                "POST", "/api/rounds/", json.dumps(body).encode(), headers
            )
            assert status == 201, (status, data[:300])

        health_rate = rate(HEALTH_REQUESTS, health)
        round_rate = rate(ROUNDS, play)
        health_rate = (health_rate + rate(HEALTH_REQUESTS, health)) / 2  # either side of the rounds
    finally:
        server.terminate()
        server.wait(timeout=10)
    ratio = round_rate / health_rate
    print(f"database: {database}; one gunicorn worker, one thread; keep-alive client")
    print(f"{'endpoint':<38}{'requests':>10}{'per second':>14}")
    print(f"{'GET /healthz':<38}{HEALTH_REQUESTS:>10,}{health_rate:>14,.0f}")
    print(f"{'POST /api/rounds/ (10 wagers)':<38}{ROUNDS:>10,}{round_rate:>14,.0f}")
    print(
        f"rounds / healthz = {ratio:.0%} (target ≥ {TARGET_RATIO:.0%}); "
        f"{round_rate * 10:,.0f} wagers settled per second"
    )
    return 0 if ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
