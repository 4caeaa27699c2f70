"""What a person who is not a developer must never read: a Python type name, a model field
name, a module path or a file name. One deny-list, used by the crawl of every role's pages
and exports (``tests/system/test_plain_words.py``) and by each step of the browser
walk (``tests/system/walk/conftest.py``).

The text scanned is what is shown: a page's text outside ``<script>``, ``<style>`` and
folded ``<details>`` (whose summary still counts), plus the words read out or shown on
hover (``aria-label``, ``title``, ``alt``, ``placeholder``). The API's own documentation
is for developers and is not scanned.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Each pattern with what it catches, so a failure says which rule it broke.
DENIED: tuple[tuple[str, re.Pattern[str]], ...] = (
    # created_by_id, holder_id: a foreign key's column
    ("a field name ending in _id", re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_id\b")),
    # max_round_stake, win_threshold_cents: three words joined by underscores
    ("a snake_case field name", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9]+_[a-z0-9]+\b")),
    ("a Python type", re.compile(r"\((?:str|int|float|bool|dict|list|NoneType|Decimal)\)")),
    ("a module path", re.compile(r"\b(?:portal|jinzi|tests)\.[a-z_]+")),
    ("a file name", re.compile(r"\b[\w/-]+\.(?:py|toml|html|md)\b")),
    # Staff read a Reading by its title, linked to the Regulation page (which is exempt)
    ("a Reading's id", re.compile(r"\breading:[a-z0-9-]+")),
    # "player (user 11)": players are shown by username and the id reports use ("P11")
    ("a user's database id", re.compile(r"\(user \d+\)")),
    # "Keystone Riverside Casino #1": a record named by its number, unless the number is
    # its name (``NUMBERED_NAMES``)
    ("a record named by its number", re.compile(r"\b([A-Za-z]+) #\d+\b")),
    # "(200000 cents)", "multiples of 100 cents from 100 cents to 50,000 cents": amounts a
    # person reads are in dollars
    (
        "an amount in cents",
        re.compile(r"\(\d[\d,]* cents\)|\bmultiples of \d[\d,]* cents\b|\d cents to \d"),
    ),
    # "§ 812a.9(a)(4): welcome…": a greeting is not a refusal, it carries no clause first
    ("a clause before a greeting", re.compile(r"§ [\w.()]+: (?:welcome|your previous session)")),
    ("a wrong article", re.compile(r"\b[Aa] (?:adjustment|amendment|approval|offering|officer)\b")),
    ("a plural made by code", re.compile(r"\b(?:Outbox|Status|Box|Index)s\b")),
    # "start is after today": the form's field names, not what the page calls them
    ("a form's field name", re.compile(r"(?:^|[:;.] )(?:start|end|win_threshold) is\b")),
)

# Records whose number is their name: "Round #21", "Adjustment #3", "Audit event #12",
# "Account #2" (as the account summary names it).
NUMBERED_NAMES = frozenset(
    ("round", "game", "entry", "event", "review", "import", "void", "adjustment")
    + ("correction", "complaint", "version", "run", "notice", "finding", "head", "account")
    + ("withdrawal", "deposit")
)  # compared in lower case

# What is shown on hover or read out, beside the text itself.
SHOWN_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
HIDDEN_TAGS = {"script", "style", "template", "noscript"}


class _ShownText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0  # inside script/style
        self._folded = 0  # inside a closed <details>, outside its summary
        self._details: list[bool] = []  # per open <details>: is it folded?
        self._in_summary = 0

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag in HIDDEN_TAGS:
            self._hidden += 1
        if tag == "details":
            folded = "open" not in values
            self._details.append(folded)
            self._folded += folded
        if tag == "summary":
            self._in_summary += 1
        if not self._shown():
            return
        for name in SHOWN_ATTRIBUTES:
            if values.get(name):
                self.parts.append(values[name])

    def handle_endtag(self, tag):
        if tag in HIDDEN_TAGS and self._hidden:
            self._hidden -= 1
        if tag == "summary" and self._in_summary:
            self._in_summary -= 1
        if tag == "details" and self._details:
            self._folded -= self._details.pop()

    def _shown(self) -> bool:
        return not self._hidden and (not self._folded or self._in_summary > 0)

    def handle_data(self, data):
        if self._shown() and data.strip():
            self.parts.append(data)


# Between the texts of two elements (two cells of a table, a label and its value): not a
# space, so that a rule never reads one cell's last word with the next cell's first ("Status"
# and "#2" are a heading and a number, not "Status #2"). Invisible in a failure's context.
BETWEEN_ELEMENTS = "\u2063"


def shown_text(html: str, *, apart: bool = False) -> str:
    """The text a person sees (or hears read out) on an HTML page; ``apart``: each
    element's text kept apart from the next (for ``developer_words``)."""
    parser = _ShownText()
    parser.feed(html)
    parser.close()
    between = f" {BETWEEN_ELEMENTS} " if apart else " "
    return between.join(" ".join(part.split()) for part in parser.parts if part.split())


# Report files (PDF, XLSX, CSV) are documents for the Board and the auditors: they cite the
# register as they cite the Code, by the Reading's id, beside its clause; so does the
# Regulation page, which is the register.
CITATIONS = frozenset({"a Reading's id"})


def developer_words(text: str, *, cites_readings: bool = False) -> list[str]:
    """Each denied word in ``text``, with the rule it breaks and a little context. Text that
    ``cites_readings`` (a report file, the Regulation page) may name a Reading by its id."""
    found = []
    for rule, pattern in DENIED:
        if cites_readings and rule in CITATIONS:
            continue
        for match in pattern.finditer(text):
            if pattern.groups and match.group(1).lower() in NUMBERED_NAMES:
                continue
            start, end = max(match.start() - 40, 0), min(match.end() + 40, len(text))
            found.append(f"{rule}: {match.group(0)!r} in …{text[start:end]}…")
    return found
