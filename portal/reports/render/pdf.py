"""PDF: landscape letter, set in DejaVu Sans (embedded: ``portal.core.pdf_fonts``), the
§ 811a.9 header, a table per section, the charts (a page each), and "Page X of Y"."""

from __future__ import annotations

import io
import re
from functools import partial
from typing import Any, BinaryIO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Image,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
)

from portal.core.pdf_fonts import BOLD, REGULAR, register
from portal.reports.document import NO_ACTIVITY
from portal.reports.render.common import (
    NUMERIC,
    Cells,
    Document,
    as_number,
    as_whole,
    column_title,
    header_lines,
    plain_text,
    section_lines,
    shown_instant,
)

# --- PDF ----------------------------------------------------------------------------------

PAGE = landscape(letter)
MARGIN = 0.5 * inch
FOOTER_Y = 0.3 * inch
BOTTOM_MARGIN = MARGIN + 0.2 * inch  # room for the footer
FRAME_PADDING = 6  # the padding inside platypus's page frame, each side
TABLE_WIDTH = PAGE[0] - 2 * MARGIN - 2 * FRAME_PADDING
FRAME_HEIGHT = PAGE[1] - MARGIN - BOTTOM_MARGIN - 2 * FRAME_PADDING
CELL_PADDING = 3
# A table this many rows long at most: ReportLab re-measures the rest of a table at every
# page break, so one long table costs time quadratic in its length (20,000 five-column rows:
# 24 s as one table, 4 s in pieces). The column titles repeat at the top of each piece.
PDF_TABLE_ROWS = 1000
# Points: a single token wider than this (a SHA-256, a URL: no word, date or number is) may
# be broken across lines; every other word is whole, wrapped only at spaces.
PDF_LONGEST_WORD = 130
PDF_LONGEST_TEXT = 300  # points: no column asks for more before wrapping
SIZES = (8, 7, 6)  # a table's type: the largest at which its columns fit side by side
CHART_DPI = 150  # sharp in print at the page's width (10 inches: 1,500 pixels across)
CHART_TITLE_HEIGHT = 14 + 6  # the chart's title line and the space under it


# A section sign and the spaces after it, which a line must not break.
SECTION_SPACE = re.compile(r"§[ \t]+")


def pdf_text(value: Any) -> str:
    """Text as the PDF draws it: in DejaVu Sans, so Σ, ±, –, ≤ and accented names print
    as written; control characters (which no font draws) become spaces; "§" never parts
    from the number after it at a line's end (a no-break space joins them)."""
    text = plain_text(value)
    if not text.isprintable():
        text = "".join(
            char if char.isprintable() or char == "\n" else " " for char in text.replace("\t", " ")
        )
    return SECTION_SPACE.sub("§\u00a0", text)


class NumberedCanvas(Canvas):
    """A canvas that holds every page until the end, so each footer can say "of Y".

    ``showPage`` keeps the finished page's state instead of emitting it; ``save`` then
    knows the page count, and emits each page with its footer drawn on top."""

    def __init__(self, *args: Any, footer: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._page_states: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._page_states.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._page_states)
        for state in self._page_states:
            self.__dict__.update(state)
            self._draw_footer(total)
            super().showPage()
        super().save()

    def _draw_footer(self, total: int) -> None:
        self.saveState()
        self.setFont(REGULAR, 7)
        number = f"Page {self._pageNumber} of {total}"
        self.drawRightString(PAGE[0] - MARGIN, FOOTER_Y, number)
        room = TABLE_WIDTH - stringWidth(number, REGULAR, 7) - 20
        self.drawString(MARGIN, FOOTER_Y, _fit(self._footer, room, REGULAR, 7))
        self.restoreState()


def _fit(text: str, width: float, font: str, size: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def write_pdf(document: Document, out: BinaryIO, *, compress: bool = True) -> None:
    """Letter, landscape, DejaVu Sans: the § 811a.9 header, then each section's title and
    table (column titles repeated on every page, subtotal and totals rows bold, "No
    Activity" when empty) and its notes, so the first page shows the figures; then the
    charts if the document has any (each on a page of its own, titled, filling it). Every
    page's footer carries the title, the generation time and "Page X of Y".

    A table's type is 8 pt, or 7 or 6 pt when it is wide; its columns are as wide as their
    longest word, so text wraps only at spaces and no word, number or date is broken; a
    table too wide for the page even so is shown in parts, each repeating the first column.
    ``compress=False`` writes uncompressed page streams and a byte-stable file (ReportLab's
    ``invariant``), so tests can read the text."""
    register()
    title = pdf_text(document["title"])
    generated = shown_instant(document["generated_at"]["pa"])
    canvasmaker = partial(NumberedCanvas, footer=f"{title} | Generated {generated}")
    pdf = SimpleDocTemplate(
        out,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=BOTTOM_MARGIN,
        title=title,
        # The canvas starts in DejaVu Sans too: its default, Helvetica, would be named in
        # the file without being embedded.
        initialFontName=REGULAR,
        pageCompression=1 if compress else 0,
        invariant=0 if compress else 1,
    )
    # The report opens on its figures: the header, then the sections; the charts follow,
    # each on a page of its own.
    story: list[Any] = [_pdf_header(document)]
    for section in document["sections"]:
        story += _pdf_section(section)
    story += _pdf_charts(document)
    pdf.build(story, canvasmaker=canvasmaker)


def _style(name: str, *, bold: bool = False, size: float = 9, **kwargs: Any) -> ParagraphStyle:
    """A paragraph style in the report's font; words are never split (a line breaks at a
    space) unless ``splitLongWords`` is asked for."""
    kwargs.setdefault("splitLongWords", 0)
    return ParagraphStyle(
        name, fontName=BOLD if bold else REGULAR, fontSize=size, leading=size * 1.22, **kwargs
    )


def _pdf_header(document: Document) -> Table:
    label = _style("label", bold=True)
    text = _style("text")
    big = _style("title", bold=True, size=14)
    rows = [[Paragraph(escape(pdf_text(document["title"])), big), ""]]
    rows += [
        [Paragraph(escape(name), label), Paragraph(escape(pdf_text(value)), text)]
        for name, value in header_lines(document)
    ]
    return Table(
        rows,
        colWidths=[2.2 * inch, TABLE_WIDTH - 2.2 * inch],
        hAlign="LEFT",
        # Its cells are paragraphs; the table's own font (for the spanned blank) is DejaVu too.
        style=[
            ("SPAN", (0, 0), (-1, 0)),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONT", (0, 0), (-1, -1), REGULAR, 8),
        ],
    )


def _pdf_charts(document: Document) -> list[Any]:
    """Each chart on a page of its own: its title over a PNG drawn to fill the page."""
    if not document.get("charts"):
        return []
    # Here, not at the top: matplotlib takes half a second to import, which only a process
    # that draws a chart should pay.
    from portal.reports.render.chart_drawing import chart_png, document_charts

    heading = _style("chart", bold=True, size=11)
    width, height = TABLE_WIDTH, FRAME_HEIGHT - CHART_TITLE_HEIGHT - 2  # 2: rounding room
    story: list[Any] = []
    for chart in document_charts(document):
        png = chart_png(chart, dpi=CHART_DPI, size=(width / inch, height / inch))
        title = Paragraph(escape(pdf_text(chart["title"])), heading)
        image = Image(io.BytesIO(png), width=width, height=height, hAlign="LEFT")
        story += [PageBreak(), KeepTogether([title, Spacer(1, 6), image])]
    return story


def _pdf_section(section: dict[str, Any]) -> list[Any]:
    columns = section["columns"]
    titles = [pdf_text(column_title(column)) for column in columns]

    def shown(row_type: str, cells: Cells) -> tuple[str, list[str]]:
        return row_type, [_pdf_display(kind, value) for kind, value in cells]

    if section["no_activity"]:
        lines = [("subtotal", [NO_ACTIVITY] + [""] * (len(columns) - 1))]
    else:
        lines = [shown(row_type, cells) for row_type, cells in section_lines(section)]
    # Every table of the section has the same widths, measured on all its rows (the PDF
    # holds no streamed section), so its pieces line up and no later row breaks a word.
    sample = [] if section["no_activity"] else [texts for _, texts in lines]
    size, widths = _pdf_layout(titles, sample)

    styles = {
        (bold, right): _style("cell", bold=bold, size=size, alignment=TA_RIGHT if right else 0)
        for bold in (False, True)
        for right in (False, True)
    }
    numeric = [column["type"] in NUMERIC for column in columns]
    heading = _style("section", bold=True, size=11)
    note = _style("note", size=8, textColor=colors.HexColor("#333333"))
    story: list[Any] = [Spacer(1, 12), Paragraph(escape(pdf_text(section["title"])), heading)]
    groups = _column_groups(widths)
    for part, group in enumerate(groups, 1):
        if len(groups) > 1:
            shown_titles = ", ".join(titles[index] for index in group[1:])
            story.append(Paragraph(escape(f"Part {part} of {len(groups)}: {shown_titles}"), note))
        group_widths = _filled([widths[index] for index in group])
        header = [Paragraph(escape(titles[index]), styles[True, numeric[index]]) for index in group]
        for start in range(0, len(lines), PDF_TABLE_ROWS):
            chunk = lines[start : start + PDF_TABLE_ROWS]
            rows = [
                [
                    _pdf_cell(texts[index], width, styles[row_type != "detail", numeric[index]])
                    for index, width in zip(group, group_widths, strict=True)
                ]
                for row_type, texts in chunk
            ]
            types = [row_type for row_type, _ in chunk]
            shown_numeric = [numeric[index] for index in group]
            story.append(_pdf_table(header, rows, types, group_widths, shown_numeric, size))
        if section["no_activity"]:
            story[-1].setStyle([("SPAN", (0, 1), (-1, 1)), ("ALIGN", (0, 1), (-1, 1), "LEFT")])
        if part < len(groups):
            story.append(Spacer(1, 8))
    if section["notes"]:
        story.append(Spacer(1, 4))
    story += [Paragraph(escape(pdf_text(text)), note) for text in section["notes"]]
    return story


def _words(text: str) -> list[str]:
    return text.split()


def _pdf_layout(titles: list[str], sample: list[list[str]]) -> tuple[float, list[float]]:
    """The type size and the column widths of a section's tables.

    Each column is at least as wide as its longest word in bold (titles and totals are
    bold), so that a word, a number or a date is never broken (a single token wider than
    ``PDF_LONGEST_WORD``, a hash or a URL, excepted). The size is the largest of ``SIZES``
    at which those least widths fit the page side by side. When every column's longest
    text fits too, the widths are in proportion to those; otherwise the room left is shared
    in proportion to what each column would still use. When even the least widths at the
    smallest size are wider than the page, they are returned as they are, wider than the
    page: the section is then shown in parts (``_column_groups``)."""
    register()
    padding = 2 * CELL_PADDING + 1  # 1: a word exactly as wide as the room still wraps
    words, texts = [], []  # at 1 pt, in bold: the widest a cell is drawn (titles, totals)
    for index, title in enumerate(titles):
        column = [row[index] for row in sample]
        split = _words(title) + [word for text in column for word in _words(text)]
        words.append(max([stringWidth(word, BOLD, 1) for word in set(split)] + [0]))
        texts.append(
            max(
                [stringWidth(line, BOLD, 1) for text in set(column) for line in text.split("\n")]
                + [0]
            )
        )
    for size in SIZES:
        least = [min(word * size, PDF_LONGEST_WORD) + padding for word in words]
        if sum(least) <= TABLE_WIDTH:
            break
    else:
        return size, least
    most = [
        max(low, min(text * size, PDF_LONGEST_TEXT) + padding)
        for low, text in zip(least, texts, strict=True)
    ]
    if sum(most) <= TABLE_WIDTH:
        # The page's full width, shared in proportion: room for later rows' longer texts.
        return size, [TABLE_WIDTH * high / sum(most) for high in most]
    spare = TABLE_WIDTH - sum(least)
    wants = [high - low for low, high in zip(least, most, strict=True)]
    return size, [low + spare * want / sum(wants) for low, want in zip(least, wants, strict=True)]


def _column_groups(widths: list[float]) -> list[list[int]]:
    """The columns of each part of a table: all of them when they fit the page; otherwise
    parts as wide as the page, each starting with the first column (the row's title)."""
    if sum(widths) <= TABLE_WIDTH + 0.01 or len(widths) < 2:
        return [list(range(len(widths)))]
    groups: list[list[int]] = []
    current, used = [0], widths[0]
    for index in range(1, len(widths)):
        if len(current) > 1 and used + widths[index] > TABLE_WIDTH:
            groups.append(current)
            current, used = [0], widths[0]
        current.append(index)
        used += widths[index]
    groups.append(current)
    return groups


def _filled(widths: list[float]) -> list[float]:
    """``widths`` widened in proportion to the page's width (never narrowed)."""
    total = sum(widths)
    if total >= TABLE_WIDTH or not total:
        return widths
    return [TABLE_WIDTH * width / total for width in widths]


def _pdf_table(header, rows, types, widths, numeric, size) -> Table:
    """One table: the column titles (repeated on each page), then ``rows``, whose row types
    are ``types``: subtotal and totals rows bold, a rule above the totals."""
    style = [
        ("FONT", (0, 0), (-1, -1), REGULAR, size, size * 1.22),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    style += [("ALIGN", (i, 0), (i, -1), "RIGHT") for i, right in enumerate(numeric) if right]
    for index, row_type in enumerate(types, 1):  # 1: after the column titles
        if row_type != "detail":
            style.append(("FONT", (0, index), (-1, index), BOLD, size))
        if row_type == "total":
            style.append(("LINEABOVE", (0, index), (-1, index), 0.75, colors.black))
    # splitInRow: a row taller than a page (a very long text) continues on the next page
    # instead of failing the whole document.
    return Table(
        [header, *rows], colWidths=widths, repeatRows=1, splitInRow=1, style=style, hAlign="LEFT"
    )


def _pdf_display(kind: str, value: Any) -> str:
    if value is None:
        return ""
    if kind in ("integer", "money"):
        return f"{as_whole(value):,}"
    if kind == "percent":
        return f"{float(as_number(value)) * 100:.3f}%"
    if kind == "boolean":
        return "Yes" if value else "No"
    if kind == "datetime":
        return pdf_text(shown_instant(value))  # Pennsylvania time with its zone
    return pdf_text(value)


def _pdf_cell(text: str, width: float, style: ParagraphStyle) -> str | Paragraph:
    """Text that fits its column as a plain string (cheap to lay out), else a Paragraph,
    which wraps it at its spaces within the column (a token wider than the column, which
    only a hash or a URL is, broken where it must)."""
    room = width - 2 * CELL_PADDING
    if "\n" not in text and stringWidth(text, style.fontName, style.fontSize) <= room:
        return text
    if any(stringWidth(word, style.fontName, style.fontSize) > room for word in _words(text)):
        style = ParagraphStyle(f"{style.name}-split", parent=style, splitLongWords=1)
    return Paragraph(escape(text).replace("\n", "<br/>"), style)
