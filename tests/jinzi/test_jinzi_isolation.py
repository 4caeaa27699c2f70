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
# `make mutation` runs these tests on a copy of the engine in mutants/ whose modules import
# mutmut's switch between the original and the changed code; that import alone is allowed,
# and only there (docs/mutation.md).
MUTATION_COPY = "mutants"
MUTATION_RUNNER_IMPORT = "mutmut.mutation.trampoline"
# The block settlement (jinzi/columns.py) is the one module that vectorises with NumPy; it is
# imported only by those who ask for it, so ``import jinzi`` still needs the standard library
# alone (checked below).
NUMPY_MODULES = {"columns.py"}


def allowed_top_levels(root=ROOT):
    allowed = {"jinzi", *sys.stdlib_module_names}
    return allowed | {"mutmut"} if root.name == MUTATION_COPY else allowed


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


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
    allowed = allowed_top_levels()
    for path in modules():
        for module in imported_modules(path):
            name = module.split(".")[0]
            assert name not in FRAMEWORKS, f"{path.name} imports {name}"
            extra = {"numpy"} if path.name in NUMPY_MODULES else set()
            assert name in allowed | extra, f"{path.name}: {name}"
            assert name != "mutmut" or module == MUTATION_RUNNER_IMPORT, f"{path.name}: {module}"


def test_importing_jinzi_loads_no_numpy():
    check = "import jinzi, jinzi.cli, sys; assert 'numpy' not in sys.modules"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


def test_only_a_mutation_runs_copy_may_import_the_mutation_runner(tmp_path):
    assert "mutmut" not in allowed_top_levels(tmp_path / "main")
    assert "mutmut" in allowed_top_levels(tmp_path / MUTATION_COPY)


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
