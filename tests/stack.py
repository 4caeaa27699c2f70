"""The portal served for real, on loopback: a throwaway PostgreSQL 15 cluster, gunicorn in
front of it, and the clients that drive it. The load bench (``bench/bench_load.py``) and the
reliability tests (``tests/system/reliability/``) run on it.

- ``Cluster``: ``initdb`` into a temporary folder and ``pg_ctl`` on a free loopback port
  (as the ``postgres`` user when run as root, as ``.ci/run`` does); ``stop()`` and
  ``start()`` again restart it under a running portal; ``close()`` stops it and removes the
  folder.
- ``Server``: ``gunicorn portal.wsgi`` with n workers, production settings (``DEBUG`` off,
  a secret key made for the run, only ``127.0.0.1`` allowed), in a process group of its own
  led by the arbiter; stopped by the arbiter's PID, and if it will not stop, that group.
- ``Client``: one API client with a bearer token, timing every call.
- ``python -m tests.stack world …`` and ``… check …``, run with ``DATABASE_URL`` set, build
  the world the clients play in (through the services: a holder, an approved layout,
  paytable and rules submission, a live table, players with a card deposit in their account
  with the holder, officers, managers with paytables submitted for deciding, and an API
  token each) and count, afterwards, every round, bet, ledger entry, account and wallet that
  does not add up.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import http.client
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
PG_USER = "postgres"
DATABASE = "jinzi"

# How long a management command or ``python -m tests.stack …`` may take (migrating a new
# database, building or checking a world) before the run gives up on it.
COMMAND_TIMEOUT = 600
# How long gunicorn may take to answer ``/healthz`` after starting, and each try's limit.
HEALTHY_WITHIN = 60.0
PROBE_TIMEOUT = 2.0
# gunicorn's graceful timeout: how long workers may finish their requests after SIGTERM.
GRACEFUL_TIMEOUT = 10

# A throwaway cluster keeps nothing after the run: durability is not what it is for.
CLUSTER_SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "100",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def missing_postgres() -> str | None:
    """Why a throwaway cluster cannot be started here, or None if it can."""
    for program in ("initdb", "pg_ctl", "postgres", "createdb"):
        if not os.access(PG_BIN / program, os.X_OK):
            return f"needs PostgreSQL 15's {PG_BIN / program} (Debian's postgresql-15)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(PG_USER)
        except KeyError:
            return f"PostgreSQL refuses to run as root, and there is no {PG_USER!r} user"
        if shutil.which("runuser") is None:
            return "running as root needs runuser to start PostgreSQL as the postgres user"
    return None


class Cluster:
    """A PostgreSQL 15 cluster in a temporary folder, on a free port of 127.0.0.1."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="jinzi-pg-"))
        self.as_root = os.geteuid() == 0
        if self.as_root:
            owner = pwd.getpwnam(PG_USER)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = free_port()
        self.url = f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, program: str, *args: str) -> None:
        command = [str(PG_BIN / program), *args]
        if self.as_root:
            command = ["runuser", "-u", PG_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}")

    def start(self) -> None:
        """Create the cluster and its database the first time; start it (again)."""
        first = not self.data.exists()
        if first:
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "--auth=trust",
                f"--username={PG_USER}",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            )
        options = " ".join(
            [f"-p {self.port}", f"-k {self.folder}"]
            + [f"-c {name}={value}" for name, value in CLUSTER_SETTINGS.items()]
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")
        if first:
            self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", PG_USER, DATABASE)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: ``fast`` ends every session and rolls back open transactions."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    @property
    def pid(self) -> int | None:
        """The postmaster's PID, while it runs."""
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        """Stop the server if it runs (by its own PID if pg_ctl cannot), remove the folder."""
        pid = self.pid
        if pid is not None:
            try:
                self.stop("fast")
            except RuntimeError:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGQUIT)  # PostgreSQL's immediate shutdown
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Replica:
    """A streaming replica of ``primary`` (a started ``Cluster``): a base backup taken with
    ``pg_basebackup -R`` into the primary's folder, started on a free port of its own."""

    def __init__(self, primary: Cluster) -> None:
        self.primary = primary
        self.data = primary.folder / "replica"
        self.log = primary.folder / "replica.log"
        self.port = free_port()
        self.url = f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> None:
        self.primary._run(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary.port), "-U", PG_USER,
            "-D", str(self.data), "-R", "-X", "stream", "-c", "fast",
        )  # fmt: skip
        options = " ".join(
            [f"-p {self.port}", f"-k {self.primary.folder}"]
            + [f"-c {name}={value}" for name, value in CLUSTER_SETTINGS.items()]
        )
        self.primary._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start"
        )

    def close(self) -> None:
        """Stop the replica if it runs (before its primary's folder is removed)."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):
                self.primary._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")


def throwaway_secrets() -> dict[str, str]:
    """The secrets a portal with DEBUG off refuses to start without, made for one run: the
    secret key and the player file's sealing and index keys (docs/accounts.md)."""
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "JINZI_PLAYER_FILE_KEYS": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
        "JINZI_PLAYER_INDEX_KEY": secrets.token_urlsafe(48),
    }


def portal_environment(database_url: str, var_dir: Path) -> dict[str, str]:
    """The environment of a production-like portal on ``database_url``: DEBUG off, secrets
    made for this run, only 127.0.0.1 allowed, tasks in-process, files in ``var_dir``."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="portal.settings",
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        JINZI_VAR_DIR=str(var_dir),
        CELERY_BROKER_URL="",
        JINZI_LOG_LEVEL="WARNING",
        **throwaway_secrets(),
    )
    # A replica's address names another database than ``database_url``: none here.
    for name in (
        "JINZI_MEDIA_ROOT",
        "JINZI_REPORTS_DIR",
        "CELERY_RESULT_BACKEND",
        "DATABASE_REPLICA_URL",
    ):
        env.pop(name, None)
    return env


def manage(
    env: dict[str, str], *args: str, check: bool = True, timeout: float = COMMAND_TIMEOUT
) -> subprocess.CompletedProcess:
    """``manage.py …`` in the portal's environment; killed (``TimeoutExpired``) after
    ``timeout`` seconds."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=check,
        timeout=timeout,
    )


def run_stack_command(env: dict[str, str], *args: str, timeout: float = COMMAND_TIMEOUT) -> dict:
    """``python -m tests.stack …`` in the portal's environment; its JSON answer. Killed
    (``TimeoutExpired``) after ``timeout`` seconds."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.stack", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"tests.stack {args[0]} failed: {done.stderr.strip()[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


class Server:
    """``gunicorn portal.wsgi`` on a free port of 127.0.0.1, its output in ``log``.

    The arbiter leads a new session, so it and its workers form a process group whose id
    is the arbiter's PID: ``stop()`` can end every worker even if the arbiter is gone."""

    def __init__(self, env: dict[str, str], *, workers: int, log: Path) -> None:
        self.port = free_port()
        self.workers = workers
        self.log = log
        with open(log, "ab") as output:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "portal.wsgi",
                    "--workers",
                    str(workers),
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--log-level",
                    "warning",
                    "--graceful-timeout",
                    str(GRACEFUL_TIMEOUT),
                ],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def wait_until_healthy(self, within: float = HEALTHY_WITHIN) -> None:
        """Until ``/healthz`` answers 200, for at most ``within`` seconds in all (each try
        waits at most ``PROBE_TIMEOUT`` for its answer, a tenth of a second between tries)."""
        probe = Client(self.port, timeout=PROBE_TIMEOUT)
        deadline = time.monotonic() + within
        try:
            while time.monotonic() < deadline:
                if not self.running():
                    raise RuntimeError(f"gunicorn exited:\n{self.log_tail()}")
                if probe.call("GET", "/healthz").status == 200:
                    return
                time.sleep(0.1)
        finally:
            probe.close()
        raise RuntimeError(
            f"gunicorn did not become healthy within {within:g} s:\n{self.log_tail()}"
        )

    def stop(self) -> None:
        """SIGTERM to the arbiter (graceful: workers finish their request within gunicorn's
        ``--graceful-timeout``), by its PID. If it has not exited a few seconds after that,
        SIGKILL to its whole process group (the arbiter's PID is the group's id), so no
        worker outlives it."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=GRACEFUL_TIMEOUT + 5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@dataclass
class Answer:
    status: int  # 0: no HTTP answer at all (the connection failed)
    body: bytes
    headers: dict[str, str]
    seconds: float
    failure: str = ""

    def json(self):
        return json.loads(self.body)


@dataclass
class Client:
    """An HTTP/1.1 client of one server, with an optional bearer token; every call timed."""

    port: int
    token: str = ""
    timeout: float = 60
    connection: http.client.HTTPConnection | None = field(default=None, repr=False)

    def call(self, method: str, path: str, body: object = None) -> Answer:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        start = time.perf_counter()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=self.timeout
                )
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
            answer_headers = {name.lower(): value for name, value in response.getheaders()}
            if response.will_close:
                self.close()
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            return Answer(0, b"", {}, time.perf_counter() - start, f"{type(exc).__name__}: {exc}")
        return Answer(response.status, payload, answer_headers, time.perf_counter() - start)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


# --- Inside the portal's environment (python -m tests.stack …) ------------------------------


def build_world(*, tag: str, players: int, officers: int, managers: int, submitted: int, credit):
    """One holder with a live table; people with API tokens; paytables waiting for a decision."""
    from django.utils import timezone

    import jinzi
    from portal.access.roles import Role
    from portal.accounts.services import ensure_role_groups, holder_create, staff_user_create
    from portal.accounts.tokens import api_token_issue
    from portal.compliance.services.paytables import paytable_create, paytable_submit
    from portal.game.models import DepositMethod, SessionChannel
    from portal.game.money.services.deposits import deposit_make
    from portal.game.sessions.lifecycle import session_start
    from portal.players.services.registration import player_set_up_verified
    from tests.portal.factories import MINIMUM_ODDS, offering_in_force

    ensure_role_groups()
    holder = holder_create(
        actor=None, name=f"Load Test Casino {tag}", licence_number=f"PA-LOAD-{tag}"
    )

    def people(prefix: str, count: int, role: Role, with_holder: bool = False) -> list:
        return [
            staff_user_create(
                actor=None,
                username=f"{prefix}-{tag}-{number:02d}",
                password=None,  # API tokens only: an unusable password, nothing to hash
                role=role,
                holder=holder if with_holder else None,
            )
            for number in range(count)
        ]

    the_officers = people("officer", max(officers, 1), Role.COMPLIANCE)
    the_managers = people("manager", max(managers, 1), Role.MANAGER, with_holder=True)
    the_players = people("player", players, Role.PLAYER)
    for player in the_players:  # verified, as the demo's players are (§ 812a.2)
        player_set_up_verified(player=player)
    offering = offering_in_force(
        the_managers[0],
        the_officers[0],
        holder,
        effective=jinzi.EFFECTIVE,
        expiry=jinzi.SUNSET,
    )
    for number in range(submitted):
        author = the_managers[number % len(the_managers)]
        paytable = paytable_create(
            actor=author, holder=holder, name=f"Proposal {number}", odds=MINIMUM_ODDS
        )
        paytable_submit(actor=author, paytable=paytable)
    for number, player in enumerate(the_players):
        # A card deposit (§ 812a.7(a)) opens the player's account with the holder: a method
        # every portal offers, demo or not.
        deposit_make(
            player=player,
            holder_id=holder.pk,
            amount=credit,
            method=DepositMethod.CARD,
            reference=f"load-{tag}-{number:02d}",
        )

    # Each player plays inside an API session (§ 812a.3(a)(6)), as a sign-in through
    # POST /api/sessions/ starts it: their rounds keep it running.
    for player in the_players:
        session_start(user=player, channel=SessionChannel.API, at=timezone.now())

    def tokens(users: list) -> list[dict]:
        return [
            {
                "id": user.pk,
                "username": user.username,
                "token": api_token_issue(user=user, name="load", days=1)[1],
            }
            for user in users
        ]

    return {
        "decided": decided_by(the_officers),
        "holder": holder.pk,
        "offering": offering.pk,
        "players": tokens(the_players),
        "officers": tokens(the_officers[:officers]),
        "managers": tokens(the_managers[:managers]),
        "officer_ids": [user.pk for user in the_officers],
    }


def decided_by(officers: list) -> int:
    """How many paytables these officers have approved or rejected."""
    from portal.compliance.models import Paytable, RecordStatus

    return Paytable.objects.filter(
        decided_by__in=officers, status__in=[RecordStatus.APPROVED, RecordStatus.REJECTED]
    ).count()


def count_mismatches(*, players: list[int], officers: list[int]) -> dict:
    """What the database holds for these players and officers, and every record of theirs
    that does not add up: a round not complete, a round whose bets or ledger entries
    disagree with its totals and balances, a player's wallet whose money is not its ledger's
    sum: an account with a holder whose balance is not the sum of its entries (§ 812a.4), or
    holds more than it has, or the single wallet of older data off its own entries."""
    from django.db.models import Count, Sum

    from portal.game.models import (
        Bet,
        GamingAccount,
        LedgerEntry,
        LedgerKind,
        Round,
        RoundStatus,
        Wallet,
    )

    rounds = {
        pk: (status, staked, returned, before, after)
        for pk, status, staked, returned, before, after in Round.objects.filter(
            player_id__in=players
        ).values_list(
            "pk", "status", "total_staked", "total_returned", "balance_before", "balance_after"
        )
    }
    bets = {
        row["round_id"]: (row["count"], row["staked"], row["returned"])
        for row in Bet.objects.filter(round_id__in=rounds)
        .values("round_id")
        .annotate(count=Count("pk"), staked=Sum("stake"), returned=Sum("returned"))
    }
    entries: dict[int, list[tuple[str, int, int]]] = {}
    for round_id, kind, amount, balance_after in LedgerEntry.objects.filter(
        round_id__in=rounds
    ).values_list("round_id", "kind", "amount", "balance_after"):
        entries.setdefault(round_id, []).append((kind, amount, balance_after))

    incomplete = bets_off = ledger_off = 0
    for pk, (status, staked, returned, before, after) in rounds.items():
        incomplete += status != RoundStatus.COMPLETE
        count, bet_staked, bet_returned = bets.get(pk, (0, 0, 0))
        bets_off += not (count > 0 and bet_staked == staked and bet_returned == returned)
        expected = [(LedgerKind.STAKE, -staked, before - staked)]
        if returned:
            expected.append((LedgerKind.RETURN, returned, after))
        ledger_off += sorted(entries.get(pk, [])) != sorted(expected)
        ledger_off += before - staked + returned != after

    wallets = dict(Wallet.objects.filter(player_id__in=players).values_list("pk", "balance"))
    legacy = dict(
        LedgerEntry.objects.filter(wallet_id__in=wallets, account=None)
        .values("wallet_id")
        .annotate(total=Sum("amount"))
        .values_list("wallet_id", "total")
    )
    off = {pk for pk, balance in wallets.items() if balance != legacy.get(pk, 0)}
    accounts = list(
        GamingAccount.objects.filter(player_id__in=players).values_list(
            "pk", "player__wallet", "balance", "held"
        )
    )
    sums = dict(
        LedgerEntry.objects.filter(account_id__in=[pk for pk, *_ in accounts])
        .values("account_id")
        .annotate(total=Sum("amount"))
        .values_list("account_id", "total")
    )
    accounts_off = 0
    for pk, wallet_id, balance, held in accounts:
        if balance != sums.get(pk, 0) or not 0 <= held <= balance:
            accounts_off += 1
            off.add(wallet_id)
    return {
        "rounds": len(rounds),
        "keys": sorted(
            Round.objects.filter(player_id__in=players).values_list("idempotency_key", flat=True)
        ),
        "incomplete": incomplete,
        "bets_mismatched": bets_off,
        "ledger_mismatched": ledger_off,
        "wallets_mismatched": len(off),
        "wallets": len(wallets),
        "accounts_mismatched": accounts_off,
        "accounts": len(accounts),
        "decided": decided_by(officers),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="build or check a world in DATABASE_URL")
    commands = parser.add_subparsers(dest="command", required=True)
    world = commands.add_parser("world")
    world.add_argument("--tag", required=True)
    world.add_argument("--players", type=int, required=True)
    world.add_argument("--officers", type=int, default=0)
    world.add_argument("--managers", type=int, default=0)
    world.add_argument("--submitted", type=int, default=0)
    world.add_argument("--credit", type=int, required=True)
    check = commands.add_parser("check")
    check.add_argument("--players", required=True, help="comma-separated user ids")
    check.add_argument("--officers", default="", help="comma-separated user ids")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    import django

    django.setup()
    if args.command == "world":
        answer = build_world(
            tag=args.tag,
            players=args.players,
            officers=args.officers,
            managers=args.managers,
            submitted=args.submitted,
            credit=args.credit,
        )
    else:

        def ids(text: str) -> list[int]:
            return [int(item) for item in text.split(",") if item]

        answer = count_mismatches(players=ids(args.players), officers=ids(args.officers))
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
