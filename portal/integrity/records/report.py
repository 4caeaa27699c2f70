"""What ``verify_records`` finds, and the sorted-stream merges its checks share."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

CHUNK = 5_000  # rows per fetch of a streamed query
MAX_LISTED = 200  # problems listed in full; beyond that they are counted
RECORDS_CLAUSE = "§ 811a.7"
MONEY_CLAUSE = "§ 810a.11"
ACCOUNT_CLAUSE = "§ 812a.4"  # a holder's tables are played from the account with that holder
DEPOSIT_CLAUSE = "§ 812a.7"
WITHDRAWAL_CLAUSE = "§ 812a.10"


@dataclass(frozen=True)
class Problem:
    # "record", "ledger", "round", "top-up", "deposit", "withdrawal", "account" or "wallet"
    area: str
    subject: str  # what is wrong, e.g. "layout #3 v1"
    detail: str

    def __str__(self) -> str:
        return f"{self.subject}: {self.detail}"


@dataclass
class RecordsReport:
    """What ``verify_records`` checked, how many of each, and every problem it found (the
    first ``MAX_LISTED`` in full, the rest counted in ``unlisted``)."""

    checked: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    unlisted: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems and not self.unlisted

    @property
    def problem_count(self) -> int:
        return len(self.problems) + self.unlisted

    def add(self, area: str, subject: str, detail: str) -> None:
        if len(self.problems) < MAX_LISTED:
            self.problems.append(Problem(area, subject, detail))
        else:
            self.unlisted += 1

    def count(self, what: str, n: int = 1) -> None:
        self.checked[what] = self.checked.get(what, 0) + n


def pk_of(record) -> int:
    return record.pk


def first_of(row: tuple) -> int:
    return row[0]


class ById:
    """The items of a stream of (id, item) sorted by id, looked up in increasing id order."""

    def __init__(self, pairs: Iterator[tuple[int, object]]) -> None:
        self.pairs = pairs
        self.pending = next(pairs, None)

    def get(self, key: int, default):
        while self.pending is not None and self.pending[0] < key:
            self.pending = next(self.pairs, None)
        if self.pending is not None and self.pending[0] == key:
            return self.pending[1]
        return default


def merged(records: Iterable, keyed: Iterator[tuple[int, object]], key=pk_of):
    """(record or None, id, item or None) over records and (id, item) pairs both sorted by
    id: a record without an item, an item whose record is gone, or both."""
    pending = next(keyed, None)
    for record in records:
        record_id = key(record)
        while pending is not None and pending[0] < record_id:
            yield None, pending[0], pending[1]
            pending = next(keyed, None)
        if pending is not None and pending[0] == record_id:
            yield record, record_id, pending[1]
            pending = next(keyed, None)
        else:
            yield record, record_id, None
    while pending is not None:
        yield None, pending[0], pending[1]
        pending = next(keyed, None)
