"""What a void's or an adjustment's notices say, step by step (§ 812a.7(a)(9)): a table of
each event's state, the words its player's notice must carry and must not ("credited" only
once money was credited, "proposed" until decided, the right article), and who is told; a
proposal reaches everyone who may decide it, and counts on their dashboard."""

from __future__ import annotations

import pytest

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.game.corrections.services import (
    correction_approve,
    correction_propose,
    correction_reject,
)
from portal.notifications.sources.actions import notices_for
from tests.portal.factories import finding_on, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

NOTICE = "We found the table paid this round at the wrong odds."

# (kind, amount, decision): the words the player's notice must and must not carry.
STEPS = [
    (
        "adjustment",
        250,
        "propose",
        ["An adjustment of your round", "was proposed", "$2.50 would be credited", "Nothing"],
        ["A adjustment", "was credited", "owed to you", NOTICE],
    ),
    (
        "adjustment",
        250,
        "approve",
        ["An adjustment of your round", "approved", "$2.50 was credited to your account", NOTICE],
        ["A adjustment", "would be", "Nothing changes"],
    ),
    (
        "adjustment",
        250,
        "reject",
        ["A proposed adjustment of your round", "was rejected", "Nothing changed"],
        ["A adjustment", "credited", "owed to you", NOTICE],
    ),
    (
        "adjustment",
        -100,
        "approve",
        ["An adjustment", "$1.00 was taken from your account"],
        ["credited", "would be"],
    ),
    (
        "void",
        None,
        "propose",
        ["A void of your round", "was proposed", "would be given back", "Nothing changes"],
        ["An void", "was credited", "was taken"],
    ),
    (
        "void",
        None,
        "approve",
        ["A void of your round", "approved", "was credited to your account", "was taken"],
        ["would be", "proposed"],
    ),
]


@pytest.fixture
def played(player, live_offering, holder_a):
    wallet_top_up(player=player, amount=10_000, holder=holder_a)
    return play_round(player, live_offering, "notice-round-1").round  # $20 in, $24 back


def _propose(supervisor, round_obj, kind, amount):
    extra = {}
    if kind == "adjustment":  # resting on a payout finding (reading:adjustment-grounds)
        extra = {"amount": amount, "notice": NOTICE, "finding_id": finding_on(round_obj)}
    return correction_propose(
        actor=supervisor, round_id=round_obj.pk, kind=kind, reason="Table fault logged", **extra
    )


@pytest.mark.parametrize(("kind", "amount", "verb", "must", "must_not"), STEPS)
def test_812a7_a_9_each_step_tells_the_player_what_it_did_and_no_more(
    played, player, supervisor_a, officer, kind, amount, verb, must, must_not
):
    proposal = _propose(supervisor_a, played, kind, amount)
    if verb == "approve":
        correction_approve(actor=officer, correction_id=proposal.pk)
    elif verb == "reject":
        correction_reject(actor=officer, correction_id=proposal.pk, reason="Not a fault")
    event = AuditEvent.objects.filter(action=f"{kind}.{verb}").get()
    to_player = [n for n in notices_for(event) if n.recipients == {player.pk}]
    assert len(to_player) == 1
    said = f"{to_player[0].subject}\n{to_player[0].body}"
    for words in must:
        assert words in said, (words, said)
    for words in must_not:
        assert words not in said, (words, said)


def test_812a7_a_9_a_proposal_tells_everyone_who_may_decide_it_and_counts_on_their_dashboard(
    client, played, player, holder_a, supervisor_a, supervisor_b, officer, officer2
):
    second = make_user("supervisor_a2", Role.SUPERVISOR, holder_a)
    proposal = _propose(supervisor_a, played, "void", None)
    event = AuditEvent.objects.get(action="void.propose")
    [staff] = [n for n in notices_for(event) if n.recipients != {player.pk}]
    # The holder's other supervisor and the compliance officers; not the proposer, not
    # another holder's supervisor, not the player.
    assert staff.recipients == {second.pk, officer.pk, officer2.pk}
    assert "It waits for your decision." in staff.body
    client.force_login(officer)
    page = client.get("/compliance/").content.decode()
    assert "Voids and adjustments of rounds waiting for your decision: <strong>1</strong>" in page
    # A supervisor's home is the queue of what waits for them.
    client.force_login(second)
    assert f"/play/corrections/{proposal.pk}/" in client.get("/", follow=True).content.decode()
    client.force_login(supervisor_b)  # another holder's: nothing of theirs waits
    assert f"/play/corrections/{proposal.pk}/" not in client.get("/", follow=True).content.decode()
    correction_approve(actor=second, correction_id=proposal.pk)
    client.force_login(officer)
    assert "waiting for your decision" not in client.get("/compliance/").content.decode()
