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
)

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


def shown_text(html: str) -> str:
    """The text a person sees (or hears read out) on an HTML page."""
    parser = _ShownText()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def developer_words(text: str) -> list[str]:
    """Each denied word in ``text``, with the rule it breaks and a little context."""
    found = []
    for rule, pattern in DENIED:
        for match in pattern.finditer(text):
            start, end = max(match.start() - 40, 0), min(match.end() + 40, len(text))
            found.append(f"{rule}: {match.group(0)!r} in …{text[start:end]}…")
    return found
