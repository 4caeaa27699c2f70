"""The audit trail's labels are registered by the apps that write the actions (§ 811a.7):
one code reads one way (a second registration with other words is refused at start-up),
the filter keeps its order whatever order the apps register in, and every action the
portal's code writes has a label of its own."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal.audit import labels
from portal.audit.labels import ACTION_LABELS, LabelConflict, LabelRegistry, action_label
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.game.corrections.workflow import WORKFLOW as CORRECTION_WORKFLOW
from portal.game.models import CorrectionKind
from portal.software.workflow import WORKFLOW as SOFTWARE_WORKFLOW

PORTAL = Path(labels.__file__).resolve().parent.parent

# --- The registry ------------------------------------------------------------------------------


def test_811a7_an_action_registered_again_with_other_words_is_refused():
    registry = LabelRegistry()
    registry.register_actions({"gizmo.spin": "Gizmo spun", "gizmo.stop": "Gizmo stopped"}, order=1)

    registry.register_actions({"gizmo.spin": "Gizmo spun"}, order=1)  # the same words: fine
    with pytest.raises(LabelConflict, match="'gizmo.spin' is already labelled 'Gizmo spun'"):
        registry.register_actions({"gizmo.new": "New", "gizmo.spin": "Spun twice"}, order=1)

    assert registry.action_label("gizmo.spin") == "Gizmo spun"
    assert "gizmo.new" not in registry.actions  # refused as a whole


def test_811a7_the_portal_refuses_to_relabel_an_action_an_app_registered():
    with pytest.raises(LabelConflict, match="'void.propose' is already labelled"):
        labels.register_actions({"void.propose": "Void suggested"}, order=0)

    assert action_label("void.propose") == "Void proposed"


@pytest.mark.parametrize(
    "register",
    [
        lambda r: r.register_verbs({"approve": "Signed off"}),
        lambda r: r.register_action_groups({"auth": "Signing in"}),
        lambda r: r.register_fields({"holder_id": "Holder"}),
        lambda r: r.register_fields(records={"layout_id": "paytable"}),
        lambda r: r.register_record_kinds(["layout"], verbs=["create"], order=1),
    ],
    ids=["verb", "group", "field", "record field", "record kind"],
)
def test_811a7_a_verb_group_field_or_record_kind_registered_again_otherwise_is_refused(register):
    registry = LabelRegistry()
    registry.register_verbs({"approve": "Approved"})
    registry.register_action_groups({"auth": "Sign-in and security"})
    registry.register_fields({"holder_id": "Certificate holder"}, records={"layout_id": "layout"})
    registry.register_record_kinds(["layout"], verbs=["create", "update"], order=1)

    with pytest.raises(LabelConflict):
        register(registry)


def test_811a7_the_filter_keeps_its_order_whatever_order_the_apps_register_in():
    registry = LabelRegistry()
    registry.register_actions({"wallet.top_up": "Wallet topped up"}, order=40)
    registry.register_verbs({"create": "Created", "update": "Edited"})
    registry.register_actions({"auth.sign_in": "Signed in"}, order=30)
    registry.register_record_kinds(["layout"], verbs=["create", "update"], order=10)
    registry.register_actions({"layout.opened": "Opened"}, order=10)
    registry.register_action_groups({"auth": "Sign-in and security"})

    choices = registry.action_choices()

    assert [group for group, _ in choices] == ["Layout", "Sign-in and security", "Wallet"]
    assert choices[0][1] == [
        ("layout.", "Any layout event"),
        ("layout.create", "Created"),
        ("layout.update", "Edited"),
        ("layout.opened", "Opened"),
    ]
    assert list(registry.actions) == ["layout.opened", "auth.sign_in", "wallet.top_up"]


def test_811a7_each_app_registers_its_own_words():
    """The audit app's own action is its own; the others' come from their apps' ready()."""
    assert action_label("audit_trail.export") == "Audit trail exported"
    assert action_label("auth.sign_in") == "Signed in"  # accounts
    assert action_label("layout.amend") == "Amendment started"  # compliance
    assert action_label("withdrawal.pay") == "Withdrawal paid"  # game
    assert action_label("report.download") == "Report downloaded"  # reports


# --- Every action the code writes has a label ----------------------------------------------------

# The calls that write an event, and where their action is: a keyword, else the argument at.
WRITERS = {"audit_record": ("action", None), "account_event": ("action", 0)}
# Writes whose action is made from a kind and a verb (``f"{record.kind}.{verb}"``,
# ``action_name(correction, verb)``): their actions are checked from the kinds and verbs.
TEMPLATED = {
    "compliance/services/audited.py": 2,
    "compliance/services/offerings.py": 1,
    "game/corrections/services.py": 2,
    "game/complaints/services.py": 1,  # f"complaint.{action}", each labelled: checked below
    "compliance/services/software.py": 2,  # f"software_approval.{verb}": checked below
}
# Written, but read by the fallback, not by a label of their own: none.
UNLABELLED: set[str] = set()


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PORTAL.rglob("*.py")):
        if "migrations" not in path.parts:
            relative = path.relative_to(PORTAL).as_posix()
            yield relative, ast.parse(path.read_text(encoding="utf-8"), filename=relative)


def _constants(module: ast.Module) -> dict[str, set[str]]:
    """The module's text constants: a name for a string, or for a dict of strings."""
    found: dict[str, set[str]] = {}
    for node in module.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if not isinstance(target, ast.Name):
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found[target.id] = {value.value}
            elif isinstance(value, ast.Dict) and value.values:
                texts = [v.value for v in value.values if isinstance(v, ast.Constant)]
                if len(texts) == len(value.values) and all(isinstance(t, str) for t in texts):
                    found[target.id] = set(texts)
    return found


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _argument(call: ast.Call, keyword: str, position: int | None) -> ast.expr | None:
    for given in call.keywords:
        if given.arg == keyword:
            return given.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


Write = tuple[str, ast.FunctionDef, ast.Call, ast.expr | None]


def _writes(modules: dict[str, ast.Module], writers: dict) -> Iterator[Write]:
    """Each call of a writer: its module, the function it is in, the call, its action."""
    for where, module in modules.items():
        for function in ast.walk(module):
            if not isinstance(function, ast.FunctionDef):
                continue
            for call in ast.walk(function):
                if isinstance(call, ast.Call) and _call_name(call) in writers:
                    yield where, function, call, _argument(call, *writers[_call_name(call)])


def _passes_on(function: ast.FunctionDef, expr: ast.expr | None) -> bool:
    """Whether the action is the function's own parameter (``account_event(action, …)``)."""
    parameters = function.args.args + function.args.kwonlyargs
    return isinstance(expr, ast.Name) and expr.id in {a.arg for a in parameters}


def _writers(modules: dict[str, ast.Module]) -> dict[str, tuple[str, int | None]]:
    """``WRITERS``, and every function that passes its parameter on to one as the action."""
    writers = dict(WRITERS)
    while True:
        passing = {}
        for _, function, _, expr in _writes(modules, writers):
            if _passes_on(function, expr) and function.name not in writers:
                positional = [a.arg for a in function.args.args]
                index = positional.index(expr.id) if expr.id in positional else None
                passing[function.name] = (expr.id, index)
        if not passing:
            return writers
        writers.update(passing)


def _read(expr: ast.expr | None, constants: dict[str, set[str]]) -> set[str] | None:
    """The actions an expression can be: a literal, a named constant, any value of a
    dict of them, either side of a conditional; None for anything else."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.Name):
        return constants.get(expr.id)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        return constants.get(expr.value.id)
    if isinstance(expr, ast.IfExp):
        body, orelse = _read(expr.body, constants), _read(expr.orelse, constants)
        return None if body is None or orelse is None else body | orelse
    return None


def _written_actions() -> tuple[set[str], dict[str, int], list[str]]:
    """The actions the portal's code writes, the templated writes by module, and the writes
    whose action it cannot read."""
    modules = dict(_modules())
    own = {where: _constants(module) for where, module in modules.items()}
    # A name is the module's own constant, else one it imported (by the same name).
    anywhere = {name: texts for constants in own.values() for name, texts in constants.items()}
    actions: set[str] = set()
    templated: dict[str, int] = {}
    unread: list[str] = []
    for where, function, call, expr in _writes(modules, _writers(modules)):
        if _passes_on(function, expr):
            continue  # read where the function is called
        if isinstance(expr, ast.JoinedStr | ast.Call):
            templated[where] = templated.get(where, 0) + 1
            continue
        found = _read(expr, {**anywhere, **own[where]})
        if found is None:
            unread.append(f"{where}:{call.lineno}")
        else:
            actions |= found
    return actions, templated, unread


def test_811a7_every_action_the_portal_writes_has_a_label_of_its_own():
    actions, templated, unread = _written_actions()

    assert not unread, f"writes whose action this test cannot read: {unread}"
    assert templated == TEMPLATED
    assert {"auth.sign_in", "account.limit", "withdrawal.pay", "audit_trail.export"} <= actions
    unlabelled = {action for action in actions if not labels.registry.labelled(action)}
    assert unlabelled == UNLABELLED
    for action in UNLABELLED:
        assert action_label(action) == "Notification preferences: update"


def test_811a7_every_action_written_from_a_kind_and_a_verb_has_a_label_of_its_own():
    records = ("layout", "paytable", "rules_submission")
    written = {f"{kind}.{step.verb}" for kind in records for step in RECORD_WORKFLOW}
    written |= {f"offering.{verb}" for verb in ("create", "update", "retire", "suspend", "reopen")}
    written |= {
        f"complaint.{verb}" for verb in ("file", "take", "note", "uphold", "close", "reopen")
    }
    written |= {f"software_approval.{verb}" for verb in ("draft", *SOFTWARE_WORKFLOW.verbs)}
    written |= {
        f"{kind}.{verb}"
        for kind in CorrectionKind
        for verb in ("propose", *(step.verb for step in CORRECTION_WORKFLOW))
    }

    assert {action for action in written if not labels.registry.labelled(action)} == set()
    assert {action for action in ACTION_LABELS if "." in action_label(action)} == set()
