"""JSON bodies, read safely."""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError

TOO_DEEP = "the JSON body is nested too deeply to read"


class JSONParser(parsers.JSONParser):
    """DRF's parser, but a pathologically nested body is a 400, not a RecursionError."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
