"""§ 811a.7: the audit trail exported whole, and its chain verified from the file alone."""

from __future__ import annotations

import gzip
from datetime import datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from portal.audit import triggers
from portal.audit.chain import event_digest
from portal.audit.models import AuditEvent, AuditHead
from portal.core.archive_files import values_of
from tests.system.retention.conftest import read_lines, write_lines

pytestmark = pytest.mark.django_db


def export(tmp_path, name="trail.jsonl"):
    path = tmp_path / name
    call_command("export_audit_trail", output=path, stdout=_Sink())
    return path


class _Sink:
    text = ""

    def write(self, text):
        self.text += text


def verify_export(path, *kept) -> str:
    out = _Sink()
    call_command("verify_audit_chain", from_export=path, expect_head=list(kept), stdout=out)
    return out.text


def head():
    stored = AuditHead.objects.get(pk=1)
    return stored.sequence, stored.hash


def test_811a7_exported_trail_verifies_with_no_database_query(
    history, tmp_path, django_assert_num_queries
):
    path = export(tmp_path)
    sequence, hash_ = head()

    with django_assert_num_queries(0):
        said = verify_export(path, (sequence, hash_))

    assert f"{sequence} events verified; head #{sequence} {hash_}" in said


def test_811a7_export_holds_every_column_and_hashes_back_exactly(history, tmp_path):
    path = export(tmp_path)

    header, *events, end = read_lines(path)
    stored = list(AuditEvent.objects.order_by("sequence"))
    assert header["format"] == "jinzi-roulette/audit-trail"
    assert header["version"] == 1
    assert datetime.fromisoformat(header["exported_at"]).utcoffset().total_seconds() == 0
    assert header["head"] == {"sequence": stored[-1].sequence, "hash": stored[-1].hash}
    assert end == {"type": "end", "event": len(stored)}
    assert [{"type": "event", **values_of(event)} for event in stored] == events
    # The values that must round-trip into the digest: a null actor, JSON, an instant.
    assert any(event["actor_id"] is None for event in events)
    assert any(isinstance(event["after"], dict) for event in events)
    assert any("Café Zéro ☘" in str(event["after"]) for event in events)
    assert all(event["occurred_at"].endswith("+00:00") for event in events)
    for event in events:
        fields = dict(event, occurred_at=datetime.fromisoformat(event["occurred_at"]))
        assert event_digest(fields) == event["hash"]


def test_811a7_a_compressed_export_verifies(history, tmp_path):
    path = export(tmp_path, "trail.jsonl.gz")

    assert gzip.decompress(path.read_bytes()).startswith(b'{"format":"jinzi-roulette/audit-trail"')
    assert f"{head()[0]} events verified" in verify_export(path)


def test_811a7_an_export_never_overwrites_a_file(history, tmp_path):
    path = tmp_path / "trail.jsonl"
    path.write_text("kept\n")

    with pytest.raises(CommandError, match="already exists: an archive is never overwritten"):
        export(tmp_path)
    assert path.read_text() == "kept\n"
    assert not (tmp_path / "trail.jsonl.partial").exists()


def _alter(lines):
    lines[3]["reason"] = "forged"  # event #3


def _alter_and_rehash(lines):
    _alter(lines)
    instant = datetime.fromisoformat(lines[3]["occurred_at"])
    lines[3]["hash"] = event_digest(dict(lines[3], occurred_at=instant))


def _remove(lines):
    del lines[5]  # event #5


def _swap(lines):
    lines[2], lines[3] = lines[3], lines[2]  # events #2 and #3


@pytest.mark.parametrize(
    ("forge", "named"),
    [
        pytest.param(_alter, r"event #3 \(id \d+\): .*altered.*§ 811a\.7", id="altered"),
        pytest.param(_alter_and_rehash, r"event #4 .*prev_hash", id="altered-and-rehashed"),
        pytest.param(_remove, r"event #6 .*sequence 6 follows 4", id="removed"),
        pytest.param(_swap, r"event #3 .*an event is missing", id="reordered"),
    ],
)
def test_811a7_a_forged_export_names_its_first_broken_event(history, tmp_path, forge, named):
    path = export(tmp_path)
    lines = read_lines(path)
    forge(lines)
    write_lines(path, lines)

    with pytest.raises(CommandError, match="broken at " + named):
        verify_export(path)


def test_811a7_events_dropped_from_the_tail_are_caught_by_the_headers_head(history, tmp_path):
    path = export(tmp_path)
    lines = read_lines(path)
    write_lines(path, [*lines[:-3], lines[-1]])  # the last two events gone, the closing line kept

    with pytest.raises(CommandError, match=r"ends at event #\d+ but its recorded head is #"):
        verify_export(path)


def test_811a7_an_export_cut_short_says_so(history, tmp_path):
    path = export(tmp_path)
    write_lines(path, read_lines(path)[:-3])

    with pytest.raises(CommandError, match="without its closing line: it was cut short"):
        verify_export(path)


def test_811a7_a_file_cut_mid_line_is_unreadable(history, tmp_path):
    path = export(tmp_path)
    path.write_bytes(path.read_bytes()[:-40])

    with pytest.raises(CommandError, match=r"unreadable: line \d+: not a JSON object"):
        verify_export(path)


def test_811a7_truncated_tail_caught_against_kept_head(history, tmp_path):
    kept = head()
    path = export(tmp_path)
    lines = read_lines(path)
    # A forger drops the newest events and rewrites the header's head and the count to match.
    header, events = lines[0], lines[1:-1]
    kept_events = events[:-2]
    header["head"] = {"sequence": kept_events[-1]["sequence"], "hash": kept_events[-1]["hash"]}
    write_lines(path, [header, *kept_events, {"type": "end", "event": len(kept_events)}])

    assert f"{len(kept_events)} events verified" in verify_export(path)  # consistent on its own
    with pytest.raises(
        CommandError,
        match=rf"ends at event #{kept[0] - 2} but a head kept outside the system is #{kept[0]}",
    ):
        verify_export(path, kept)


def test_811a7_an_export_passes_through_every_earlier_kept_head(history, tmp_path):
    earlier = head()
    call_command("verify_audit_chain", expect_head=[earlier], stdout=_Sink())
    from portal.accounts.services import holder_create

    holder_create(actor=None, name="Later Holder", licence_number="PA-004")
    path = export(tmp_path)

    assert f"{earlier[0] + 1} events verified" in verify_export(path, earlier, head())
    with pytest.raises(CommandError, match=rf"event #{earlier[0]} .*head kept outside the system"):
        verify_export(path, (earlier[0], "f" * 64))


def _tamper(sql: str, params: list) -> None:
    """Someone with database rights: lift the triggers, change rows, put them back."""
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    triggers.install(connection)


def test_811a7_truncated_stored_tail_caught_against_kept_head(history):
    kept = head()
    newest = AuditEvent.objects.get(sequence=kept[0] - 2)
    _tamper("DELETE FROM audit_auditevent WHERE sequence > %s", [newest.sequence])
    AuditHead.objects.filter(pk=1).update(sequence=newest.sequence, hash=newest.hash)

    call_command("verify_audit_chain", stdout=_Sink())  # the database alone cannot tell
    with pytest.raises(CommandError, match="a head kept outside the system is #"):
        call_command("verify_audit_chain", expect_head=[kept], stdout=_Sink())


@pytest.mark.parametrize("text", ["12", "12:abc", "0:" + "a" * 64, "x:" + "a" * 64])
def test_811a7_a_kept_head_must_name_a_sequence_and_a_hash(text):
    with pytest.raises(CommandError, match="is not a head"):
        call_command("verify_audit_chain", "--expect-head", text)


def test_811a7_a_kept_head_is_read_as_the_reports_print_it():
    from portal.audit.management.commands.verify_audit_chain import kept_head

    assert kept_head("#12 " + "AB" * 32) == kept_head("12:" + "ab" * 32) == (12, "ab" * 32)


@pytest.mark.clause("811a.7", kind="related")
def test_811a7_export_reads_a_fixed_number_of_queries(history, tmp_path, django_assert_num_queries):
    with django_assert_num_queries(2):  # the head, then the events streamed
        export(tmp_path)
