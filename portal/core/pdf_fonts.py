"""The fonts every PDF the portal makes is set in (the reports, a player's statement):
DejaVu Sans and DejaVu Sans Bold, kept in the repository (``portal/core/fonts/``, with
their licence) and embedded, subset, in each PDF, so it prints Σ, ±, –, ≤, → and accented
names as written, on any reader.

ReportLab's built-in fonts (Helvetica) cover Latin-1 only; these cover the text reports
carry. Registered once per process, on first use."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FOLDER = Path(__file__).resolve().parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}


@cache
def register() -> tuple[str, str]:
    """Register the fonts with ReportLab (once); returns (regular, bold)."""
    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FOLDER / file)))
    # <b> in a Paragraph picks the bold face; there is no italic here, so it stays upright.
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
    return REGULAR, BOLD
