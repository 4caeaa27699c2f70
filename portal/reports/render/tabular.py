"""CSV and XLSX: the report as rows, one section after another (CSV) or a sheet each (XLSX)."""

from __future__ import annotations

import csv
import dataclasses
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache
from typing import Any, BinaryIO

import xlsxwriter

from portal.core.csv_export import safe_cell
from portal.reports.document import NO_ACTIVITY, left_out_note, xlsx_rows
from portal.reports.render.common import (
    Document,
    as_decimal_text,
    as_number,
    as_whole,
    column_title,
    header_lines,
    plain_text,
    section_lines,
    shown_instant,
    text_stream,
)

# --- CSV ----------------------------------------------------------------------------------


def write_csv(document: Document, out: BinaryIO) -> None:
    """One RFC 4180 file: UTF-8 without a byte-order mark, ``\\r\\n`` line endings.

    First the § 811a.9 header as (label, value) rows and a blank row; then each section:
    its title, its column titles, its rows and totals (or one "No Activity" row), its
    notes, a blank row. Integer and money cells are bare integers (money in cents),
    percent a number of percent to 3 places (26.882 is 26.882 %, as the PDF and the XLSX
    show it; the column's title says "%"), booleans Yes/No, date-times as people read them
    (Pennsylvania time with its zone, ``shown_instant``), but in a streamed section's rows
    (the audit report's detail, read by machines too), which keep ISO 8601 with the offset
    the document records. Text cells go through
    ``safe_cell`` so a spreadsheet never runs one as a formula; numbers do not, so a
    negative amount stays a number. Rows are written one at a time as they are made; a
    streamed section's rows go straight to the file when its rows offer to write
    themselves (``write_csv``: the detail's COPY on PostgreSQL), the same bytes.
    """
    with text_stream(out) as text:
        writer = csv.writer(text)  # lineterminator "\r\n", quoting only where needed
        for label, value in header_lines(document):
            writer.writerow([label, safe_cell(value)])
        writer.writerow([])
        for section in document["sections"]:
            writer.writerow([safe_cell(section["title"])])
            writer.writerow([safe_cell(csv_column_title(column)) for column in section["columns"]])
            if section["no_activity"]:
                writer.writerow([NO_ACTIVITY])
            elif section.get("streamed"):
                rows = section["stream"]()
                direct = getattr(rows, "write_csv", None)
                text.flush()  # what is written so far, before the rows may go straight to out
                if direct is None or not direct(out):
                    kinds = [c["type"] for c in section["columns"]]
                    writer.writerows(
                        [_csv_cell(kind, v) for kind, v in zip(kinds, values, strict=True)]
                        for values in rows
                    )
            else:
                for _row_type, cells in section_lines(section):
                    writer.writerow([_csv_shown(kind, value) for kind, value in cells])
            for note in section["notes"]:
                writer.writerow([safe_cell(note)])
            writer.writerow([])


PERCENT_PLACES = Decimal("0.001")


def csv_column_title(column: dict[str, str]) -> str:
    """The column's title in the CSV: a percent column's says "%", since it holds percent."""
    title = column_title(column)
    if column["type"] == "percent" and "%" not in title:
        return f"{title} (%)"
    return title


@lru_cache(maxsize=4096)  # the detail's edges repeat row after row
def percent_number(value: Any) -> Decimal:
    """A share (0.26881720430107525) as percent to 3 places, half-even (26.882)."""
    number = as_number(value)
    exact = Decimal(repr(number)) if isinstance(number, float) else Decimal(number)
    return (exact * 100).quantize(PERCENT_PLACES, rounding=ROUND_HALF_EVEN)


def _csv_shown(kind: str, value: Any) -> Any:
    """A cell of a section people read: a date-time in Pennsylvania time with its zone."""
    if kind == "datetime" and value is not None:
        return safe_cell(shown_instant(value))
    return _csv_cell(kind, value)


def _csv_cell(kind: str, value: Any) -> Any:
    """A cell as recorded: what a streamed section's rows hold, the same bytes the detail's
    COPY writes."""
    if value is None:
        return ""
    if kind in ("integer", "money"):
        return as_whole(value)
    if kind == "percent":
        return percent_number(value)
    if kind == "decimal":
        return as_decimal_text(value)
    if kind == "boolean":
        return "Yes" if value else "No"
    return safe_cell(value)


# --- XLSX ---------------------------------------------------------------------------------

XLSX_NUMBER_FORMATS = {
    "integer": "#,##0",
    "decimal": "#,##0.0000",
    "money": "#,##0",  # cents, as in the CSV and the JSON: exact, no float rounding
    "percent": "0.000%",
    "date": "yyyy-mm-dd",
}
XLSX_WIDTHS = {"text": 30, "flag": 24, "datetime": 27, "date": 12, "boolean": 8, "percent": 10}
XLSX_KINDS = ("text", "integer", "money", "decimal", "percent", "date", "datetime", "boolean")
SHEET_NAME_LIMIT = 31
SHEET_NAME_FORBIDDEN = str.maketrans({char: " " for char in "[]:*?/\\"})


def write_xlsx(document: Document, out: BinaryIO) -> None:
    """A workbook: a "Report" sheet with the § 811a.9 header and a list of the sections,
    then one sheet per section.

    The header is on the "Report" sheet only, so that each section sheet is a plain table:
    its title on row 1, its column titles (bold, frozen) on row 2, its rows from row 3, the
    totals bold, then the notes. Every sheet prints landscape with the report's title and
    "Page X of Y" in its footer. Money is written as integer cents with format ``#,##0``
    (the column title says cents), the same numbers as the CSV; percent as a fraction with
    format ``0.000%``; dates as real Excel dates; date-times as text in Pennsylvania time
    with its zone (``shown_instant``); booleans as Excel booleans. A streamed section keeps
    to one sheet: past the rows a sheet holds (``xlsx_rows``: Excel's 1,048,576 with the
    title rows and notes) the rest are left out, and its title, a note and the "Report"
    sheet say how many and that the CSV and Parquet files hold every row.

    ``constant_memory`` keeps only the current row in memory and so needs every sheet
    written row by row, in order, which is how the sheets below are written. Text is
    written with ``write_string``, so no cell ever becomes a formula.
    """
    sections = document["sections"]
    names = _sheet_names(sections)
    with xlsxwriter.Workbook(out, {"constant_memory": True}) as workbook:
        workbook.set_properties({"title": plain_text(document["title"])})
        styles = _XlsxStyles.of(workbook, footer=_xlsx_footer(document))
        _xlsx_report_sheet(workbook, styles, document, names)
        for name, section in zip(names, sections, strict=True):
            _xlsx_section_sheet(workbook, styles, name, section)


@dataclasses.dataclass(frozen=True)
class _XlsxStyles:
    """The workbook's formats: the sheet titles', the column titles', each kind of cell's
    (plain and bold), and every sheet's printed footer."""

    bold: Any
    heading: Any
    big: Any
    cells: dict[tuple[str, bool], Any]
    footer: str

    @classmethod
    def of(cls, workbook: xlsxwriter.Workbook, *, footer: str) -> _XlsxStyles:
        return cls(
            bold=workbook.add_format({"bold": True}),
            heading=workbook.add_format({"bold": True, "text_wrap": True, "bottom": 1}),
            big=workbook.add_format({"bold": True, "font_size": 14}),
            cells={
                (kind, is_bold): workbook.add_format(
                    {"bold": is_bold, "num_format": XLSX_NUMBER_FORMATS[kind]}
                    if kind in XLSX_NUMBER_FORMATS
                    else {"bold": is_bold}
                )
                for kind in XLSX_KINDS
                for is_bold in (False, True)
            },
            footer=footer,
        )


def _xlsx_report_sheet(
    workbook: xlsxwriter.Workbook, styles: _XlsxStyles, document: Document, names: list[str]
) -> None:
    """The "Report" sheet: the § 811a.9 header, then each sheet and the section it holds."""
    sheet = workbook.add_worksheet("Report")
    _xlsx_print_setup(sheet, styles.footer)
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, 1, 80)
    sheet.write_string(0, 0, plain_text(document["title"]), styles.big)
    row = 2
    for label, value in header_lines(document):
        sheet.write_string(row, 0, label, styles.bold)
        sheet.write_string(row, 1, value)
        row += 1
    row += 1
    sheet.write_string(row, 0, "Sheet", styles.bold)
    sheet.write_string(row, 1, "Section", styles.bold)
    for name, section in zip(names, document["sections"], strict=True):
        row += 1
        sheet.write_string(row, 0, name)
        empty = f" ({NO_ACTIVITY})" if section["no_activity"] else ""
        if section.get("streamed") and left_out_note(section):
            empty = _kept(section)
        sheet.write_string(row, 1, plain_text(section["title"]) + empty)


def _xlsx_section_sheet(
    workbook: xlsxwriter.Workbook, styles: _XlsxStyles, name: str, section: dict[str, Any]
) -> None:
    """One section's sheet: its title, its column titles (frozen, repeated on each printed
    page), its rows, then its notes."""
    title, notes = plain_text(section["title"]), list(section["notes"])
    left_out = left_out_note(section) if section.get("streamed") else None
    if left_out:
        title += _kept(section)
        notes.append(left_out)
    sheet = workbook.add_worksheet(name)
    _xlsx_print_setup(sheet, styles.footer)
    columns = section["columns"]
    for index, column in enumerate(columns):
        default = XLSX_WIDTHS.get(column["type"], 14)
        sheet.set_column(index, index, max(default, min(len(column_title(column)), 40)))
    sheet.freeze_panes(2, 0)
    sheet.repeat_rows(1)  # column titles on every printed page
    sheet.write_string(0, 0, title, styles.bold)
    for index, column in enumerate(columns):
        sheet.write_string(1, index, column_title(column), styles.heading)
    row = 2
    if section["no_activity"]:
        sheet.write_string(row, 0, NO_ACTIVITY, styles.bold)
        row += 1
    elif section.get("streamed"):
        row = _xlsx_streamed_rows(sheet, styles, section, row)
    else:
        for row_type, cells in section_lines(section):
            for index, (kind, value) in enumerate(cells):
                cell_format = styles.cells[_xlsx_kind(kind), row_type != "detail"]
                _xlsx_cell(sheet, row, index, kind, value, cell_format)
            row += 1
    for offset, note in enumerate(notes, 1):
        sheet.write_string(row + offset, 0, plain_text(note))


def _xlsx_streamed_rows(sheet, styles: _XlsxStyles, section: dict[str, Any], row: int) -> int:
    """A streamed section's rows from ``row``, up to Excel's limit with the sheet's title
    rows and notes: the rows past it are left out (the sheet's title and notes say where
    they are). The row after the last written."""
    kinds = [_xlsx_kind(c["type"]) for c in section["columns"]]
    cell_formats = [styles.cells[kind, False] for kind in kinds]
    end = row + xlsx_rows(section)
    rows = iter(section["stream"]())
    for values in rows:
        for index, (kind, value) in enumerate(zip(kinds, values, strict=True)):
            _xlsx_cell(sheet, row, index, kind, value, cell_formats[index])
        row += 1
        if row == end:
            break
    if hasattr(rows, "close"):
        rows.close()  # its cursors, when the rows past the sheet are left unread
    return row


def _kept(section: dict[str, Any]) -> str:
    """What a cut-short streamed section's sheet holds, after its title."""
    return (
        f" (the first {xlsx_rows(section):,} of {section['row_count']:,} rows; every row is in "
        "the CSV and Parquet files)"
    )


def _xlsx_kind(kind: str) -> str:
    return "text" if kind == "flag" else kind


def _xlsx_cell(sheet, row: int, col: int, kind: str, value: Any, cell_format) -> None:
    if value is None:
        sheet.write_blank(row, col, None, cell_format)
    elif kind in ("integer", "money"):
        sheet.write_number(row, col, as_whole(value), cell_format)
    elif kind == "percent":
        sheet.write_number(row, col, float(as_number(value)), cell_format)
    elif kind == "decimal":
        # The cell shows the figure to 4 places; the exact text is in the CSV and JSON.
        sheet.write_number(row, col, float(as_decimal_text(value)), cell_format)
    elif kind == "date":
        day = value if isinstance(value, date) else date.fromisoformat(value)
        sheet.write_datetime(row, col, day, cell_format)
    elif kind == "boolean":
        sheet.write_boolean(row, col, bool(value), cell_format)
    elif kind == "datetime":
        sheet.write_string(row, col, shown_instant(value), cell_format)
    else:
        sheet.write_string(row, col, plain_text(value), cell_format)


# Words a shortened sheet name does not end on ("Paytables with an edge of 0 or").
DANGLING = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "no",
        "not",
        "of",
        "on",
        "or",
        "than",
        "that",
        "the",
        "to",
        "was",
        "were",
        "with",
        "without",
    ]
)


def shortened(text: str, limit: int = SHEET_NAME_LIMIT) -> str:
    """``text`` in at most ``limit`` characters, cut only between words and never ending
    on a word that leads on ("of", "the", "or"); a first word longer than ``limit`` alone
    is cut (no name can be longer)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for word in text.split():
        if len(" ".join([*kept, word])) > limit:
            break
        kept.append(word)
    while kept and (kept[-1].lower() in DANGLING or not any(c.isalnum() for c in kept[-1])):
        kept.pop()
    name = " ".join(kept).rstrip(",;:-–— ")
    return name or text[:limit]


def _sheet_names(sections: list[dict[str, Any]]) -> list[str]:
    """A sheet name per section: its short name (``sheet``) if it has one, else its title;
    without the characters Excel refuses, at most 31 characters cut between whole words,
    not starting or ending with an apostrophe, unique ignoring case."""
    used = {"report", "history"}  # ours, and the one Excel reserves
    names = []
    for number, section in enumerate(sections, 1):
        chosen = section.get("sheet") or section["title"]
        base = " ".join(plain_text(chosen).translate(SHEET_NAME_FORBIDDEN).split())
        base = base.strip("'") or f"Section {number}"
        name, copy = shortened(base).strip(" '"), 1
        while name.lower() in used:
            copy += 1
            suffix = f" ({copy})"
            name = shortened(base, SHEET_NAME_LIMIT - len(suffix)).strip(" '") + suffix
        used.add(name.lower())
        names.append(name)
    return names


def _xlsx_footer(document: Document) -> str:
    # "&" starts a code in Excel's header and footer strings; the whole is at most 255.
    title = plain_text(document["title"])[:120].replace("&", "&&")
    return f"&L{title}&RPage &P of &N"


def _xlsx_print_setup(sheet, footer: str) -> None:
    sheet.set_landscape()
    sheet.set_paper(1)  # letter
    sheet.fit_to_pages(1, 0)  # as wide as one page, as long as it takes
    sheet.set_footer(footer)
