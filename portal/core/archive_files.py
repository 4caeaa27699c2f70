"""Archive files of regulated records, for § 811a.7's ten years of reconstructable play.

One JSON object a line (JSON Lines, UTF-8): a header naming the format, its version and
the instant of the export (UTC, ISO 8601 with the offset), then one line per record, then
a closing line that counts them, so a file cut short says so. A name ending in ``.gz`` is
written gzip-compressed; a compressed file is recognised by its content when read.

Every value is written as the database holds it and read back to the same Python value:
integers, text, JSON as JSON, null as null, instants as UTC text with microseconds (what
the chains hash). So a record read from a file hashes exactly as the stored one did, and
a file verifies with no database at all.

A record is read back with its model's attribute names (and ``pk``), so the verification
that walks the stored records walks the exported ones unchanged. Nothing read from a file is
ever saved.
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import IO, Any, TextIO

from django.db import models
from django.utils import timezone

from portal.core.hashing import hashed_instant_text
from portal.core.version import PORTAL_VERSION

VERSION = 1
END = "end"
_GZIP_MAGIC = b"\x1f\x8b"


class ArchiveError(ValueError):
    """The file is not a readable archive of the expected kind; the message says where."""


def values_of(instance: models.Model) -> dict[str, Any]:
    """The record as the archive holds it: every column, instants as UTC text."""
    columns, instants, _ = _columns(type(instance))
    values = {name: getattr(instance, name) for name in columns}
    for name in instants:
        if values[name] is not None:
            values[name] = hashed_instant_text(values[name])
    return values


@functools.cache
def _columns(model: type[models.Model]) -> tuple[dict[str, models.Field], frozenset[str], str]:
    """The model's columns by attribute name (a foreign key under its ``_id`` name), those
    that hold instants, and its primary key's."""
    columns = {field.attname: field for field in model._meta.get_fields() if field.concrete}
    instants = frozenset(
        name for name, field in columns.items() if isinstance(field, models.DateTimeField)
    )
    key = next(name for name, field in columns.items() if field.primary_key)
    return columns, instants, key


def record_of(model: type[models.Model], values: dict[str, Any], line: int) -> SimpleNamespace:
    """The record as the model's instance would hold it: every column by its attribute name,
    and ``pk``. A column the record lacks takes the model's default (a record archived
    before the column existed); a name the model does not know is refused. A plain object,
    not a model instance: it is only read, and a million of them are read quickly."""
    columns, instants, key = _columns(model)
    unknown = values.keys() - columns.keys()
    if unknown:
        raise ArchiveError(
            f"line {line}: {model.__name__} has no field {', '.join(sorted(unknown))}"
        )
    record = {name: field.get_default() for name, field in columns.items() if name not in values}
    for name, value in values.items():
        record[name] = (
            value if value is None or name not in instants else _instant(value, name, line)
        )
    record["pk"] = record[key]
    return SimpleNamespace(**record)


def _instant(text: Any, name: str, line: int) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise ArchiveError(f"line {line}: {name} {text!r} is not an ISO 8601 instant") from None
    if value.tzinfo is None:
        raise ArchiveError(f"line {line}: {name} {text!r} has no UTC offset")
    return value


def header(kind: str, **fields: Any) -> dict[str, Any]:
    return {
        "format": kind,
        "version": VERSION,
        "exported_at": hashed_instant_text(timezone.now()),
        "portal_version": PORTAL_VERSION,
        **fields,
    }


def json_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


@contextmanager
def archive_writer(path: Path) -> Iterator[TextIO]:
    """Write ``path`` whole or not at all: into ``<path>.partial``, flushed to disk, then
    renamed. An existing archive is never overwritten."""
    if path.exists():
        raise ArchiveError(f"{path} already exists: an archive is never overwritten")
    partial = path.with_name(path.name + ".partial")
    raw = open(partial, "xb")  # noqa: SIM115 (closed below, after the data reaches the disk)
    try:
        binary: IO[bytes] = gzip.GzipFile(fileobj=raw, mode="wb") if path.suffix == ".gz" else raw
        text = io.TextIOWrapper(binary, encoding="utf-8", newline="\n")
        yield text
        text.flush()
        text.detach()
        if binary is not raw:
            binary.close()  # writes the gzip trailer; ``raw`` stays open
        raw.flush()
        os.fsync(raw.fileno())
        raw.close()
        os.replace(partial, path)
    except BaseException:
        raw.close()
        partial.unlink(missing_ok=True)
        raise


class ArchiveReader:
    """The records of one archive file, in order, each with its line number; the header is
    read and checked on opening, the closing line's counts by ``finish``."""

    def __init__(self, stream: io.BufferedReader, kind: str) -> None:
        binary: IO[bytes] = stream
        if stream.peek(2)[:2] == _GZIP_MAGIC:
            binary = gzip.GzipFile(fileobj=stream, mode="rb")
        self._lines = enumerate(io.TextIOWrapper(binary, encoding="utf-8"), start=1)
        self._next: tuple[int, dict[str, Any]] | None = None
        self.counts: dict[str, int] = {}
        self.last_line = 0
        self.header = self._read()
        if self.header is None or self.header.get("format") != kind:
            raise ArchiveError(f"line 1: not a {kind} archive")
        if self.header.get("version") != VERSION:
            raise ArchiveError(
                f"line 1: format version {self.header.get('version')!r}; this portal reads "
                f"version {VERSION}"
            )

    def _read(self) -> dict[str, Any] | None:
        for number, text in self._lines:
            self.last_line = number
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except ValueError as exc:
                raise ArchiveError(f"line {number}: not a JSON object ({exc})") from None
            if not isinstance(record, dict):
                raise ArchiveError(f"line {number}: not a JSON object")
            return record
        return None

    def _peek(self) -> tuple[int, dict[str, Any]] | None:
        if self._next is None:
            record = self._read()
            self._next = None if record is None else (self.last_line, record)
        return self._next

    def records(self, record_type: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """The run of ``record_type`` records from here on, without their ``type``."""
        while (upcoming := self._peek()) is not None and upcoming[1].get("type") == record_type:
            self._next = None
            line, record = upcoming
            self.counts[record_type] = self.counts.get(record_type, 0) + 1
            yield line, {name: value for name, value in record.items() if name != "type"}

    def refuse_if_cut_short(self) -> None:
        """A file that ends before its closing line was cut short: said first, since every
        later check of a truncated file would fail for that reason."""
        if self._peek() is None:
            raise ArchiveError(
                f"the file ends at line {self.last_line} without its closing line: it was cut short"
            )

    def finish(self) -> None:
        """The closing line must come next, count what was read, and end the file."""
        self.refuse_if_cut_short()
        upcoming = self._peek()
        line, record = upcoming
        if record.get("type") != END:
            raise ArchiveError(f"line {line}: a {record.get('type')!r} record out of place")
        self._next = None
        expected = {name: value for name, value in record.items() if name != "type"}
        read = {name: self.counts.get(name, 0) for name in expected}
        if read != expected:
            raise ArchiveError(
                f"line {line}: the closing line counts {expected}, the file holds {read}"
            )
        if self._peek() is not None:
            raise ArchiveError(f"line {self._next[0]}: a record after the closing line")


@contextmanager
def archive_reader(path: Path, kind: str) -> Iterator[ArchiveReader]:
    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise ArchiveError(f"cannot read {path}: {exc.strerror}") from None
    with stream:
        try:
            yield ArchiveReader(stream, kind)
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise ArchiveError(f"{path} cannot be read to its end: {exc}") from None
