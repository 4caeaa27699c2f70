"""PDF: landscape letter, the § 811a.9 header, the charts, a table per section, and
"Page X of Y"."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from functools import partial
from itertools import islice
from typing import Any, BinaryIO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Image, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table

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
    totals_line,
)

# --- PDF ----------------------------------------------------------------------------------

PAGE = landscape(letter)
MARGIN = 0.5 * inch
FOOTER_Y = 0.3 * inch
TABLE_WIDTH = PAGE[0] - 2 * MARGIN - 2 * 6  # 6: the padding inside platypus's page frame
CELL_PADDING = 3
# A table this many rows long at most: ReportLab re-measures the rest of a table at every
# page break, so one long table costs time quadratic in its length (20,000 five-column rows:
# 24 s as one table, 4 s in pieces). The column titles repeat at the top of each piece.
PDF_TABLE_ROWS = 1000
PDF_LONGEST_WORD = 100  # points: a longer word (a hash, a URL) may be broken
PDF_LONGEST_TEXT = 300  # points: no column asks for more before wrapping
CHART_DPI = 150  # sharp in print at the page's width (10 inches: 1,500 pixels across)
PDF_REPLACEMENTS = str.maketrans(
    {
        "≤": "<=",
        "≥": ">=",
        "≠": "!=",
        "–": "-",
        "—": "-",
        "−": "-",
        "…": "...",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "•": "*",
        "→": "->",
        "€": "EUR",
        "Ł": "L",  # a letter of its own, not L plus an accent: NFKD keeps it
        "ł": "l",
    }
)


def pdf_text(value: Any) -> str:
    """Text Helvetica can draw: ReportLab's built-in fonts cover Latin-1 only, so common
    typographic characters become their ASCII spelling, accented letters lose the accent
    and anything else becomes "?"; control characters become spaces."""
    text = plain_text(value).translate(PDF_REPLACEMENTS)
    if text.isascii() and text.isprintable():
        return text
    kept = []
    for char in text:
        code = ord(char)
        if code < 0x20 or 0x7F <= code < 0xA0:
            kept.append(" ")
        elif code < 0x100:
            kept.append(char)
        else:
            bare = unicodedata.normalize("NFKD", char).encode("latin-1", "ignore").decode("latin-1")
            kept.append(bare or "?")
    return "".join(kept)


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
        self.setFont("Helvetica", 7)
        number = f"Page {self._pageNumber} of {total}"
        self.drawRightString(PAGE[0] - MARGIN, FOOTER_Y, number)
        room = TABLE_WIDTH - stringWidth(number, "Helvetica", 7) - 20
        self.drawString(MARGIN, FOOTER_Y, _fit(self._footer, room, "Helvetica", 7))
        self.restoreState()


def _fit(text: str, width: float, font: str, size: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "...", font, size) > width:
        text = text[:-1]
    return text + "..."


def write_pdf(document: Document, out: BinaryIO, *, compress: bool = True) -> None:
    """Letter, landscape, Helvetica: the § 811a.9 header, the charts if the document has
    any (each titled, as wide as the page, never split), then each section's title and
    table (column titles repeated on every page, subtotal and totals rows bold, "No
    Activity" when empty) and its notes. Every page's footer carries the title, the
    generation time and "Page X of Y".

    A table's type is 8 pt, or 7 or 6 pt when it is wide; text wider than its column wraps.
    ``compress=False`` writes uncompressed page streams and a byte-stable file (ReportLab's
    ``invariant``), so tests can read the text."""
    title = pdf_text(document["title"])
    generated = pdf_text(document["generated_at"]["pa"])
    canvasmaker = partial(NumberedCanvas, footer=f"{title} | Generated {generated}")
    pdf = SimpleDocTemplate(
        out,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 0.2 * inch,  # room for the footer
        title=title,
        pageCompression=1 if compress else 0,
        invariant=0 if compress else 1,
    )
    story: list[Any] = [_pdf_header(document), *_pdf_charts(document)]
    for section in document["sections"]:
        story += _pdf_section(section)
    pdf.build(story, canvasmaker=canvasmaker)


def _pdf_header(document: Document) -> Table:
    label = ParagraphStyle("label", fontName="Helvetica-Bold", fontSize=9, leading=11)
    text = ParagraphStyle("text", fontName="Helvetica", fontSize=9, leading=11)
    big = ParagraphStyle("title", fontName="Helvetica-Bold", fontSize=14, leading=18)
    rows = [[Paragraph(escape(pdf_text(document["title"])), big), ""]]
    rows += [
        [Paragraph(escape(name), label), Paragraph(escape(pdf_text(value)), text)]
        for name, value in header_lines(document)
    ]
    return Table(
        rows,
        colWidths=[2.2 * inch, TABLE_WIDTH - 2.2 * inch],
        hAlign="LEFT",
        style=[("SPAN", (0, 0), (-1, 0)), ("VALIGN", (0, 0), (-1, -1), "TOP")],
    )


def _pdf_charts(document: Document) -> list[Any]:
    """Each chart as its title over a PNG as wide as the tables, kept on one page."""
    if not document.get("charts"):
        return []
    # Here, not at the top: matplotlib takes half a second to import, which only a process
    # that draws a chart should pay.
    from portal.reports.render.charts import chart_png, document_charts

    heading = ParagraphStyle("chart", fontName="Helvetica-Bold", fontSize=11, leading=14)
    story: list[Any] = []
    for chart in document_charts(document):
        png = chart_png(chart, dpi=CHART_DPI)
        pixels_wide, pixels_high = ImageReader(io.BytesIO(png)).getSize()
        height = TABLE_WIDTH * pixels_high / pixels_wide
        title = Paragraph(escape(pdf_text(chart["title"])), heading)
        image = Image(io.BytesIO(png), width=TABLE_WIDTH, height=height, hAlign="LEFT")
        story += [Spacer(1, 12), KeepTogether([title, Spacer(1, 4), image])]
    return story


def _pdf_section(section: dict[str, Any]) -> list[Any]:
    columns = section["columns"]
    titles = [pdf_text(column_title(column)) for column in columns]

    def shown(row_type: str, cells: Cells) -> tuple[str, list[str]]:
        return row_type, [_pdf_display(kind, value) for kind, value in cells]

    if section["no_activity"]:
        lines: Iterator[tuple[str, list[str]]] = iter([])
        chunk = [("subtotal", [NO_ACTIVITY] + [""] * (len(columns) - 1))]
    else:
        lines = (shown(row_type, cells) for row_type, cells in section_lines(section))
        chunk = list(islice(lines, PDF_TABLE_ROWS))
    # Every table of the section has the same widths, measured on its first rows and its
    # totals (the widest numbers), so the pieces of a long section line up.
    sample = [texts for _, texts in chunk]
    if section["totals"] is not None:
        sample.append(shown(*next(totals_line(section)))[1])
    size, widths = _pdf_layout(titles, sample)

    styles = {
        (bold, right): ParagraphStyle(
            "cell",
            fontName="Helvetica-Bold" if bold else "Helvetica",
            fontSize=size,
            leading=size * 1.2,
            alignment=TA_RIGHT if right else 0,
        )
        for bold in (False, True)
        for right in (False, True)
    }
    numeric = [column["type"] in NUMERIC for column in columns]
    heading = ParagraphStyle("section", fontName="Helvetica-Bold", fontSize=11, leading=14)
    note = ParagraphStyle("note", fontName="Helvetica-Oblique", fontSize=8, leading=10)
    story: list[Any] = [Spacer(1, 12), Paragraph(escape(pdf_text(section["title"])), heading)]
    header = [
        Paragraph(escape(title), styles[True, right])
        for title, right in zip(titles, numeric, strict=True)
    ]
    while chunk:
        rows = [
            [
                _pdf_cell(text, width, styles[row_type != "detail", right])
                for text, width, right in zip(texts, widths, numeric, strict=True)
            ]
            for row_type, texts in chunk
        ]
        types = [row_type for row_type, _ in chunk]
        story.append(_pdf_table(header, rows, types, widths, numeric, size))
        chunk = list(islice(lines, PDF_TABLE_ROWS))
    if section["no_activity"]:
        story[-1].setStyle([("SPAN", (0, 1), (-1, 1)), ("ALIGN", (0, 1), (-1, 1), "LEFT")])
    if section["notes"]:
        story.append(Spacer(1, 4))
    story += [Paragraph(escape(pdf_text(text)), note) for text in section["notes"]]
    return story


def _pdf_layout(titles: list[str], sample: list[list[str]]) -> tuple[float, list[float]]:
    """The type size and the column widths of a section's tables, which fill the page.

    Each column is at least as wide as its longest word, so that a number or a date is
    never broken (a word longer than ``PDF_LONGEST_WORD`` excepted). When every column's
    longest text fits, the widths are in proportion to those; otherwise the room left is
    shared in proportion to what each column would still use. The size is the largest of
    8, 7 and 6 pt at which the least widths fit; at 6 pt a table that still does not fit is
    narrowed all over."""
    padding = 2 * CELL_PADDING + 1  # 1: a word exactly as wide as the room still wraps
    words, texts = [], []  # at 1 pt, in bold: the widest a cell is drawn (titles, totals)
    for index, title in enumerate(titles):
        column = [row[index] for row in sample]
        split = title.split() + [word for text in column for word in text.split()]
        words.append(max([stringWidth(word, "Helvetica-Bold", 1) for word in split] + [0]))
        texts.append(max([stringWidth(text, "Helvetica-Bold", 1) for text in column] + [0]))
    for size in (8, 7, 6):
        least = [min(word * size, PDF_LONGEST_WORD) + padding for word in words]
        if sum(least) <= TABLE_WIDTH:
            break
    else:
        return size, [TABLE_WIDTH * width / sum(least) for width in least]
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


def _pdf_table(header, rows, types, widths, numeric, size) -> Table:
    """One table: the column titles (repeated on each page), then ``rows``, whose row types
    are ``types``: subtotal and totals rows bold, a rule above the totals."""
    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", size, size * 1.2),
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
            style.append(("FONT", (0, index), (-1, index), "Helvetica-Bold", size))
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
        # A space for the "T" (as RFC 3339 allows) lets it wrap between date and time.
        return pdf_text(value).replace("T", " ", 1)
    return pdf_text(value)


def _pdf_cell(text: str, width: float, style: ParagraphStyle) -> str | Paragraph:
    """Text that fits its column as a plain string (cheap to lay out), else a Paragraph,
    which wraps it (long words included) within the column."""
    room = width - 2 * CELL_PADDING
    if "\n" not in text and stringWidth(text, style.fontName, style.fontSize) <= room:
        return text
    return Paragraph(escape(text), style)
