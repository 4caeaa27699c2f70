"""A page's CSV download is for people: its header row is in words ("Occurred at (UTC)").
The API's CSV export is for programs: its header keeps the keys its clients read by."""

from __future__ import annotations

import csv
import io

import pytest

from portal.audit.export import HEADER
from portal.core.csv_export import csv_lines, plain_header
from tests.portal.factories import make_layout


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("clause", "Clause"),
        ("object_id", "Object ID"),
        ("id", "ID"),
        ("round_ids", "Round IDs"),
        ("occurred_at_utc", "Occurred at (UTC)"),
        ("balance_after_cents", "Balance after (cents)"),
        ("rng_raw", "RNG raw"),
        ("paid_identity", "Paid identity"),  # "id" inside a word is left alone
    ],
)
def test_a_columns_key_reads_as_words(key, words):
    assert plain_header(key) == words


def test_only_the_header_is_worded_and_only_when_asked():
    header = ["object_id", "amount_cents"]
    rows = [["object_id", 250]]  # a cell is written as it is, whatever it says

    worded = list(csv_lines(header, rows, words=True))
    keyed = list(csv_lines(header, rows))

    assert worded == ["Object ID,Amount (cents)\r\n", "object_id,250\r\n"]
    assert keyed == ["object_id,amount_cents\r\n", "object_id,250\r\n"]


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8"))))


@pytest.mark.django_db
def test_the_trails_page_csv_is_in_words_and_the_apis_keeps_its_keys(
    login, auditor, manager_a, holder_a
):
    make_layout(manager_a, holder_a)
    client = login(auditor)
    filters = {"action": "layout.create"}

    page = _csv(client.get("/audit/export.csv", filters))
    api = _csv(client.get("/api/audit-events/export/", filters))

    assert page[0] == [plain_header(key) for key in HEADER]
    assert page[0][:3] == ["Sequence", "Occurred at (UTC)", "Actor username"]
    assert api[0] == list(HEADER) and api[0][:2] == ["sequence", "occurred_at_utc"]
    assert len(page) == 2 and page[1:] == api[1:]  # the same rows under either header
