"""The project modules a module runs when it is imported: its static import closure, read
with ``ast`` from the files (no module is imported), for the manifest's test."""

from __future__ import annotations

import ast
from pathlib import Path

PROJECT = ("jinzi", "portal")


def file_of(root: Path, module: str) -> Path | None:
    """The file of the project's ``module``, if it is one of the project's."""
    if module.split(".")[0] not in PROJECT:
        return None
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(module: str, path: Path) -> set[str]:
    """Every module name ``path`` (the file of ``module``) imports, anywhere in it: ``from x
    import y`` names x and x.y (y may be a submodule), relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def _with_packages(module: str) -> list[str]:
    """``module`` and every package above it: importing it runs their ``__init__`` first."""
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


def import_closure(root: Path, start: str) -> set[str]:
    """The repository-relative paths (with ``/``) of every project file importing ``start``
    runs, directly or through another module, packages' ``__init__`` files included."""
    seen: dict[str, Path] = {}
    waiting = [start]
    while waiting:
        module = waiting.pop()
        for name in _with_packages(module):
            path = file_of(root, name)
            if path is None or name in seen:
                continue
            seen[name] = path
            waiting.extend(_imported(name, path))
    return {path.relative_to(root).as_posix() for path in seen.values()}
