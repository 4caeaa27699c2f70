"""The arrows point down: core imports no app, no module imports the demo app, and the thin
``portal.api`` holds no app's viewsets (each app keeps its own in its ``api`` module)."""

import ast
import importlib
import pkgutil
from pathlib import Path

from rest_framework.viewsets import ViewSetMixin

import portal.api
from portal.api.base import ApiViewSet

PORTAL = Path(portal.api.__file__).resolve().parents[1]
APPS = ("portal.accounts", "portal.audit", "portal.compliance", "portal.game", "portal.demo")
SHARED_VIEWSETS = {ApiViewSet}


def imported(path: Path) -> set[str]:
    """What a file imports; ``from portal import demo`` counts as ``portal.demo``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def imports_of(paths, packages) -> dict[str, list[str]]:
    """Each file's imports of ``packages`` (or of modules inside them), if it has any."""
    found = {}
    for path in paths:
        hits = [n for n in imported(path) if any(n == p or n.startswith(p + ".") for p in packages)]
        if hits:
            found[str(path.relative_to(PORTAL.parent))] = sorted(hits)
    return found


def test_core_imports_no_app():
    assert imports_of((PORTAL / "core").rglob("*.py"), APPS) == {}


def test_no_module_imports_the_demo_app():
    outside_demo = (p for p in PORTAL.rglob("*.py") if (PORTAL / "demo") not in p.parents)
    assert imports_of(outside_demo, ["portal.demo"]) == {}


def test_portal_api_holds_only_shared_viewsets():
    viewsets = []
    for info in pkgutil.iter_modules(portal.api.__path__, "portal.api."):
        module = importlib.import_module(info.name)
        viewsets += [
            f"{info.name}.{name}"
            for name, obj in vars(module).items()
            if isinstance(obj, type)
            and obj.__module__ == info.name
            and issubclass(obj, ViewSetMixin)
            and obj not in SHARED_VIEWSETS
        ]
    assert viewsets == []
