"""The records' workflow is declared once (``portal.compliance.workflow``): every interface
takes exactly the moves its table allows.

Every (role, status, step) is tried through the record's page (a POST of the step), the API
(``POST /api/paytables/{id}/<step>/``) and the admin's action, against the real services
and database; what happened to the record (its status, a new version, its audit events)
is compared with what the table says: whether the step is offered to that person in that
status, and the status it leads to. Each try runs in a savepoint that is rolled back, so
every try starts from the same record.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse
from rest_framework.test import APIClient

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.compliance.models import Paytable, RecordStatus
from portal.compliance.services.expiry import records_expire_due
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_reject,
    paytable_request_changes,
    paytable_submit,
    paytable_withdraw,
)
from portal.compliance.workflow import RECORD_WORKFLOW
from tests.portal.factories import make_paytable, make_user

pytestmark = pytest.mark.django_db

S = RecordStatus
SUNSET_DAY = __import__("datetime").date(2028, 6, 14)


def _record_in(status: str, manager, decider) -> Paytable:
    """A paytable of holder A in ``status``, written by ``manager``, decided by ``decider``."""
    paytable = make_paytable(manager, manager.profile.holder)
    if status == S.DRAFT:
        return paytable
    paytable = paytable_submit(actor=manager, paytable=paytable)
    if status == S.SUBMITTED:
        return paytable
    if status == S.CHANGES_REQUESTED:
        return paytable_request_changes(actor=decider, paytable=paytable, reason="Fix it")
    if status == S.REJECTED:
        return paytable_reject(actor=decider, paytable=paytable, reason="No")
    paytable = paytable_approve(actor=decider, paytable=paytable)
    if status == S.APPROVED:
        return paytable
    if status == S.WITHDRAWN:
        return paytable_withdraw(actor=decider, paytable=paytable, reason="Recalled")
    if status == S.EXPIRED:
        records_expire_due(today=SUNSET_DAY)  # no expiry date: it holds until the sunset
        return Paytable.objects.get(pk=paytable.pk)
    assert status == S.SUPERSEDED
    later = paytable_submit(
        actor=manager, paytable=paytable_amend(actor=manager, paytable=paytable)
    )
    paytable_approve(actor=decider, paytable=later)
    return Paytable.objects.get(pk=paytable.pk)


def _state(record: Paytable) -> tuple:
    """What a step can change: the version's status, the series' versions, the trail."""
    record = Paytable.objects.get(pk=record.pk)
    return (
        record.status,
        Paytable.objects.filter(series=record.series).count(),
        AuditEvent.objects.filter(object_type=record.kind).count(),
    )


def _expected(user, record: Paytable, step) -> tuple | None:
    """The state the table says the step leads to, or None where it refuses the step."""
    versions = list(Paytable.objects.filter(series=record.series).order_by("-version"))
    if step.name not in RECORD_WORKFLOW.available(user, record, versions):
        return None
    before = _state(record)
    if step.target is None:  # an amendment: a new draft version, this one unchanged
        return (record.status, before[1] + 1)
    return (step.target, before[1])


def _input(step) -> dict:
    if step.verb == "approve":
        return {"reason": "Meets the minimums"}
    return {} if step.reason == "none" else {"reason": "Because"}


def _by_page(user, record, step) -> None:
    client = _client(user)
    url = reverse("compliance:paytable-detail", args=[record.pk])
    client.post(url, {"step": step.name, **_input(step)})


def _by_api(user, record, step) -> None:
    client = APIClient()
    client.force_authenticate(user)
    client.post(f"/api/paytables/{record.pk}/{step.name}/", _input(step), format="json")


def _by_admin(user, record, step) -> None:
    client = _client(user)
    client.post(
        "/admin/compliance/paytable/",
        {
            "action": f"workflow_{step.verb}",
            "_selected_action": [record.pk],
            "apply": "1",
            **_input(step),
        },
    )


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


INTERFACES = {"page": _by_page, "api": _by_api, "admin": _by_admin}


@pytest.fixture
def people(holder_a, holder_b):
    """One person per role (the officer wrote nothing: a second person), and the author."""
    manager = make_user("author_manager", Role.MANAGER, holder_a)
    return {
        "author": manager,
        "decider": make_user("decider_officer", Role.COMPLIANCE),
        "officer": make_user("officer", Role.COMPLIANCE),
        "other_manager": make_user("other_manager", Role.MANAGER, holder_b),
        "auditor": make_user("auditor", Role.AUDITOR),
        "player": make_user("player", Role.PLAYER),
        "superuser": _superuser(),
    }


def _superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-1234")


# Who tries each interface: the admin is for superusers only.
ROLES = {
    "page": ("author", "officer", "other_manager", "auditor", "player", "superuser"),
    "api": ("author", "officer", "other_manager", "auditor", "player", "superuser"),
    "admin": ("superuser",),
}


@pytest.mark.parametrize("interface", sorted(INTERFACES))
@pytest.mark.parametrize("status", [status.value for status in RecordStatus])
def test_every_interface_takes_exactly_the_moves_the_table_allows(people, status, interface):
    record = _record_in(status, people["author"], people["decider"])
    assert record.status == status
    tried, taken = 0, 0
    for role in ROLES[interface]:
        user = people[role]
        for step in RECORD_WORKFLOW.posted_steps:
            expected = _expected(user, record, step)
            with transaction.atomic():
                before = _state(record)
                INTERFACES[interface](user, record, step)
                after = _state(record)
                transaction.set_rollback(True)
            tried += 1
            where = f"{role} {step.name} on a {status} paytable through the {interface}"
            if expected is None:
                assert after == before, f"{where}: the table refuses it, yet it was taken"
            else:
                taken += 1
                assert after[:2] == expected, f"{where}: {after[:2]} instead of {expected}"
                assert after[2] > before[2], f"{where}: taken without an audit event"
    assert tried == len(ROLES[interface]) * len(RECORD_WORKFLOW.posted_steps)
    if interface == "admin" and status in (S.DRAFT, S.SUBMITTED, S.APPROVED):
        assert taken, "the superuser may take some step here: the matrix would prove nothing"


# The machine as § 601a.2 and § 601a.10 reviews run, written out by hand: a change to the
# table shows here in review.
DOCUMENTED_MOVES = {
    ("create", None, S.DRAFT),
    ("update", S.DRAFT, S.DRAFT),
    ("submit", S.DRAFT, S.SUBMITTED),
    ("approve", S.SUBMITTED, S.APPROVED),
    ("request_changes", S.SUBMITTED, S.CHANGES_REQUESTED),
    ("reject", S.SUBMITTED, S.REJECTED),
    ("withdraw", S.APPROVED, S.WITHDRAWN),
    ("withdraw", S.SUPERSEDED, S.WITHDRAWN),  # a version still in play (reading:supersede)
    ("supersede", S.APPROVED, S.SUPERSEDED),
    ("expire", S.APPROVED, S.EXPIRED),
    *(("amend", status, None) for status in RecordStatus),
}
DOCUMENTED_PERMISSIONS = {
    "create": "draft",
    "update": "draft",
    "submit": "draft",
    "approve": "decide",
    "request_changes": "decide",
    "reject": "decide",
    "withdraw": "withdraw",
    "amend": "draft",
    "supersede": None,
    "expire": None,
}


def test_601a2_the_workflow_table_is_the_documented_machine():
    moves = {(step.verb, source, target) for source, step, target in RECORD_WORKFLOW.moves()}
    moves |= {(step.verb, None, step.target) for step in RECORD_WORKFLOW if not step.sources}
    assert moves == DOCUMENTED_MOVES
    assert {step.verb: step.permission for step in RECORD_WORKFLOW} == DOCUMENTED_PERMISSIONS
    assert {step.verb for step in RECORD_WORKFLOW if step.four_eyes} == {
        "approve",
        "request_changes",
        "reject",
    }


def test_the_audit_event_names_are_the_tables_verbs(people):
    record = _record_in(S.SUPERSEDED, people["author"], people["decider"])
    actions = set(
        AuditEvent.objects.filter(object_type="paytable").values_list("action", flat=True)
    )
    assert actions == {
        f"paytable.{verb}" for verb in ("create", "submit", "approve", "amend", "supersede")
    }
    assert {action.split(".")[1] for action in actions} <= set(RECORD_WORKFLOW.verbs)
    assert record.status == S.SUPERSEDED


def test_a_step_the_system_takes_or_a_reason_it_does_not_ask_is_refused_to_callers(people):
    from portal.compliance.services.workflow import take

    record = _record_in(S.APPROVED, people["author"], people["decider"])
    with pytest.raises(ValueError, match="taken by the system"):
        take(record, "expire", actor=people["officer"])
    draft = _record_in(S.DRAFT, people["author"], people["decider"])
    with pytest.raises(ValueError, match="takes no reason"):
        take(draft, "submit", actor=people["author"], reason="Because")
    with pytest.raises(TypeError, match="takes no reason"):
        paytable_submit(actor=people["author"], paytable=draft, reason="Because")
    assert _state(draft)[0] == S.DRAFT and _state(record)[0] == S.APPROVED
