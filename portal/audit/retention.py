"""The whole audit trail as an archive file, and its chain verified from that file alone
(§ 811a.7: logs exportable, and game play reconstructable for ten years).

The file (see ``portal.core.archive_files``): a header with the trail's head when the
export began, one line per event with every stored column (what ``chain.event_digest``
hashes, the event's id and its hash), oldest first, and a closing line counting the events.

The export takes the head first and then the events up to it: the chain is appended under
one lock and the head moves in the same transaction as its event, so every event up to the
head is already stored, and events written meanwhile are left for the next export.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from types import SimpleNamespace

from portal.audit.chain import ChainReport, in_sequence, stored_head, verify
from portal.audit.models import AuditEvent
from portal.core.archive_files import (
    END,
    ArchiveError,
    ArchiveReader,
    archive_reader,
    archive_writer,
    header,
    json_line,
    record_of,
    values_of,
)

FORMAT = "jinzi-roulette/audit-trail"
EVENT = "event"


def export_to(path: Path) -> tuple[int, tuple[int, str]]:
    """Write the archive to ``path``, the events streamed from the database; the number of
    events written and the head the header records are returned."""
    sequence, head = stored_head()
    count = 0
    with archive_writer(path) as out:
        out.write(json_line(header(FORMAT, head={"sequence": sequence, "hash": head})))
        for event in in_sequence(AuditEvent.objects.filter(sequence__lte=sequence)):
            out.write(json_line({"type": EVENT, **values_of(event)}))
            count += 1
        out.write(json_line({"type": END, EVENT: count}))
    return count, (sequence, head)


def events_from(reader: ArchiveReader) -> Iterator[SimpleNamespace]:
    for line, values in reader.records(EVENT):
        yield record_of(AuditEvent, values, line)


def verify_archive(path: Path, kept: Iterable[tuple[int, str]] = ()) -> ChainReport:
    """The chain of an archive file, walked from its first event to the head its header
    records (and through every head in ``kept``). Reads no database."""
    with archive_reader(path, FORMAT) as reader:
        head = reader.header.get("head")
        if not isinstance(head, dict) or not {"sequence", "hash"} <= set(head):
            raise ArchiveError("line 1: the header records no head")
        report = verify(events_from(reader), (head["sequence"], head["hash"]), kept)
        if report.ok:
            reader.finish()
        else:
            reader.refuse_if_cut_short()
    return report
