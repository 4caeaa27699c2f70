"""jinzi is the game alone: standard library only, no framework, no I/O outside its CLI."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import jinzi

PACKAGE = Path(jinzi.__file__).resolve().parent
ROOT = PACKAGE.parent
FRAMEWORKS = {"django", "rest_framework", "celery", "portal"}
IO_CALLS = {"print", "open", "input"}
CLI_MODULES = {"cli.py", "__main__.py"}


def imported_top_levels(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def modules():
    found = sorted(PACKAGE.glob("*.py"))
    assert len(found) > 5
    return found


def test_importing_jinzi_loads_no_framework():
    check = (
        "import jinzi, jinzi.cli, sys; "
        f"loaded = {{m.split('.')[0] for m in sys.modules}} & {FRAMEWORKS!r}; "
        "assert not loaded, loaded"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


def test_no_jinzi_module_imports_a_framework_or_anything_outside_the_standard_library():
    for path in modules():
        for name in imported_top_levels(path):
            assert name not in FRAMEWORKS, f"{path.name} imports {name}"
            assert name == "jinzi" or name in sys.stdlib_module_names, f"{path.name}: {name}"


def test_only_the_command_line_does_io():
    for path in modules():
        if path.name in CLI_MODULES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & IO_CALLS, f"{path.name} calls {calls & IO_CALLS}"


def test_the_package_is_marked_as_typed():
    assert (PACKAGE / "py.typed").is_file()
