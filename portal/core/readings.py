"""Readings named for people: where a message or a stored reason cites the register's
``reading:<id>``, a page shows the reading's title, linked to its entry on the Regulation
page, and an email its title; the id itself stays in the API and the stored data (the audit
trail and the availability log are append-only: presented, never rewritten).

The titles are the register's; the regulation app, above this one, gives them at start-up
(``register_titles``), so core names no app.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.forms.utils import ErrorList
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

READING = re.compile(r"reading:[a-z0-9]+(?:-[a-z0-9]+)*")

_titles: list[Callable[[str], str | None]] = []


def register_titles(lookup: Callable[[str], str | None]) -> None:
    """How a reading's id is turned into its title (the register's)."""
    _titles[:] = [lookup]


def title_of(reading: str) -> str | None:
    return _titles[0](reading) if _titles else None


def regulation_anchor(reading: str) -> str:
    """The reading's entry on the Regulation page."""
    return f"/regulation/#clause-{slugify(reading)}"


def readings_linked(text: str) -> SafeString:
    """``text`` escaped, each known reading's id replaced by its title linked to its entry
    (an unknown id is left as it is)."""
    parts, last = [], 0
    for found in READING.finditer(text):
        title = title_of(found.group())
        if title is None:
            continue
        parts.append(escape(text[last : found.start()]))
        parts.append(
            format_html(
                '<a href="{}" class="reading">the reading “{}”</a>',
                regulation_anchor(found.group()),
                title,
            )
        )
        last = found.end()
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))  # noqa: S308 - every part escaped above


def readings_named(text: str) -> str:
    """``text`` for an email: each known reading's id replaced by its title, quoted."""

    def named(found: re.Match) -> str:
        title = title_of(found.group())
        return f"the reading “{title}”" if title else found.group()

    return READING.sub(named, text)


class ReadingErrorList(ErrorList):
    """A form's errors as a page shows them: each reading's id by its title, linked to the
    Regulation page (a form's ``error_class``). Every way a template reads an error (the
    field's own list, the error summary, a loop over the errors) goes through here."""

    def __getitem__(self, i):
        error = super().__getitem__(i)
        if isinstance(error, str) and READING.search(error):
            return readings_linked(error)
        return error
