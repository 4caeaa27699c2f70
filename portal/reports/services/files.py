"""A run's files: each written whole under a temporary name in the reports folder, then
moved to its final name and recorded in one step, so a retried run never leaves two outputs
or half a file; and each download recorded in the audit trail."""

from __future__ import annotations

import hashlib
import os
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction

from portal.audit.services import audit_record
from portal.reports import render
from portal.reports.models import ReportFile, ReportRun


def reports_dir() -> Path:
    folder = Path(settings.JINZI_REPORTS_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class _Hashing:
    """A binary file that counts and hashes what is written through it."""

    def __init__(self, raw) -> None:
        self.raw, self.size, self.sha256 = raw, 0, hashlib.sha256()

    def write(self, data) -> int:
        self.raw.write(data)
        self.size += len(data)
        self.sha256.update(data)
        return len(data)

    def flush(self) -> None:
        self.raw.flush()

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def seekable(self) -> bool:
        return False

    @property
    def closed(self) -> bool:
        return self.raw.closed


def write_file(run: ReportRun, document: dict, fmt: str, *, formats=None) -> bool:
    """The run's document in one format: written, synced, then moved into place as its
    row is recorded (with its size and SHA-256). ``formats``: the report's own writers
    (``Definition.formats``), else a report document's. A format the document is not made in
    (``render.formats_of``: Parquet without a streamed section) writes nothing: False."""
    if formats is None and fmt not in render.formats_of(document):
        return False
    writer, content_type, extension = (formats or render.FORMATS)[fmt]
    folder = reports_dir()
    name = f"{run.kind}-{run.pk}.{extension}"
    temporary = folder / f".{name}.{uuid.uuid4().hex}.part"
    try:
        with open(temporary, "wb") as raw:
            out = _Hashing(raw)
            writer(document, out)
            raw.flush()
            os.fsync(raw.fileno())
        with transaction.atomic():
            ReportFile.objects.update_or_create(
                run=run,
                format=fmt,
                defaults={
                    "name": name,
                    "content_type": content_type,
                    "size": out.size,
                    "sha256": out.sha256.hexdigest(),
                },
            )
            os.replace(temporary, folder / name)  # last: the row rolls back if this fails
    finally:
        temporary.unlink(missing_ok=True)
    return True


def sweep_partial_files(run: ReportRun) -> None:
    """A worker killed while writing leaves its temporary file: the next attempt removes it."""
    for leftover in reports_dir().glob(f".{run.kind}-{run.pk}.*.part"):
        leftover.unlink(missing_ok=True)


@transaction.atomic
def report_file_downloaded(*, actor, report_file: ReportFile, via: str) -> Path:
    """Record who took a copy (each download is in the audit trail); the file's path."""
    audit_record(
        actor=actor,
        action="report.download",
        object_type="report_run",
        object_id=report_file.run_id,
        after={
            "format": report_file.format,
            "sha256": report_file.sha256,
            "size": report_file.size,
            "via": via,
        },
    )
    return reports_dir() / report_file.name
