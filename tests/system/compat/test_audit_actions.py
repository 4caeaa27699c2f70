"""The audit trail's action strings are the ones commit 0586113, the last before accounts per
holder, wrote, and the ones accounts per holder added (§ 811a.7).

Stored events are read back by their action (the replay of a record's history, the audited
top-ups, the audit report's downloads and exports, a table's openings and closings), so a
renamed action would orphan every event stored under the old name.

``ACTIONS`` is every action the previous commit's code can write, and ``NEW_ACTIONS`` every
one accounts per holder added (§ 812a.4, § 812a.6, § 812a.7, § 812a.10, § 814a.2), spelled
out here so that a change to either shows in review. The checks hold them to the code:

- the previous commit's own database (``old_world``) holds no action missing from
  ``ACTIONS``;
- the current code, given the same demo data, scenario and history, writes every action
  the previous commit wrote there, but those of ``RETIRED`` (each written now under the
  action named beside it, and still read back under its own), and any other action it
  writes is in ``NEW_ACTIONS``;
- every action the run does not reach (the second factor, a password set by an
  administrator, a retried report…) is still spelled out in the code, before and now; and
  every new action is spelled out in the current code and in no earlier one.

The run reaches every action written from a template (``f"{record.kind}.{verb}"``, each
record's whole workflow, its expiry included); the rest are written as literals.
"""

from __future__ import annotations

import ast

import pytest

from tests.system.compat.trees import Tree

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

# Written since accounts per holder, by its services (funds and limits).
NEW_ACTIONS = frozenset(
    {
        # The player's account with a holder (§ 812a.4): opened, and each deposit (§ 812a.7),
        # the demo's self top-up included (its method "demo").
        "account.open",
        "account.deposit",
        # Suspension and self-exclusion by staff (§ 812a.6), limits and the player's own
        # pause (§ 814a.2).
        "account.status",
        "account.limit",
        "account.pause",
        # Withdrawals (§ 812a.10): the player's request and cancellation, the payments
        # staff's payment or refusal.
        "withdrawal.request",
        "withdrawal.cancel",
        "withdrawal.pay",
        "withdrawal.refuse",
        # A void of a settled round proposed (§ 617a.6): the demo data holds one waiting
        # for a decision (f"{correction.kind}.{verb}", the verbs of the corrections'
        # workflow, portal.game.corrections.workflow).
        "void.propose",
        # Players registered with a sealed identity (§ 812a.2; the demo's are set up verified),
        # each holder's terms and conditions as a record (§ 811a.3) and the player's
        # acceptance of the version in force (§ 812a.5).
        "player.register",
        "terms.create",
        "terms.submit",
        "terms.approve",
        "account.terms_accept",
        # The game software the demo runs, approved by two officers (§ 461a.4).
        "software_approval.draft",
        "software_approval.approve",
    }
)

# Written by the previous commit, no longer by the current code: each with the action that
# records the same act now. Events stored under the old name are still read back by it
# (the records check holds each stored top-up to its event), so its name stays in the code.
RETIRED = {
    # The single wallet's demo credit: now a deposit into an account, by the demo method.
    "wallet.top_up": "account.deposit",
}


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


def test_811a7_the_list_holds_every_action_stored_before_accounts_per_holder(old_world):
    assert old_world.actions, "the previous commit's database holds no audit event"
    unlisted = old_world.actions - ACTIONS
    assert not unlisted, f"stored by the previous commit but not listed:\n{_listed(unlisted)}"


def test_811a7_the_lists_of_actions_are_apart():
    assert not ACTIONS & NEW_ACTIONS, _listed(ACTIONS & NEW_ACTIONS)
    assert set(RETIRED) <= ACTIONS, _listed(set(RETIRED) - ACTIONS)
    assert set(RETIRED.values()) <= NEW_ACTIONS, _listed(set(RETIRED.values()) - NEW_ACTIONS)


def test_811a7_the_current_code_writes_the_actions_the_previous_commit_wrote(
    old_world, current_world_actions
):
    """Every action the previous commit wrote for the demo data, scenario and history is
    written now (a retired one under the action that replaced it); anything else written
    now is a new action of accounts per holder."""
    then, now = old_world.actions, current_world_actions
    gone = {action for action in then - now if RETIRED.get(action) not in now}
    unknown = now - then - NEW_ACTIONS
    assert not gone and not unknown, (
        f"the same demo data, scenario and history wrote different audit actions.\n"
        f"No longer written:\n{_listed(gone)}\n"
        f"Newly written and not listed as new:\n{_listed(unknown)}\n"
        f"(every action newly written:\n{_listed(now - then)})"
    )
    still = (then & set(RETIRED)) & now
    assert not still, f"listed as retired but still written:\n{_listed(still)}"


def test_811a7_every_listed_action_is_in_the_previous_commit(before, old_world):
    """The list is the previous commit's, entry by entry (no typo, nothing invented)."""
    missing = unwritten(before, old_world.actions)
    assert not missing, f"listed, but not in {before.label}:\n{_listed(missing)}"


def test_811a7_every_listed_action_is_still_written_by_the_current_code(
    current, current_world_actions
):
    """Written, or spelled out in the code: a retired action is still read back by name."""
    missing = unwritten(current, current_world_actions)
    assert not missing, f"no longer written by {current.label}:\n{_listed(missing)}"


def test_811a7_every_new_action_is_written_by_the_current_code_and_by_no_earlier_one(
    before, old_world, current, current_world_actions
):
    """Each new action is written by the run or spelled out in the current code (no typo),
    and neither written nor spelled out by the previous commit (new indeed)."""
    now = string_constants(current) | current_world_actions
    missing = sorted(NEW_ACTIONS - now)
    assert not missing, f"listed as new, but not in {current.label}:\n{_listed(missing)}"
    old = (string_constants(before) | old_world.actions) & NEW_ACTIONS
    assert not old, f"listed as new, but already in {before.label}:\n{_listed(old)}"
