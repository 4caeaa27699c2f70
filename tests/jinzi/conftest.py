"""Fixtures of the engine's tests.

The engine shares compiled tables and parsed values through ``functools`` caches
(``SettlementTable.for_``, ``RoundMomentsTable.for_``, ``Paytable.of``, ``Wheel.of``, …).
A cache filled by an earlier test would let a later one read a table built by other code:
under mutation testing (``make mutation``) the tables compiled before a mutant was switched
on would hide it. So every test starts with all of them empty.
"""

from __future__ import annotations

import sys

import pytest


def engine_caches() -> list:
    """Every ``functools`` cache defined in a module of the ``jinzi`` package."""
    found = {}
    for name, module in list(sys.modules.items()):
        if module is None or (name != "jinzi" and not name.startswith("jinzi.")):
            continue
        for value in vars(module).values():
            if (
                callable(getattr(value, "cache_clear", None))
                and getattr(value, "__module__", None) == name
            ):
                found[id(value)] = value
    return list(found.values())


@pytest.fixture(autouse=True)
def _empty_engine_caches():
    for cache in engine_caches():
        cache.cache_clear()
