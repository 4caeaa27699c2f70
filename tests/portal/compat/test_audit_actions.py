"""The audit trail's action strings are the ones commit 73df469 wrote (§ 811a.7).

Stored events are read back by their action (the replay of a record's history, the audited
top-ups, the audit report's downloads and exports, a table's openings and closings), so a
renamed action would orphan every event stored under the old name.

``ACTIONS`` is every action the previous commit's code can write, spelled out here so that
a change to it shows in review. Three checks hold it to the code:

- the previous commit's own database (``old_world``) holds no action missing from it;
- the current code, given the same demo data, scenario and history, writes exactly the
  actions the previous commit wrote there;
- every action the run does not reach (the second factor, a password set by an
  administrator, a retried report…) is still spelled out in the code, before and now.

The run reaches every action written from a template (``f"{record.kind}.{verb}"``, each
record's whole workflow, its expiry included); the rest are written as literals.
"""

from __future__ import annotations

import ast

import pytest

from tests.portal.compat.trees import Tree

pytestmark = pytest.mark.compat

# The kinds whose actions are written from a template over the kind and a verb.
TEMPLATED = ("layout.", "paytable.", "rules_submission.", "offering.")

ACTIONS = frozenset(
    {
        # Compliance records (f"{record.kind}.{verb}").
        "layout.create",
        "layout.update",
        "layout.submit",
        "layout.approve",
        "layout.reject",
        "layout.request_changes",
        "layout.withdraw",
        "layout.amend",
        "layout.supersede",
        "layout.expire",
        "paytable.create",
        "paytable.update",
        "paytable.submit",
        "paytable.approve",
        "paytable.reject",
        "paytable.request_changes",
        "paytable.withdraw",
        "paytable.amend",
        "paytable.supersede",
        "paytable.expire",
        "rules_submission.create",
        "rules_submission.update",
        "rules_submission.submit",
        "rules_submission.approve",
        "rules_submission.reject",
        "rules_submission.request_changes",
        "rules_submission.withdraw",
        "rules_submission.amend",
        "rules_submission.supersede",
        "rules_submission.expire",
        # Tables (f"offering.{verb}"), and each opening and closing (§ 811a.7(f)).
        "offering.create",
        "offering.update",
        "offering.retire",
        "offering.opened",
        "offering.closed",
        # Holders and users.
        "holder.create",
        "holder.update",
        "user.create",
        "user.update",
        # Sign-in, passwords and the second factor.
        "auth.sign_in",
        "auth.sign_in_failed",
        "auth.locked_out",
        "auth.sign_out",
        "auth.password_set",
        "auth.password_change",
        "auth.second_factor_enrol",
        "auth.second_factor_verify",
        "auth.second_factor_failed",
        "auth.recovery_codes_renew",
        "auth.second_factor_reset",
        "auth.second_factor_remove",
        # API tokens.
        "api_token.issue",
        "api_token.revoke",
        # Money: a wallet's credit.
        "wallet.top_up",
        # Reports and the trail's own exports.
        "report.request",
        "report.retry",
        "report.download",
        "audit_trail.export",
    }
)


def string_constants(tree: Tree) -> set[str]:
    """Every string literal in the tree's application code (migrations left out: they
    copy what the code writes, and would hide its loss)."""
    found: set[str] = set()
    for path in sorted((tree.root / "portal").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found.update(
            node.value
            for node in ast.walk(module)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        )
    return found


def unwritten(tree: Tree, reached: frozenset[str]) -> list[str]:
    """The listed actions a run did not reach and ``tree``'s code does not spell out."""
    constants = string_constants(tree)
    return sorted(action for action in ACTIONS - reached if action not in constants)


def _listed(actions) -> str:
    return "\n".join(f"  {action}" for action in sorted(actions)) or "  (none)"


def test_811a7_the_run_reaches_every_action_written_from_a_template(old_world):
    """Every record's and table's action (``f"{record.kind}.{verb}"``, ``f"offering.{verb}"``)
    is written by the run itself, so none rests on the code merely spelling it out."""
    templated = {action for action in ACTIONS if action.startswith(TEMPLATED)}
    assert not templated - old_world.actions, _listed(templated - old_world.actions)


def test_811a7_the_list_holds_every_action_stored_before_the_refactor(old_world):
    assert old_world.actions, "the previous commit's database holds no audit event"
    unlisted = old_world.actions - ACTIONS
    assert not unlisted, f"stored by the previous commit but not listed:\n{_listed(unlisted)}"


def test_811a7_the_current_code_writes_the_actions_the_previous_commit_wrote(
    old_world, current_world_actions
):
    then, now = old_world.actions, current_world_actions
    assert now == then, (
        f"the same demo data, scenario and history wrote different audit actions.\n"
        f"No longer written:\n{_listed(then - now)}\nNewly written:\n{_listed(now - then)}"
    )


def test_811a7_every_listed_action_is_in_the_previous_commit(before, old_world):
    """The list is the previous commit's, entry by entry (no typo, nothing invented)."""
    missing = unwritten(before, old_world.actions)
    assert not missing, f"listed, but not in {before.label}:\n{_listed(missing)}"


def test_811a7_every_listed_action_is_still_written_by_the_current_code(
    current, current_world_actions
):
    missing = unwritten(current, current_world_actions)
    assert not missing, f"no longer written by {current.label}:\n{_listed(missing)}"
