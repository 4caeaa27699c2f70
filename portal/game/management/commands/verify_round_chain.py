from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.audit.retention_commands import add_from_export, archive_problems
from portal.game import retention


class Command(BaseCommand):
    help = (
        "Walk every player's chain of rounds (§ 810a.11) and check every holder account and "
        "wallet against its ledger, every deposit and withdrawal against its entry (§ 812a.7, "
        "§ 812a.10), stored or exported (§ 811a.7); exit non-zero at the first break."
    )

    def add_arguments(self, parser):
        add_from_export(parser, "export_rounds")

    def handle(self, *args, from_export: Path | None, **options):
        if from_export is None:
            report, source = retention.verify_stored(), "round chains"
        else:
            with archive_problems("exported game records unreadable"):
                report = retention.verify_archive(from_export)
            source = f"exported round chains {from_export}"
        chains, ledger = report.rounds, report.ledger
        if not chains.ok:
            where = f"round {chains.broken_round_id}" if chains.broken_round_id > 0 else "a wallet"
            raise CommandError(f"{source}: chain broken at {where}: {chains.problem}")
        if not ledger.ok:
            raise CommandError(f"{source}: ledger broken: {ledger.problem}")
        self.stdout.write(
            f"{source} intact: {chains.checked} rounds verified; "
            f"{ledger.checked} ledger entries add up"
        )
