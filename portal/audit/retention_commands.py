"""What the archive commands share (``export_audit_trail``, ``export_rounds`` and the
``--from-export`` of ``verify_audit_chain`` and ``verify_round_chain``): the file named on
the command line, and a file's problems reported as the command's error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.core.archive_files import ArchiveError


@contextmanager
def archive_problems(what: str) -> Iterator[None]:
    """A file that cannot be written or read ends the command, saying why."""
    try:
        yield
    except (ArchiveError, OSError) as exc:
        raise CommandError(f"{what}: {exc}") from None


def add_from_export(parser, written_by: str) -> None:
    parser.add_argument(
        "--from-export",
        type=Path,
        metavar="FILE",
        help=f"Verify a file written by {written_by}, reading no database.",
    )


class ArchiveExportCommand(BaseCommand):
    """Writes one archive file (``export``) and says what it holds."""

    records = ""  # what the file holds, for the messages

    def add_arguments(self, parser):
        parser.add_argument(
            "--output",
            required=True,
            type=Path,
            help="The file to write (JSON Lines; gzip-compressed if it ends in .gz). "
            "An existing file is never overwritten.",
        )

    def handle(self, *args, output: Path, **options):
        with archive_problems(f"{self.records} not exported"):
            said = self.export(output)
        self.stdout.write(said)

    def export(self, output: Path) -> str:
        """Write ``output``; return the line that tells the operator what it holds."""
        raise NotImplementedError
