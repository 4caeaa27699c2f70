from django.core.management.base import BaseCommand, CommandError

from portal.integrity.records import verify_records


class Command(BaseCommand):
    help = (
        "Check the rows beside the chains (§ 811a.7, § 810a.11, § 812a.7, § 812a.10): every "
        "compliance record against the replay of its audit events, every ledger entry against "
        "its round, its audited deposit, payout or top-up, every account and wallet against "
        "its ledger; exit non-zero naming every problem."
    )

    def handle(self, *args, **options):
        report = verify_records()
        checked = ", ".join(f"{what}: {count:,}" for what, count in report.checked.items())
        if not report.ok:
            lines = [str(problem) for problem in report.problems]
            if report.unlisted:
                lines.append(f"… and {report.unlisted:,} more")
            raise CommandError(
                f"records do not match their audit trail and ledger: {report.problem_count:,} "
                f"problem(s) (checked {checked}):\n" + "\n".join(f"  {line}" for line in lines)
            )
        self.stdout.write(
            f"records intact: {checked} checked in {report.seconds:.1f} s; every record "
            "matches its audit events, every ledger entry its round or audited deposit, "
            "payout or top-up, every account and wallet its ledger"
        )
