"""Checks an uploaded layout artwork file by its content, not its name (§ 601a.10(a)).

PDF and PNG are recognised by their signatures; SVG must parse as XML (with
defusedxml, so entity tricks are refused) whose root is <svg> and which carries no
DOCTYPE, processing instruction, script, event handlers, foreign objects or external
references, since the file is shown to staff in the portal and must stand alone.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from xml.etree.ElementTree import XMLPullParser

import filetype
from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException, DTDForbidden
from django.conf import settings

DEFAULT_MAX_ARTWORK_BYTES = 5 * 1024 * 1024


def max_artwork_bytes() -> int:
    return getattr(settings, "JINZI_MAX_ARTWORK_BYTES", DEFAULT_MAX_ARTWORK_BYTES)


TOO_BIG = "artwork is {size} bytes; the limit is {limit} bytes"
WRONG_TYPE = "artwork must be a PDF, PNG or SVG file (checked by content); this file is {found}"
EMPTY = "artwork file is empty"
UNSAFE_SVG = "SVG artwork may not contain {what}"

_SVG_NS = "{http://www.w3.org/2000/svg}"
# Scripts, embedded documents, animation that can rewrite links, and stylesheets that can
# fetch from elsewhere have no place in layout artwork.
_FORBIDDEN_TAGS = {
    "script",
    "foreignObject",
    "iframe",
    "embed",
    "object",
    "set",
    "animate",
    "animateMotion",
    "animateTransform",
    "style",
}
_EXTERNAL_URL = re.compile(r"url\(\s*['\"]?(?!#)", re.IGNORECASE)  # url(#id) is fine
# A value that names a resource by scheme ("https://…", "data:…", "javascript:…") in any
# attribute: the file must stand alone.
_URL = re.compile(r"(?:^|[\s;,(])(?:[a-z][a-z0-9+.-]*://|data:|javascript:)", re.IGNORECASE)
_EXTENSIONS = {"application/pdf": "pdf", "image/png": "png", "image/svg+xml": "svg"}


class ArtworkRejected(ValueError):
    pass


@dataclass(frozen=True)
class CheckedArtwork:
    content_type: str
    extension: str
    sha256: str
    size: int


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _processing_instructions(data: bytes) -> list[str]:
    """The targets of the document's processing instructions (``<?xml-stylesheet …?>`` can
    load a stylesheet from elsewhere when the file is opened). The XML declaration is not
    one. Read after defusedxml has parsed the same bytes, so no DTD is left to expand."""
    parser = XMLPullParser(events=("pi",))
    parser.feed(data)
    parser.close()
    return [element.text.split(None, 1)[0] for _, element in parser.read_events()]


def _check_svg(data: bytes) -> None:
    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except DTDForbidden:
        raise ArtworkRejected(UNSAFE_SVG.format(what="a DOCTYPE")) from None
    except (ElementTree.ParseError, DefusedXmlException, ValueError):
        raise ArtworkRejected(
            WRONG_TYPE.format(found="not a PDF, PNG or well-formed SVG")
        ) from None
    targets = _processing_instructions(data)
    if targets:
        raise ArtworkRejected(
            UNSAFE_SVG.format(what=f"processing instructions (<?{targets[0]} …?>)")
        )
    if _local(root.tag) != "svg":
        raise ArtworkRejected(WRONG_TYPE.format(found=f"XML with root <{_local(root.tag)}>"))
    for element in root.iter():
        name = _local(element.tag)
        if name in _FORBIDDEN_TAGS:
            raise ArtworkRejected(UNSAFE_SVG.format(what=f"<{name}> elements"))
        for attribute, value in element.attrib.items():
            attr = _local(attribute).lower()
            if attr.startswith("on"):
                raise ArtworkRejected(UNSAFE_SVG.format(what=f"event handlers ({attr})"))
            if attr == "href" and not value.strip().startswith("#"):
                raise ArtworkRejected(UNSAFE_SVG.format(what="external references"))
            if attr == "style" or _EXTERNAL_URL.search(value):
                raise ArtworkRejected(
                    UNSAFE_SVG.format(what="style attributes or url() references")
                )
            if _URL.search(value):
                raise ArtworkRejected(
                    UNSAFE_SVG.format(what=f"external references ({attr}={value[:60]!r})")
                )


def check_artwork(upload, *, max_bytes: int | None = None) -> CheckedArtwork:
    limit = max_bytes or max_artwork_bytes()
    size = upload.size
    if size is None or size > limit:
        raise ArtworkRejected(TOO_BIG.format(size=size, limit=limit))
    if size == 0:
        raise ArtworkRejected(EMPTY)
    upload.seek(0)
    data = upload.read(limit + 1)
    upload.seek(0)
    if len(data) > limit:
        raise ArtworkRejected(TOO_BIG.format(size=len(data), limit=limit))
    kind = filetype.guess(data)
    if kind is not None and kind.mime in ("application/pdf", "image/png"):
        content_type = kind.mime
    elif kind is None and data.lstrip()[:1] == b"<":
        _check_svg(data)
        content_type = "image/svg+xml"
    else:
        raise ArtworkRejected(WRONG_TYPE.format(found=kind.mime if kind else "unrecognised"))
    return CheckedArtwork(
        content_type=content_type,
        extension=_EXTENSIONS[content_type],
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
    )
