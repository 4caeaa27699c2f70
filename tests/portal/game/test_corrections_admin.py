"""Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) in the admin: look only, decided with
the workflow's actions, which call the services; a refusal (four-eyes, another holder, a
decided one, a missing reason) is a message and changes nothing.

The admin is the superusers' (as for every other record); a holder's supervisor decides on
the portal and through the API, and is not let into the admin by their role."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages

from portal.audit.models import AuditEvent
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.models import GamingAccount, LedgerEntry, Round, RoundCorrection
from tests.portal.factories import finding_on
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/game/roundcorrection/"
STAKED, RETURNED = 2_000, 2_400
AFTER_PLAY = 10_000 - STAKED + RETURNED


@pytest.fixture
def played(player, live_offering, holder_a) -> Round:
    """Ten straights of $2.00 on 0–9, the wheel on 3: $20.00 staked, $24.00 returned."""
    wallet_top_up(player=player, amount=10_000, holder=holder_a)
    return Round.objects.get(pk=play_round(player, live_offering, "admin-correct-1").round.pk)


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


def propose_void(actor, round_obj) -> RoundCorrection:
    return correction_propose(
        actor=actor, round_id=round_obj.pk, kind="void", reason="The draw repeated a segment"
    )


def act(client, step: str, correction: RoundCorrection, **form):
    """The admin action ``workflow_<step>`` on one correction, its form applied."""
    return client.post(
        CHANGELIST,
        {"action": f"workflow_{step}", "_selected_action": [correction.pk], "apply": "1", **form},
        follow=True,
    )


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def balance(player) -> int:
    return GamingAccount.objects.get(player=player).balance


def test_617a6_the_admin_lists_corrections_look_only_with_money_in_dollars(
    admin_client, played, supervisor_a
):
    correction = propose_void(supervisor_a, played)

    page = admin_client.get(CHANGELIST)

    html = page.content.decode()
    assert page.status_code == 200
    assert "-$4.00" in html  # $20.00 of stakes less $24.00 of returns
    assert f"round {played.pk} (" in html and "supervisor_a" in html
    for filtered in ("By kind", "By status"):
        assert filtered in html
    assert 'value="workflow_approve"' in html and 'value="workflow_reject"' in html
    assert "delete_selected" not in html
    record = admin_client.get(f"{CHANGELIST}{correction.pk}/change/")
    assert record.status_code == 200 and b'name="_save"' not in record.content
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}{correction.pk}/delete/").status_code == 403
    assert RoundCorrection.objects.filter(pk=correction.pk).exists()


def test_617a6_the_admin_approves_a_void_someone_else_proposed_and_the_money_moves(
    admin_client, played, player, supervisor_a, superuser
):
    correction = propose_void(supervisor_a, played)

    asked = admin_client.post(
        CHANGELIST, {"action": "workflow_approve", "_selected_action": [correction.pk]}
    )
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    assert RoundCorrection.objects.get().status == "proposed"  # nothing until applied

    done = act(admin_client, "approve", correction, reason="Logs confirm it")

    assert said(done) == [f"void of round {played.pk}: approved and applied"]
    correction.refresh_from_db()
    assert (correction.status, correction.decided_by) == ("approved", superuser)
    assert (correction.credited, correction.debited) == (STAKED, RETURNED)
    assert balance(player) == 10_000
    events = AuditEvent.objects.filter(object_type="void", object_id=str(correction.pk))
    assert list(events.order_by("sequence").values_list("action", "actor__username")) == [
        ("void.propose", "supervisor_a"),
        ("void.approve", "root"),
    ]


def test_617a6_four_eyes_in_the_admin_the_proposer_is_refused_with_a_message(
    admin_client, played, player, superuser
):
    correction = propose_void(superuser, played)

    for step in ("approve", "reject"):
        refused = act(admin_client, step, correction, reason="My own")
        [message] = said(refused)
        assert message.startswith(f"void of round {played.pk}: § 617a.6: a void is decided by")

    assert RoundCorrection.objects.get().status == "proposed"
    assert balance(player) == AFTER_PLAY
    assert not LedgerEntry.objects.filter(kind__startswith="void").exists()
    assert not AuditEvent.objects.filter(action__in=("void.approve", "void.reject")).exists()


def test_617a6_the_admin_refuses_a_holder_it_may_not_act_for_with_a_message(
    client, played, player, officer, supervisor_b
):
    """Admin access is not a supervisor's role: given it by hand (staff, allowed to view
    corrections), the services still refuse another holder's round."""
    correction = propose_void(officer, played)
    supervisor_b.is_staff = True
    supervisor_b.save()
    supervisor_b.user_permissions.add(Permission.objects.get(codename="view_roundcorrection"))
    client.force_login(supervisor_b)

    refused = act(client, "approve", correction, reason="Not mine to decide")

    assert said(refused) == [
        f"void of round {played.pk}: this record belongs to another certificate holder"
    ]
    assert RoundCorrection.objects.get().status == "proposed"
    assert balance(player) == AFTER_PLAY


def test_812a7_a_9_the_admin_rejects_an_adjustment_only_with_a_reason(
    admin_client, played, player, officer
):
    correction = correction_propose(
        actor=officer,
        round_id=played.pk,
        kind="adjustment",
        finding_id=finding_on(played.pk),
        amount=250,
        reason="Dispute",
        notice="We have credited $2.50 to your account.",
    )

    without = act(admin_client, "reject", correction, reason="")
    assert said(without) == [
        f"adjustment of round {played.pk}: § 812a.7(a)(9): give the reason (it is kept with "
        "the record and shown to the player)"
    ]
    assert RoundCorrection.objects.get().status == "proposed"

    rejected = act(admin_client, "reject", correction, reason="Paid right")

    assert said(rejected) == [f"adjustment of round {played.pk}: rejected"]
    correction.refresh_from_db()
    assert (correction.status, correction.decision_reason) == ("rejected", "Paid right")
    assert balance(player) == AFTER_PLAY
    assert AuditEvent.objects.filter(action="adjustment.reject", reason="Paid right").exists()


def test_617a6_the_admin_reports_a_decided_void_and_changes_nothing(
    admin_client, played, player, supervisor_a, officer
):
    correction = propose_void(supervisor_a, played)
    correction_approve(actor=officer, correction_id=correction.pk)
    entries = LedgerEntry.objects.count()

    again = act(admin_client, "approve", correction, reason="Twice")

    assert said(again) == [
        f"void of round {played.pk}: this void is approved and applied; only a proposed one "
        "can be approved"
    ]
    assert LedgerEntry.objects.count() == entries
    assert balance(player) == 10_000
    assert RoundCorrection.objects.get().decided_by == officer


def test_617a6_a_supervisor_is_not_let_into_the_admin_by_their_role(client, supervisor_a):
    client.force_login(supervisor_a)

    answer = client.get(CHANGELIST)

    assert answer.status_code == 302
    assert answer["Location"].startswith("/admin/login/")
