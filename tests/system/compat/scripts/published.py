"""What the portal publishes: every URL pattern, and the OpenAPI schema.

Prints, after its marker line, the folder the ``portal`` package was imported from (so the
caller can tell which tree answered) and every pattern's full route and full name (with its
namespaces; "" if it has none), sorted; writes the schema as ``manage.py spectacular``
does, as JSON, to ``schema.json`` in the var folder.
"""

import json
import os
from pathlib import Path

from django.core.management import call_command
from django.urls import URLResolver, get_resolver

import portal


def walk(patterns, prefix="", namespaces=()):
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = (*namespaces, entry.namespace) if entry.namespace else namespaces
            yield from walk(entry.url_patterns, route, inner)
        else:
            yield [route, ":".join((*namespaces, entry.name)) if entry.name else ""]


call_command(
    "spectacular",
    "--format=openapi-json",
    f"--file={Path(os.environ['JINZI_VAR_DIR']) / 'schema.json'}",
)
print("=== published ===")
print(json.dumps({"portal": portal.__path__[0], "urls": sorted(walk(get_resolver().url_patterns))}))
