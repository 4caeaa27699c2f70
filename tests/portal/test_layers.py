"""The arrows point down (issue 22, one house plan): every module of ``portal`` sits in a
layer of the import contract in pyproject.toml, the layers are the plan's, in its order, and
the contract holds, checked by import-linter (imports inside functions count). A planted
upward import breaks it. The thin ``portal.api`` holds no app's viewsets either (each app
keeps its own in its ``api`` package).

The game app has a plan of its own, by role: its entry points, then play, the corrections
of rounds, the player's money, and the pieces they share; every module of ``portal.game``
sits in one of its layers."""

import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from importlinter.api import read_configuration
from rest_framework.viewsets import ViewSetMixin

import portal
import portal.api
from portal.api.base import ApiBaseViewSet, ApiObjectViewSet, ApiViewSet

ROOT = Path(portal.__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"
SHARED_VIEWSETS = {ApiBaseViewSet, ApiViewSet, ApiObjectViewSet}

# The plan, lowest layer first; a tuple is a layer of siblings that may not import each other.
HOUSE_PLAN = (
    ("jinzi", "portal.env"),
    "portal.core",
    "portal.access",
    "portal.api",
    "portal.audit",
    "portal.accounts",
    "portal.software",
    "portal.compliance",
    "portal.game",
    ("portal.reports", "portal.players"),
    ("portal.regulation", "portal.integrity", "portal.notifications", "portal.metrics"),
    "portal.filings",
    ("portal.urls", "portal.celery", "portal.wsgi", "portal.asgi", "portal.settings"),
    "portal.demo",
)
# The game's plan (within portal.game), lowest layer first, as the house plan is written.
GAME_PLAN = (
    ("models", "migrations"),
    "ledger",
    "chain",
    ("pages", "api_fields", "rounds", "retention", "sessions", "audit_labels"),
    "money",
    "corrections",
    ("play", "complaints"),
    ("urls", "api", "admin", "templatetags", "management", "apps"),
)
LAYERS = "One house plan: each layer imports only its own layer or lower"
GAME_LAYERS = "The game by role: play above corrections above the player's money"
JINZI_PURE = "jinzi is pure game maths: it imports no Django and no portal"
# The audit report's modules in the order its data flows, lowest first.
AUDIT_REPORT = "portal.reports.audit_report"
AUDIT_FLOW_PLAN = (
    ("scope", "values"),
    "reading",
    "resettlement",
    "figures",
    "sections",
    "document",
)
AUDIT_FLOW = "The audit report in the order its data flows"


def contracts() -> dict[str, dict]:
    return {c["name"]: c for c in read_configuration(str(CONFIG))["contracts_options"]}


def layers(name: str = LAYERS) -> list[set[str]]:
    """A layers contract's layers, lowest first, each a set of its modules."""
    written = contracts()[name]["layers"]
    if isinstance(written, str):
        written = written.split("\n")
    return [{name.strip() for name in layer.split("|")} for layer in reversed(written)]


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` with the project's contracts, on the packages found in ``cwd``."""
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", command, "--no-cache", "--no-logo", str(cwd / "pyproject.toml")],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(cwd)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_layers_are_the_house_plans_in_its_order():
    plan = [set(layer) if isinstance(layer, tuple) else {layer} for layer in HOUSE_PLAN]
    assert layers() == plan


def test_every_module_of_portal_is_in_a_layer():
    top_level = {info.name for info in pkgutil.iter_modules(portal.__path__, "portal.")}
    in_layers = set().union(*layers()) - {"jinzi"}
    assert top_level - in_layers == set(), "not in any layer of the contract"
    assert in_layers - top_level == set(), "in the contract, but no such module"


def test_the_audit_reports_layers_are_the_order_its_data_flows():
    plan = [set(layer) if isinstance(layer, tuple) else {layer} for layer in AUDIT_FLOW_PLAN]
    assert contracts()[AUDIT_FLOW]["containers"] == [AUDIT_REPORT]
    assert layers(AUDIT_FLOW) == plan


def test_every_module_of_the_audit_report_is_in_a_layer():
    package = importlib.import_module(AUDIT_REPORT)
    inside = {info.name for info in pkgutil.iter_modules(package.__path__)}
    assert inside == set().union(*layers(AUDIT_FLOW))


def test_the_game_layers_are_the_game_plans_in_its_order():
    plan = [set(layer) if isinstance(layer, tuple) else {layer} for layer in GAME_PLAN]
    assert layers(GAME_LAYERS) == plan
    assert contracts()[GAME_LAYERS]["containers"] in (["portal.game"], "portal.game")


def test_every_module_of_the_game_is_in_a_layer():
    import portal.game

    children = {info.name for info in pkgutil.iter_modules(portal.game.__path__)}
    in_layers = set().union(*layers(GAME_LAYERS))
    assert children - in_layers == set(), "not in any layer of the game's contract"
    assert in_layers - children == set(), "in the game's contract, but no such module"


def test_the_contracts_hold():
    """Every contract: the layers, the audit report's flow, jinzi free of Django and the
    portal, and no cycles."""
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert {LAYERS, AUDIT_FLOW, GAME_LAYERS, JINZI_PURE} <= set(contracts())
    for name in contracts():
        assert f"{name} KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "contract", "broken"),
    [
        (
            "portal/core/hashing.py",
            "import portal.reports\n",
            LAYERS,
            "portal.core is not allowed to import portal.reports",
        ),
        (
            "portal/audit/chain.py",
            "\n\ndef _later():\n    from portal.game import models\n\n    return models\n",
            LAYERS,
            "portal.audit is not allowed to import portal.game",
        ),
        (
            "portal/reports/document.py",
            "\n\ndef _later():\n    from portal.integrity import records\n\n    return records\n",
            LAYERS,
            "portal.reports is not allowed to import portal.integrity",
        ),
        ("jinzi/rng.py", "import django\n", JINZI_PURE, "jinzi is not allowed to import django"),
        (
            "portal/reports/audit_report/reading/ledger.py",
            "\n\ndef _later():\n    from portal.reports.audit_report.figures import sums\n\n"
            "    return sums\n",
            AUDIT_FLOW,
            # (lint-imports breaks the line before the module it may not import)
            "portal.reports.audit_report.reading is not allowed to import",
        ),
        (
            "portal/game/money/statements.py",
            "\n\ndef _later():\n    from portal.game.corrections import selectors\n\n"
            "    return selectors\n",
            GAME_LAYERS,
            "portal.game.money is not allowed to import portal.game.corrections",
        ),
        (
            "portal/game/corrections/services.py",
            "import portal.game.play.services\n",
            GAME_LAYERS,
            "portal.game.corrections is not allowed to import portal.game.play",
        ),
        (
            "portal/game/rounds.py",
            "import portal.game.money.limits\n",
            GAME_LAYERS,
            "portal.game.rounds is not allowed to import portal.game.money",
        ),
    ],
    ids=[
        "core-imports-an-app",
        "import-inside-a-function",
        "app-imports-integrity",
        "jinzi",
        "audit-reader-imports-figures",
        "money-imports-corrections",
        "corrections-import-play",
        "shared-piece-imports-a-part",
    ],
)
def test_a_planted_upward_import_breaks_the_contract(tmp_path, module, planted, contract, broken):
    copies = ("jinzi", "portal")
    for package in copies:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(CONFIG, tmp_path / "pyproject.toml")
    assert broken not in lint_imports(tmp_path).stdout  # not before the plant

    with (tmp_path / module).open("a") as source:
        source.write(planted)
    result = lint_imports(tmp_path)

    assert result.returncode != 0
    assert f"{contract} BROKEN" in result.stdout
    assert broken in result.stdout


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
