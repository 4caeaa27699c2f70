"""A report PDF read back as a reader copies it, through pypdf: the fonts it embeds and each
string it draws (decoded through the font's ToUnicode map), in drawing order."""

from __future__ import annotations

import io

from pypdf import PdfReader


def _reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def embedded_fonts(data: bytes) -> set[str]:
    """The fonts embedded (as subsets, ``ABCDEF+Name``) in the PDF, by name: {"DejaVuSans", …}."""
    names = set()
    for page in _reader(data).pages:
        fonts = page.get("/Resources", {}).get_object().get("/Font", {}).get_object()
        for font in fonts.values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is not None and "/FontFile2" in descriptor.get_object():
                names.add(str(font["/BaseFont"]).lstrip("/").split("+", 1)[-1])
    return names


def drawn_strings(data: bytes) -> list[str]:
    """Every string drawn on every page, in order, as the reader decodes it."""
    strings: list[str] = []

    def drawn(text, *_placement) -> None:
        if text.strip():
            strings.append(text.strip())

    for page in _reader(data).pages:
        page.extract_text(visitor_text=drawn)
    return strings


def pdf_text(data: bytes) -> str:
    """The text of every page, joined by spaces."""
    return " ".join(page.extract_text() or "" for page in _reader(data).pages)
