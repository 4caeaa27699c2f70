"""The API's documentation describes each operation for whoever calls it: its own words for
every operation, saying whose records it answers with, never how the views are built."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

from portal.api.base import ApiBaseViewSet, ApiObjectViewSet, ApiViewSet

OPERATIONS = ("get", "post", "patch", "put", "delete")
# What only a developer of this portal would write: its modules, classes and code words.
IMPLEMENTATION = re.compile(
    r"policy\.|``|\bsubclass|\bserializer|\bviewset|\bqueryset|\bself\.|\bkwargs\b"
    r"|portal\.|\bvisible\(|\bdef\b",
    re.I,
)


@pytest.fixture(scope="module")
def operations() -> dict[str, str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        f"{method.upper()} {path}": operation.get("description", "")
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in OPERATIONS
    }


def test_every_operation_has_a_description_in_plain_words(operations):
    assert len(operations) > 60
    missing = [name for name, text in operations.items() if not text.strip()]
    assert missing == []
    coded = {name: IMPLEMENTATION.findall(text) for name, text in operations.items()}
    assert {name: found for name, found in coded.items() if found} == {}


def test_no_operation_is_described_by_a_shared_base(operations):
    bases = {
        " ".join((cls.__doc__ or "").split())
        for cls in (ApiBaseViewSet, ApiViewSet, ApiObjectViewSet)
    }
    borrowed = [name for name, text in operations.items() if " ".join(text.split()) in bases]
    assert borrowed == []


def test_a_list_says_whose_records_it_answers_with(operations):
    assert "every holder's" in operations["GET /api/layouts/"]
    assert "their own holder's" in operations["GET /api/layouts/"]
    assert "your own holder" in operations["GET /api/holders/"]
    assert "a player's own" in operations["GET /api/rounds/"]
    assert "Your own API tokens" in operations["GET /api/tokens/"]
