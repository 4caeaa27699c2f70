import re
from argparse import ArgumentTypeError
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.audit.chain import ChainReport, verify_stored
from portal.audit.retention import verify_archive
from portal.audit.retention_commands import add_from_export, archive_problems

_KEPT_HEAD = re.compile(r"#?(?P<sequence>[1-9][0-9]*)[: ](?P<hash>[0-9a-f]{64})")


def kept_head(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` (or ``#SEQ HASH``, as the reports and this command print it)."""
    match = _KEPT_HEAD.fullmatch(text.strip().lower())
    if match is None:
        raise ArgumentTypeError(
            f"{text!r} is not a head: give the event's sequence and its 64-character hash, "
            "as SEQ:HASH"
        )
    return int(match["sequence"]), match["hash"]


class Command(BaseCommand):
    help = (
        "Walk the audit chain (§ 811a.7), stored or exported; exit non-zero naming the first "
        "broken event."
    )

    def add_arguments(self, parser):
        add_from_export(parser, "export_audit_trail")
        parser.add_argument(
            "--expect-head",
            type=kept_head,
            action="append",
            default=[],
            metavar="SEQ:HASH",
            help="A head kept outside the system (a daily audit report prints it): the chain "
            "must pass through it, so a rewritten or truncated chain shows. May be repeated.",
        )

    def handle(self, *args, from_export: Path | None, expect_head: list, **options):
        if from_export is None:
            report, source = verify_stored(expect_head), "audit chain"
        else:
            with archive_problems("exported audit chain unreadable"):
                report = verify_archive(from_export, expect_head)
            source = f"exported audit chain {from_export}"
        if not report.ok:
            raise CommandError(_broken(source, report))
        self.stdout.write(
            f"{source} intact: {report.checked} events verified; "
            f"head #{report.head[0]} {report.head[1]} (note it down: it anchors the chain)"
        )


def _broken(source: str, report: ChainReport) -> str:
    where = f" (id {report.broken_id})" if report.broken_id is not None else ""
    return (
        f"{source} broken at event #{report.broken_sequence}{where}: "
        f"{report.problem}; {report.checked} events before it are intact (§ 811a.7)"
    )
