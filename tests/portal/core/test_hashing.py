"""The hashed form of a record (§ 811a.7: the audit trail and the game rounds are hash
chains, and archive files are verified by the same hashes). Every stored hash was made from
this exact text, so it is pinned here character by character: a change that writes one
instant, or one payload, differently fails here before it breaks the chains."""

from __future__ import annotations

import datetime as dt
import time
from zoneinfo import ZoneInfo

import pytest

from portal.core.hashing import canonical_digest, hashed_instant_text

NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.parametrize(
    ("instant", "text"),
    [
        # Microseconds always written, six digits, even when there are none.
        (dt.datetime(2024, 1, 1, tzinfo=dt.UTC), "2024-01-01T00:00:00.000000+00:00"),
        (
            dt.datetime(2024, 3, 10, 6, 59, 59, 123456, tzinfo=dt.UTC),
            "2024-03-10T06:59:59.123456+00:00",
        ),
        (dt.datetime(2024, 7, 4, 16, 0, 0, 1, tzinfo=dt.UTC), "2024-07-04T16:00:00.000001+00:00"),
        # Any zone is written as UTC, with +00:00 (never "Z").
        (dt.datetime(2024, 1, 15, 12, 0, tzinfo=NEW_YORK), "2024-01-15T17:00:00.000000+00:00"),
        (
            dt.datetime(2024, 7, 4, 12, 0, 0, 1, tzinfo=NEW_YORK),
            "2024-07-04T16:00:00.000001+00:00",
        ),
        (
            dt.datetime(2024, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=5, minutes=30))),
            "2023-12-31T18:30:00.000000+00:00",
        ),
        # The hour that happens twice in November: each side is its own instant.
        (dt.datetime(2024, 11, 3, 1, 30, tzinfo=NEW_YORK), "2024-11-03T05:30:00.000000+00:00"),
        (
            dt.datetime(2024, 11, 3, 1, 30, fold=1, tzinfo=NEW_YORK),
            "2024-11-03T06:30:00.000000+00:00",
        ),
        (dt.datetime(1, 1, 1, tzinfo=dt.UTC), "0001-01-01T00:00:00.000000+00:00"),
    ],
)
def test_811a7_the_hashed_instant_text_never_changes(instant, text):
    assert hashed_instant_text(instant) == text


@pytest.fixture
def local_zone(monkeypatch):
    """Set the process's local time zone; the one before is back afterwards."""

    def set_zone(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("zone", "text"),
    [
        ("UTC", "2024-01-15T12:00:00.000000+00:00"),
        ("America/New_York", "2024-01-15T17:00:00.000000+00:00"),
    ],
)
def test_811a7_a_naive_instant_is_not_refused_but_read_as_the_local_time(local_zone, zone, text):
    local_zone(zone)
    assert hashed_instant_text(dt.datetime(2024, 1, 15, 12, 0)) == text


def test_811a7_the_canonical_digest_never_changes():
    """Sorted keys, no spaces, UTF-8 as it is (not \\u escapes), SHA-256 in lower-case hex."""
    payload = {
        "sequence": 1,
        "reason": "Prüfung § 811a.7",
        "occurred_at": hashed_instant_text(
            dt.datetime(2024, 3, 10, 1, 59, 59, 123456, tzinfo=NEW_YORK)
        ),
    }
    assert canonical_digest(payload) == (
        "891071eef37d5568822b12d3ff6aa6bef08e2953e84c1c816c189361501e6136"
    )
