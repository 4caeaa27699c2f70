"""The Board's self-exclusion list file (§ 815a.4): reading it, in the layout this project
publishes (docs/exclusion-list.md), and the normalised names listed people are matched on.

**Reading** (reading:exclusion-list-import): compliance officers import the Board's list from
a CSV file and say, when importing, whether it is a full edition or a file of additions and
removals; the header must agree. A file with anything wrong is refused whole, and the
refusal names every bad line and what is wrong with it, so the officer can correct the file
in one pass. Names are matched on ``normalised_name``: compatibility forms folded (NFKC),
case folded, and everything but letters and digits removed.

Standard library only: the import service (not this module) turns a refusal into the
portal's error and records what was read.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

CLAUSE = "815a.4"

MAX_BYTES = 5 * 1024 * 1024
MAX_LINES = 100_000
MAX_NAME_CHARACTERS = 100
MAX_ALIAS_CHARACTERS = 200
MAX_ALIASES = 20

UTF8_BOM = b"\xef\xbb\xbf"
PERSON_COLUMNS = (
    "surname",
    "given_names",
    "aliases",
    "date_of_birth",
    "ssn_last4",
    "date_listed",
    "period",
)
CHANGE_COLUMN = "change"


class ListKind(StrEnum):
    """What the officer declares the file to be when importing it."""

    FULL_EDITION = "full edition"
    CHANGES = "additions and removals"

    @property
    def columns(self) -> tuple[str, ...]:
        if self is ListKind.CHANGES:
            return (CHANGE_COLUMN, *PERSON_COLUMNS)
        return PERSON_COLUMNS


class Change(StrEnum):
    """What a line of a file of additions and removals does to the list."""

    ADD = "add"
    REMOVE = "remove"


class Period(StrEnum):
    """How long a person is listed for: the periods of § 815a.3(c)."""

    ONE_YEAR = "1 year"
    FIVE_YEARS = "5 years"
    LIFE = "life"


# What the officer reads. The heading cites the clause once; each problem after it names its
# line as a person counts the lines of the file (the header is line 1).
REFUSED = f"§ {CLAUSE}: the list file was refused"
TOO_MANY_BYTES = "the file is {size:,} bytes; a list file may be at most {limit:,} bytes (5 MiB)"
TOO_MANY_LINES = (
    "the file has {count:,} lines; a list file may have at most {limit:,} lines, "
    "the header included"
)
EMPTY_FILE = "the file is empty: it has neither the header nor any person"
NOT_UTF8 = (
    "line {line}: it is not UTF-8 text (the character at position {position} cannot be read); "
    "save the file as CSV in UTF-8 and import it again"
)
HEADER_WRONG = (
    "line 1: the header of {article} {kind} must be exactly {expected} "
    "(spaces around a column name and capital letters do not matter)"
)
HEADER_OF_OTHER_KIND = (
    "line 1: this is the header of {article} {other}, but the file was imported as "
    "{declared_article} {declared}; import it again as {article} {other}"
)
UNREADABLE_QUOTES = (
    "line {line}: its double quotes do not pair up; a value that starts with a double quote "
    'must end with one before the next comma, and a double quote inside it is written twice ("")'
)
FIELD_TOO_LONG_TO_READ = (
    "line {line}: it holds a value far longer than any name or date, so it cannot be read"
)
UNREADABLE_LINE = "line {line}: it cannot be read as values separated by commas"
WRONG_FIELD_COUNT = (
    "line {line}: it has {found} values but a line of {article} {kind} has {expected} "
    "({names}); a comma inside a name must be within double quotes"
)
CONTROL_CHARACTER = (
    "line {line}: the {field} column holds a line break, tab or other invisible control character"
)
REQUIRED_MISSING = "line {line}: the {field} column is empty"
NAME_TOO_LONG = (
    "line {line}: the {field} column has {length} characters; at most {limit} are allowed"
)
NAME_WITHOUT_LETTERS = (
    "line {line}: the {field} column has no letters or digits, so nobody could be matched on it"
)
TOO_MANY_ALIASES = "line {line}: it lists {count} aliases; at most {limit} are allowed"
ALIAS_TOO_LONG = "line {line}: alias {number} has {length} characters; at most {limit} are allowed"
ALIAS_WITHOUT_LETTERS = (
    "line {line}: alias {number} has no letters or digits, so nobody could be matched on it"
)
DATE_MISSING = "line {line}: the {field} column is empty; write the date as YYYY-MM-DD"
DATE_BADLY_WRITTEN = "line {line}: the {field} {value} is not written as YYYY-MM-DD"
DATE_NOT_REAL = "line {line}: the {field} {value} is not a real date; write it as YYYY-MM-DD"
DATE_IN_FUTURE = "line {line}: the {field} {value} is in the future (today is {today})"
BORN_AFTER_LISTED = (
    "line {line}: the date of birth {born} is after the date listed {listed}; "
    "nobody is listed before they are born"
)
SSN_NOT_FOUR_DIGITS = (
    "line {line}: the last four digits of the Social Security number must be exactly "
    "four digits, or left empty"
)
PERIOD_MISSING = "line {line}: the period column is empty; write 1 year, 5 years or life"
PERIOD_UNKNOWN = "line {line}: the period {value} is not one of 1 year, 5 years or life"
CHANGE_MISSING = "line {line}: the change column is empty; write add or remove"
CHANGE_UNKNOWN = "line {line}: the change {value} is not add or remove"
DUPLICATE_PERSON = (
    "line {line}: it lists the same person as line {first} (the same full name and date of "
    "birth); list each person once in a file"
)
NOBODY_LISTED = {
    ListKind.FULL_EDITION: (
        "the full edition lists nobody: it has the header but no line for a person"
    ),
    ListKind.CHANGES: (
        "the file of additions and removals changes nothing: it has the header but no line "
        "for a person"
    ),
}

# How each column is named in a message, and the articles of each kind of file.
FIELD_WORDS = {
    "change": "change",
    "surname": "surname",
    "given_names": "given names",
    "aliases": "aliases",
    "date_of_birth": "date of birth",
    "ssn_last4": "SSN last four",
    "date_listed": "date listed",
    "period": "period",
}
ARTICLES = {ListKind.FULL_EDITION: "a", ListKind.CHANGES: "a file of"}
SHOWN_VALUE_CHARACTERS = 40

_LINE_END = re.compile(rb"\r\n|\r|\n")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_FOUR_DIGITS = re.compile(r"[0-9]{4}")
_PERIODS = {period.value: period for period in Period}
_CHANGES = {change.value: change for change in Change}


class ListFileRefused(ValueError):
    """A list file refused whole; ``problems`` says each thing wrong, in the file's order."""

    clause = CLAUSE

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join([f"{REFUSED}:", *self.problems]))


def normalised_name(text: str) -> str:
    """``text`` as names are matched: NFKC, case folded, only its letters and digits kept.

    "O'Brien-Smith, Mary Ann" and "mary ann obriensmith" give the same key; accents are
    letters and stay ("José" is not "Jose").
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in folded if unicodedata.category(c)[0] == "L" or c.isdecimal())


@dataclass(frozen=True)
class ListedPerson:
    """One person line of a list file, as read; ``change`` is None in a full edition."""

    line: int
    change: Change | None
    surname: str
    given_names: str
    aliases: tuple[str, ...]
    date_of_birth: datetime.date
    ssn_last4: str | None
    date_listed: datetime.date
    period: Period

    @property
    def full_name(self) -> str:
        return f"{self.given_names} {self.surname}"

    @property
    def names(self) -> tuple[str, ...]:
        """The normalised full name, then each normalised alias not already there."""
        keys = [normalised_name(self.full_name), *map(normalised_name, self.aliases)]
        return tuple(dict.fromkeys(keys))

    @property
    def surname_key(self) -> str:
        return normalised_name(self.surname)


@dataclass(frozen=True)
class ListFile:
    """A list file read whole: its kind, its people in file order and the SHA-256 (hex) of
    its bytes, so the same file is not imported twice."""

    kind: ListKind
    people: tuple[ListedPerson, ...]
    digest: str


def read_list_file(data: bytes, *, kind: ListKind, today: datetime.date) -> ListFile:
    """Read a list file of ``kind``; dates are checked against ``today`` (a Pennsylvania
    date). Raises ``ListFileRefused`` naming every problem when anything is wrong."""
    if not isinstance(data, bytes):
        raise TypeError("a list file is read from its bytes")
    if not isinstance(kind, ListKind):
        raise TypeError("say which kind of list file this is with ListKind")
    if type(today) is not datetime.date:
        raise TypeError("today must be a date, not a date and time")
    digest = hashlib.sha256(data).hexdigest()
    lines = _split_lines(data)
    if not lines:
        raise ListFileRefused([EMPTY_FILE])
    return ListFile(kind=kind, people=_Reader(kind, today).read(lines), digest=digest)


def _split_lines(data: bytes) -> list[bytes]:
    """The file's lines without their ends, after the limits; refused beyond them."""
    if len(data) > MAX_BYTES:
        raise ListFileRefused([TOO_MANY_BYTES.format(size=len(data), limit=MAX_BYTES)])
    lines = _LINE_END.split(data.removeprefix(UTF8_BOM))
    if lines[-1] == b"":
        lines.pop()  # the end of the last line, not a line of its own
    if len(lines) > MAX_LINES:
        raise ListFileRefused([TOO_MANY_LINES.format(count=len(lines), limit=MAX_LINES)])
    return lines


def _shown(value: str) -> str:
    """A value the officer wrote, as a message repeats it: short, control characters out."""
    value = "".join(c if c.isprintable() else " " for c in value)
    if len(value) > SHOWN_VALUE_CHARACTERS:
        value = value[: SHOWN_VALUE_CHARACTERS - 1] + "…"
    return f"'{value}'"


class _Reader:
    """Reads the lines of one file, keeping every problem it meets."""

    def __init__(self, kind: ListKind, today: datetime.date) -> None:
        self.kind = kind
        self.today = today
        self.problems: list[str] = []
        self.undecodable: set[int] = set()
        self.first_line_of: dict[tuple[str, datetime.date], int] = {}

    def read(self, lines: list[bytes]) -> tuple[ListedPerson, ...]:
        records = _records(self._decoded(lines), self.problems)
        people: list[ListedPerson] = []
        person_lines = 0
        for first, last, fields in records:
            if first == 1:
                if self._header_ok(fields):
                    continue
                raise ListFileRefused(self.problems)  # every line would be wrong by it
            if any(line in self.undecodable for line in range(first, last + 1)):
                person_lines += 1  # already refused for its bytes
                continue
            if not fields or all(not field.strip() for field in fields):
                continue  # an empty line, or a spreadsheet's empty row
            person_lines += 1
            person = self._person(first, fields)
            if person is not None:
                people.append(person)
        if person_lines == 0:
            self.problems.append(NOBODY_LISTED[self.kind])
        if self.problems:
            raise ListFileRefused(self.problems)
        return tuple(people)

    def _decoded(self, lines: list[bytes]) -> Iterator[str]:
        for number, raw in enumerate(lines, start=1):
            try:
                yield raw.decode("utf-8") + "\n"
            except UnicodeDecodeError as error:
                position = len(raw[: error.start].decode("utf-8", errors="replace")) + 1
                self.problems.append(NOT_UTF8.format(line=number, position=position))
                self.undecodable.add(number)
                yield raw.decode("utf-8", errors="replace") + "\n"

    def _header_ok(self, fields: list[str]) -> bool:
        """Whether to read on: a wrong header is refused, and one of the other kind of file
        ends the reading."""
        if 1 in self.undecodable:
            return True
        found = tuple(field.strip().casefold() for field in fields)
        if found == self.kind.columns:
            return True
        other = ListKind.CHANGES if self.kind is ListKind.FULL_EDITION else ListKind.FULL_EDITION
        if found == other.columns:
            self.problems.append(
                HEADER_OF_OTHER_KIND.format(
                    article=ARTICLES[other],
                    other=other.value,
                    declared_article=ARTICLES[self.kind],
                    declared=self.kind.value,
                )
            )
            return False
        self.problems.append(
            HEADER_WRONG.format(
                article=ARTICLES[self.kind],
                kind=self.kind.value,
                expected=",".join(self.kind.columns),
            )
        )
        return True

    def _problem(self, template: str, **values: object) -> None:
        self.problems.append(template.format(**values))

    def _person(self, line: int, fields: list[str]) -> ListedPerson | None:
        columns = self.kind.columns
        if len(fields) != len(columns):
            self._problem(
                WRONG_FIELD_COUNT,
                line=line,
                found=len(fields),
                article=ARTICLES[self.kind],
                kind=self.kind.value,
                expected=len(columns),
                names=", ".join(FIELD_WORDS[column] for column in columns),
            )
            return None
        values = {column: field.strip() for column, field in zip(columns, fields, strict=True)}
        before = len(self.problems)
        for column, value in values.items():
            if any(unicodedata.category(c) == "Cc" for c in value):
                self._problem(CONTROL_CHARACTER, line=line, field=FIELD_WORDS[column])
        change = self._change(line, values) if self.kind is ListKind.CHANGES else None
        surname = self._name(line, "surname", values["surname"])
        given_names = self._name(line, "given_names", values["given_names"])
        aliases = self._aliases(line, values["aliases"])
        born = self._date(line, "date_of_birth", values["date_of_birth"])
        listed = self._date(line, "date_listed", values["date_listed"])
        if born is not None and listed is not None and born <= self.today and born > listed:
            self._problem(BORN_AFTER_LISTED, line=line, born=born, listed=listed)
        ssn_last4 = values["ssn_last4"] or None
        if ssn_last4 is not None and not _FOUR_DIGITS.fullmatch(ssn_last4):
            self._problem(SSN_NOT_FOUR_DIGITS, line=line)
        period = self._period(line, values["period"])
        if surname and given_names and born is not None:
            key = (normalised_name(f"{given_names} {surname}"), born)
            if key in self.first_line_of:
                self._problem(DUPLICATE_PERSON, line=line, first=self.first_line_of[key])
            else:
                self.first_line_of[key] = line
        if len(self.problems) > before or born is None or listed is None or period is None:
            return None
        return ListedPerson(
            line=line,
            change=change,
            surname=surname,
            given_names=given_names,
            aliases=aliases,
            date_of_birth=born,
            ssn_last4=ssn_last4,
            date_listed=listed,
            period=period,
        )

    def _change(self, line: int, values: dict[str, str]) -> Change | None:
        written = values["change"]
        if not written:
            self._problem(CHANGE_MISSING, line=line)
            return None
        change = _CHANGES.get(written.casefold())
        if change is None:
            self._problem(CHANGE_UNKNOWN, line=line, value=_shown(written))
        return change

    def _name(self, line: int, column: str, value: str) -> str:
        """``value`` if it is a name to list, else "" with the problem kept."""
        field = FIELD_WORDS[column]
        if not value:
            self._problem(REQUIRED_MISSING, line=line, field=field)
        elif len(value) > MAX_NAME_CHARACTERS:
            self._problem(
                NAME_TOO_LONG, line=line, field=field, length=len(value), limit=MAX_NAME_CHARACTERS
            )
        elif not normalised_name(value):
            self._problem(NAME_WITHOUT_LETTERS, line=line, field=field)
        else:
            return value
        return ""

    def _aliases(self, line: int, value: str) -> tuple[str, ...]:
        aliases = tuple(alias for part in value.split(";") if (alias := part.strip()))
        if len(aliases) > MAX_ALIASES:
            self._problem(TOO_MANY_ALIASES, line=line, count=len(aliases), limit=MAX_ALIASES)
        for number, alias in enumerate(aliases, start=1):
            if len(alias) > MAX_ALIAS_CHARACTERS:
                self._problem(
                    ALIAS_TOO_LONG,
                    line=line,
                    number=number,
                    length=len(alias),
                    limit=MAX_ALIAS_CHARACTERS,
                )
            elif not normalised_name(alias):
                self._problem(ALIAS_WITHOUT_LETTERS, line=line, number=number)
        return aliases

    def _date(self, line: int, column: str, value: str) -> datetime.date | None:
        field = FIELD_WORDS[column]
        match = _ISO_DATE.fullmatch(value)
        if not value:
            self._problem(DATE_MISSING, line=line, field=field)
            return None
        if match is None:
            self._problem(DATE_BADLY_WRITTEN, line=line, field=field, value=_shown(value))
            return None
        try:
            day = datetime.date(*(int(part) for part in match.groups()))
        except ValueError:
            self._problem(DATE_NOT_REAL, line=line, field=field, value=value)
            return None
        if day > self.today:
            self._problem(DATE_IN_FUTURE, line=line, field=field, value=value, today=self.today)
        return day

    def _period(self, line: int, value: str) -> Period | None:
        if not value:
            self._problem(PERIOD_MISSING, line=line)
            return None
        period = _PERIODS.get(value.casefold())
        if period is None:
            self._problem(PERIOD_UNKNOWN, line=line, value=_shown(value))
        return period


def _records(lines: Iterator[str], problems: list[str]) -> Iterator[tuple[int, int, list[str]]]:
    """Each CSV record with the first and last line it spans; a record that cannot be read
    is a problem, and reading goes on from the line after it."""
    reader = csv.reader(lines, strict=True)
    while True:
        first = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            template = UNREADABLE_LINE
            if "field limit" in str(error):
                template = FIELD_TOO_LONG_TO_READ
            elif "'\"'" in str(error) or "end of data" in str(error):
                template = UNREADABLE_QUOTES
            problems.append(template.format(line=first))
            if reader.line_num < first:
                return  # nothing more was read: the file has ended
            continue
        yield first, reader.line_num, fields
