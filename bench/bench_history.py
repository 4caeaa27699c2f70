"""History that only grows: what a round, a day's audit report, a month's statement and
``verify_records`` cost as the rounds behind them grow, at 1,000,000 and 3,000,000 rounds
spread over 24 months, or over the rule's life so far where that is shorter (no round
predates 2025-06-14) (``--rounds``, ``--days``).

For each size, ``generate_round_history`` adds rounds (about 10 bets each) over the same
24 months ending yesterday; then a fresh process measures, on the history as it stands:

- **a round**: ``round_play`` of 10 wagers on a generated table by a generated player, the
  median of 30 after 5 to warm up (the round's locked read and write, its chain, its ledger);
- **a day's audit report**: the document of the last gaming day, all holders, as a run
  builds it; the generator spreads every size over the same days, so the day holds more
  rounds as the history grows, and the figure that must stay flat is its time per 1,000 of
  the day's rounds (what the day's own rounds cost is the pass's, ``bench_audit_report``);
- **a month's statement**: § 812a.11's statement of the busiest generated account, over its
  last month;
- **verify_records**: the whole check (every chain from its start), the one figure that must
  grow with the history.

No pass mark: figures and their ratios to the smallest size, as measured on this machine.
Needs DATABASE_URL (a scratch PostgreSQL database: the bench migrates it and adds history).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
DAYS = 730  # 24 months
RULE_EFFECTIVE = datetime.date(2025, 6, 14)  # § 617b.8 takes effect: no history before it
WARM, TIMED = 5, 30


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    import django

    django.setup()


def _timed(work) -> float:
    clock = time.perf_counter()
    work()
    return time.perf_counter() - clock


def measure() -> dict:
    """The four figures on the history as it stands (run in a fresh process)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db.models import Count
    from django.utils import timezone

    from portal.access.roles import Role, roles_of
    from portal.core.padates import day_starts, pa_today
    from portal.demo.software import approve_running_software
    from portal.game.models import GamingAccount, LedgerEntry, PlaySession, Round, SessionChannel
    from portal.game.money.statements import statement
    from portal.game.play.services import round_play
    from portal.game.sessions.lifecycle import new_public_id
    from portal.reports import definitions
    from portal.reports.audit_report.scope import last_round_before
    from portal.software.selectors import running_software_approved

    User = get_user_model()
    # The history was approved for the software that wrote it; a later checkout of the code
    # is another identity, approved here as the demo approves its own (§ 461a.4).
    if not running_software_approved():
        officers = list(User.objects.filter(username__startswith="hist-").order_by("pk"))
        compliance = [user for user in officers if Role.COMPLIANCE in roles_of(user)]
        approve_running_software(compliance[0], compliance[1])
    busiest = (
        LedgerEntry.objects.values("account_id")
        .annotate(entries=Count("pk"))
        .order_by("-entries")
        .first()
    )
    account = GamingAccount.objects.select_related("player", "holder").get(pk=busiest["account_id"])
    last = Round.objects.filter(player_id=account.player_id).order_by("-pk").first()
    now = timezone.now()
    session = PlaySession.objects.create(
        user=account.player,
        public_id=new_public_id(),
        channel=SessionChannel.PAGES,
        started_at=now,
        last_activity_at=now,
    )
    wagers = [{"kind": "straight", "numbers": [n], "stake": 200} for n in range(10)]
    rounds = []
    for number in range(WARM + TIMED):
        took = _timed(
            lambda number=number: round_play(
                player=account.player,
                session=session.pk,
                offering_id=last.offering_id,
                wagers=wagers,
                idempotency_key=f"history-bench-{int(now.timestamp() * 1e6)}-{number}",
            )
        )
        if number >= WARM:
            rounds.append(took)

    day = pa_today() - datetime.timedelta(days=1)
    audit = definitions.definition("audit")
    parameters = audit.read(definitions.clean("audit", {"start": day.isoformat()}))
    cutoff = timezone.now()
    report = _timed(
        lambda: audit.build(parameters, lambda done, total: None, cutoff, last_round_before(cutoff))
    )
    first = day.replace(day=1) if day.day > 1 else (day - datetime.timedelta(days=1)).replace(day=1)
    month = _timed(lambda: statement(account, first, day))
    with open(os.devnull, "w") as quiet:
        verify = _timed(lambda: call_command("verify_records", stdout=quiet, stderr=quiet))
    return {
        "rounds": Round.objects.count(),
        "round_ms": statistics.median(rounds) * 1000,
        "audit_day_s": report,
        "day_rounds": Round.objects.filter(
            started_at__gte=day_starts(day),
            started_at__lt=day_starts(day + datetime.timedelta(days=1)),
        ).count(),
        "statement_s": month,
        "verify_records_s": verify,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", default="1000000,3000000", help="sizes (totals), comma-separated"
    )
    parser.add_argument("--days", type=int, default=DAYS, help="days of history (24 months)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        _django()
        print(json.dumps(measure()))
        return 0
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        print("skipped: set DATABASE_URL to a scratch PostgreSQL database")
        return 0
    sys.path.insert(0, str(ROOT))
    from tests.stack import throwaway_secrets

    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-history-"))
    env = dict(os.environ, JINZI_VAR_DIR=str(work), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    env["JINZI_DEMO"] = "1"  # the history generator is the demo app's
    for name, value in throwaway_secrets().items():
        env.setdefault(name, value)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    # No round is older than the rule (2025-06-14): 24 months back from today reaches before
    # it, so the history is spread over the rule's life so far when that is shorter.
    today = datetime.datetime.now(ZoneInfo("America/New_York")).date()  # a Pennsylvania date
    yesterday = today - datetime.timedelta(days=1)
    start = max(yesterday - datetime.timedelta(days=args.days - 1), RULE_EFFECTIVE)
    days = (yesterday - start).days + 1
    print(f"history over {days} days from {start} to {yesterday}; PostgreSQL", flush=True)
    print(
        f"{'rounds':>10}{'generated s':>13}{'round ms':>10}{'day rounds':>12}"
        f"{'day report s':>14}{'per 1,000 s':>13}{'statement s':>13}{'verify_records s':>18}",
        flush=True,
    )
    # A scratch database kept from an earlier run keeps its rounds: only what each size lacks
    # is added (none when it has them already).
    count = "from portal.game.models import Round; print(Round.objects.count())"
    counted = subprocess.run(
        [*manage, "shell", "-c", count],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    made, first = int(counted.stdout.split()[-1]), None
    for size in (int(size) for size in args.rounds.split(",")):
        clock = time.perf_counter()
        if size > made:
            subprocess.run(
                [*manage, "generate_round_history", "--rounds", str(size - made), "--start",
                 start.isoformat(), "--days", str(days), "--seed", str(size)],
                cwd=ROOT, env=env, check=True, capture_output=True,
            )  # fmt: skip
            made = size
        generated = time.perf_counter() - clock
        done = subprocess.run(
            [sys.executable, __file__, "--measure"],
            cwd=ROOT, env=env, check=False, capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            print(f"FAIL: measuring at {size:,} rounds:\n{done.stderr[-2000:]}")
            return 1
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures["audit_per_1000_s"] = figures["audit_day_s"] * 1000 / max(figures["day_rounds"], 1)
        first = first or figures
        print(
            f"{figures['rounds']:>10,}{generated:>13.1f}{figures['round_ms']:>10.1f}"
            f"{figures['day_rounds']:>12,}{figures['audit_day_s']:>14.2f}"
            f"{figures['audit_per_1000_s']:>13.2f}{figures['statement_s']:>13.2f}"
            f"{figures['verify_records_s']:>18.1f}",
            flush=True,
        )
        if figures is not first:
            ratios = ", ".join(
                f"{name} x{figures[name] / first[name]:.2f}"
                for name in ("round_ms", "audit_per_1000_s", "statement_s", "verify_records_s")
            )
            print(f"{'':>10}against the first size: {ratios}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
