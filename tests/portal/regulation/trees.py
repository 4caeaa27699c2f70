"""A small project tree for the traceability checks' tests: a register, code and tests
written under a temporary folder, which the scanners read as they read the real one."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from portal.regulation.register import Clause, load_register

REGISTER_PATH = "portal/regulation/register.toml"


def write_tree(root: Path, files: Mapping[str, str]) -> dict[str, Clause]:
    """Write ``files`` (relative path → text) under ``root``; the register they hold."""
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return load_register(root / REGISTER_PATH)
