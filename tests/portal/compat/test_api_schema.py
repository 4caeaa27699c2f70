"""The published OpenAPI schema is the one commit 73df469 published, apart from its prose.

Both trees generate it the same way (their ``spectacular`` command, as JSON); every
``description`` and ``summary`` text is left out of the comparison, so wording may improve
while paths, operations, parameters, bodies, answers, enums and component names stay
exactly as they were.
"""

from __future__ import annotations

import difflib
import json

import pytest

pytestmark = pytest.mark.compat

PROSE = frozenset({"description", "summary"})
DIFF_LINES = 300


def without_prose(node):
    """``node`` with every ``description``/``summary`` text removed, at any depth. A schema
    property that happens to be called "description" is an object, not a text: it stays."""
    if isinstance(node, dict):
        return {
            key: without_prose(value)
            for key, value in node.items()
            if not (key in PROSE and isinstance(value, str))
        }
    if isinstance(node, list):
        return [without_prose(item) for item in node]
    return node


def test_without_prose_keeps_a_property_named_description():
    node = {
        "description": "Prose",
        "properties": {"description": {"type": "string", "description": "More prose"}},
        "tags": [{"name": "x", "summary": "Prose"}],
    }
    assert without_prose(node) == {
        "properties": {"description": {"type": "string"}},
        "tags": [{"name": "x"}],
    }


def test_the_api_schema_is_unchanged_apart_from_descriptions(published_before, published_now):
    then = without_prose(published_before.schema)
    now = without_prose(published_now.schema)
    if now != then:
        diff = list(
            difflib.unified_diff(
                json.dumps(then, indent=1, sort_keys=True).splitlines(),
                json.dumps(now, indent=1, sort_keys=True).splitlines(),
                fromfile="the schema before the refactor",
                tofile="the schema now",
                lineterm="",
                n=4,
            )
        )
        shown = "\n".join(diff[:DIFF_LINES])
        more = f"\n… {len(diff) - DIFF_LINES} more diff lines" if len(diff) > DIFF_LINES else ""
        pytest.fail(f"the published API schema changed (prose left out):\n{shown}{more}")
