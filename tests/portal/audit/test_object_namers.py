"""Each app says how the trail names its own kinds of object (§ 811a.7): the audit app's
naming knows no app above it, a kind named twice otherwise is refused at start-up, and what
a namer loads is loaded once for every event shown."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from portal.audit import names as names_module
from portal.audit import values as values_module
from portal.audit.labels import LabelConflict, LabelRegistry, PicturedObject, registry
from portal.audit.models import AuditEvent
from portal.audit.names import load_names, object_of
from tests.portal.funding import wallet_top_up

# The kinds of object the apps above the audit app write, and the words that name them.
HIGHER_WORDS = (
    "holder",
    "holder_id",
    "player_account",
    "player_id",
    "account.open",
    "void",
    "adjustment",
    "round_id",
    "api_token",
    "report_run",
)


def _gizmo(obj: PicturedObject, names) -> str:
    return f"Gizmo {obj.pk}"


def _other_gizmo(obj: PicturedObject, names) -> str:
    return f"Thing {obj.pk}"


def test_811a7_a_kind_named_again_otherwise_is_refused():
    labels = LabelRegistry()
    labels.register_object_namer("gizmo", _gizmo)
    labels.register_object_namer("gizmo", _gizmo)  # the same: fine

    with pytest.raises(LabelConflict, match="'gizmo' is already named"):
        labels.register_object_namer("gizmo", _other_gizmo)

    assert labels.object_namer("gizmo").name is _gizmo
    assert labels.object_namer("gadget") is None


def _texts(module) -> set[str]:
    """The module's string constants, its docstrings left out."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    documented = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in documented
    }


@pytest.mark.parametrize("module", [names_module, values_module], ids=["names", "values"])
def test_811a7_the_audit_app_names_no_kind_of_an_app_above_it(module):
    assert not _texts(module) & set(HIGHER_WORDS)


def test_811a7_each_app_names_its_kinds():
    assert {"holder", "api_token", "player_account", "void", "adjustment", "report_run"} <= {
        kind for kind in HIGHER_WORDS if registry.object_namer(kind) is not None
    }
    assert registry.record_kind("holder_id") == "holder"


@pytest.mark.django_db
def test_811a7_accounts_named_by_their_openings_cost_one_query_per_kind(
    django_assert_num_queries, player, funded_player, holder_a, holder_b
):
    get_user_model().objects.filter(pk=player.pk).update(first_name="Pat", last_name="Lee")
    for _ in range(3):
        wallet_top_up(player=player, amount=500, holder=holder_b)
    events = list(AuditEvent.objects.filter(object_type="player_account"))
    assert len(events) > 4
    assert any("player_id" not in (event.after or {}) for event in events)

    # The accounts' openings, then the holders' names and the people, once each.
    with django_assert_num_queries(3):
        names = load_names(events, pictures=False)

    assert {object_of(event, names).name for event in events} == {
        "Player account of Pat Lee at Keystone Casino",
        f"Player account of Pat Lee at {holder_b.name}",
    }
