from django.core.management.base import BaseCommand, CommandError

from portal.audit.chain import stored_head, verify_stored


class Command(BaseCommand):
    help = "Walk the audit chain (§ 811a.7); exit non-zero naming the first broken event."

    def handle(self, *args, **options):
        report = verify_stored()
        head = stored_head()
        if not report.ok:
            where = f" (id {report.broken_id})" if report.broken_id is not None else ""
            raise CommandError(
                f"audit chain broken at event #{report.broken_sequence}{where}: "
                f"{report.problem}; {report.checked} events before it are intact"
            )
        self.stdout.write(
            f"audit chain intact: {report.checked} events verified; "
            f"head #{head[0]} {head[1]} (note it down: it anchors the chain)"
        )
