"""BENCH/DEMO DATA: N rounds of realistic play for the audit report (``portal.demo.history``)."""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError

from portal.demo.history import BATCH, HistoryError, generate_history


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # not on every platform
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class Command(BaseCommand):
    help = (
        "BENCH/DEMO DATA: write N rounds of history over past Pennsylvania days, each stored "
        "as a real round is (CSPRNG outcome, jinzi settlement, the player's hash chain, stake "
        "and return ledger entries, the demo deposits that fund each player's account with the "
        "table's holder), in bulk. Every run sets up NEW certificate "
        "holders, tables and players (named hist-<tag>-…) through the services, never reusing "
        "earlier ones: table 1 of each holder moves from the minimum paytable to a more "
        "generous v2 halfway through the period; every second holder also runs a table 2 "
        "above the minimum. The approvals are dated now, after the rounds."
    )

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, required=True, help="how many rounds")
        parser.add_argument("--bets-per-round", type=int, default=10, help="about this many")
        parser.add_argument("--holders", type=int, default=3, help="new certificate holders")
        parser.add_argument(
            "--players", type=int, default=None, help="new players (default rounds/500, ≥ 5)"
        )
        parser.add_argument(
            "--start",
            type=datetime.date.fromisoformat,
            default=None,
            help="first PA day, YYYY-MM-DD (default: days + 30 days before today)",
        )
        parser.add_argument("--days", type=int, default=30, help="PA days of play")
        parser.add_argument("--seed", type=int, default=None, help="for the choices, not the RNG")
        parser.add_argument("--batch", type=int, default=BATCH, help="rounds per transaction")

    def handle(self, *args, **options):
        def progress(done: int, total: int) -> None:
            if options["verbosity"] > 1:
                self.stderr.write(f"  {done:,} / {total:,} rounds")

        try:
            report = generate_history(
                rounds=options["rounds"],
                bets_per_round=options["bets_per_round"],
                holders=options["holders"],
                players=options["players"],
                start=options["start"],
                days=options["days"],
                seed=options["seed"],
                batch=options["batch"],
                progress=progress,
            )
        except HistoryError as exc:
            raise CommandError(str(exc)) from None
        last = report.start + datetime.timedelta(days=report.days - 1)
        write = report.write_seconds or 1e-9
        self.stdout.write(f"Round history {report.tag}: {report.start} to {last} (PA days)")
        for table in report.tables:
            versions = ", ".join(
                f"paytable v{version} {count:,} rounds"
                for version, count in sorted(table.rounds.items())
            )
            self.stdout.write(f"  {table.label} (offering {table.offering_id}): {versions}")
        self.stdout.write(
            f"  {report.players:,} players; {report.rounds:,} rounds, {report.bets:,} bets, "
            f"{report.entries:,} ledger entries ({report.deposits:,} deposits)"
        )
        rss = _peak_rss_mb()
        self.stdout.write(
            f"  setup {report.setup_seconds:.1f} s; rounds written in {report.write_seconds:.1f} s"
            f": {report.rounds / write:,.0f} rounds/s, {report.bets / write:,.0f} bets/s"
            + (f"; peak RSS {rss:,.0f} MB" if rss is not None else "")
        )
