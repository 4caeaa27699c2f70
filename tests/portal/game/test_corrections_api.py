"""``/api/corrections/``: voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds
through HTTP, and what a round's answer says of them.

One proposes, someone else decides (four-eyes); a supervisor acts only at their own holder's
tables; a player reads only their own rounds' corrections; a malformed body is a 400 on its
field and a decided one a 409, with nothing written either way.

The round played in most tests: ten straights of $2.00 on 0–9, the wheel stops on 3, so
$20.00 is staked and the straight on 3 returns $24.00 (11 to 1 plus its stake)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.game.corrections.services import (
    correction_approve,
    correction_propose,
    correction_reject,
)
from portal.game.models import GamingAccount, LedgerEntry, Round, RoundCorrection
from tests.portal.factories import approved_offering, events_written, finding_on, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

STAKED, RETURNED = 2_000, 2_400
DEPOSIT = 10_000
AFTER_PLAY = DEPOSIT - STAKED + RETURNED
REASON = "The draw repeated a segment of the wheel: a malfunction"
NOTICE = "We have credited $2.50 to your account for a split paid short."
CORRECTION_KEYS = [
    *("id", "round", "kind", "status", "amount", "reason", "ground", "notice", "proposed_by"),
    *("proposed_at", "decided_by", "decided_at", "decision_reason", "credited", "debited"),
    "uncollected",
]
RECORD_KEYS = [*CORRECTION_KEYS, "holder", "holder_name", "player"]


@pytest.fixture
def api_as():
    """``api_as(user)``: a client signed in as ``user`` with the login cookie, as a browser."""

    def signed_in(user) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def played(player, live_offering, holder_a) -> Round:
    """The player's round at holder A's table, from their account there ($100.00 in it)."""
    wallet_top_up(player=player, amount=DEPOSIT, holder=holder_a)
    return Round.objects.get(pk=play_round(player, live_offering, "correct-api-1").round.pk)


@pytest.fixture
def theirs(manager_b, officer, holder_b) -> Round:
    """Another player's round at holder B's table."""
    other = make_user("other_player", Role.PLAYER)
    wallet_top_up(player=other, amount=DEPOSIT, holder=holder_b)
    table = approved_offering(manager_b, officer, holder_b, name="Table B")
    return Round.objects.get(pk=play_round(other, table, "correct-api-b").round.pk)


def balance(player) -> int:
    return GamingAccount.objects.get(player=player).balance


def void_body(round_obj, **changes) -> dict:
    return {"round": round_obj.pk, "kind": "void", "reason": REASON} | changes


def adjustment_body(round_obj, **changes) -> dict:
    """An adjustment resting on a payout finding recorded on the round
    (reading:adjustment-grounds)."""
    body = {"round": round_obj.pk, "kind": "adjustment", "reason": "Dispute upheld"}
    body |= {"amount": 250, "notice": NOTICE}
    if "finding" not in changes:
        body["finding"] = finding_on(round_obj)
    return body | changes


def propose(client, body) -> dict:
    answer = client.post("/api/corrections/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def decide(client, correction_id: int, step: str, **body):
    return client.post(f"/api/corrections/{correction_id}/{step}/", body, format="json")


def actions_of(correction_id: int) -> list[tuple[str, str]]:
    events = AuditEvent.objects.filter(object_id=str(correction_id)).order_by("sequence")
    return [
        (e.action, e.actor.username) for e in events.filter(object_type__in=("void", "adjustment"))
    ]


# Four-eyes -------------------------------------------------------------------------------


def test_617a6_a_void_proposed_through_the_api_is_refused_to_its_proposer_and_approved_by_another(
    api_as, played, player, supervisor_a, officer
):
    supervisor = api_as(supervisor_a)

    proposed = propose(supervisor, void_body(played))

    assert list(proposed) == RECORD_KEYS
    assert (proposed["round"], proposed["kind"], proposed["status"]) == (
        played.pk,
        "void",
        "proposed",
    )
    assert proposed["amount"] == STAKED - RETURNED  # the stakes less the returns
    assert (proposed["proposed_by"], proposed["decided_by"]) == ("supervisor_a", None)
    assert (proposed["holder_name"], proposed["player"]) == ("Keystone Casino", "player")
    assert proposed["proposed_at"].endswith("+00:00")

    refused = decide(supervisor, proposed["id"], "approve")
    assert refused.status_code == 403
    assert (
        "§ 617a.6: a void is decided by someone other than who proposed it"
        in (refused.json()["detail"])
    )
    assert RoundCorrection.objects.get().status == "proposed"
    assert balance(player) == AFTER_PLAY
    assert not LedgerEntry.objects.filter(kind__startswith="void").exists()

    approved = decide(api_as(officer), proposed["id"], "approve", reason="Agreed: logs show it")

    assert approved.status_code == 200
    body = approved.json()
    assert (body["status"], body["decided_by"]) == ("approved", "officer")
    assert (body["credited"], body["debited"], body["uncollected"]) == (STAKED, RETURNED, 0)
    assert body["decision_reason"] == "Agreed: logs show it"
    assert balance(player) == DEPOSIT  # as if the round had never been played
    entries = LedgerEntry.objects.filter(round=played, kind__startswith="void").order_by("pk")
    assert [(e.kind, e.amount) for e in entries] == [
        ("void_stakes", STAKED),
        ("void_returns", -RETURNED),
    ]
    assert actions_of(proposed["id"]) == [
        ("void.propose", "supervisor_a"),
        ("void.approve", "officer"),
    ]


def test_812a7_a_9_an_adjustment_is_refused_to_its_proposer_and_approved_by_the_supervisor(
    api_as, played, player, supervisor_a, officer
):
    proposed = propose(api_as(officer), adjustment_body(played))
    assert (proposed["amount"], proposed["notice"]) == (250, NOTICE)

    assert decide(api_as(officer), proposed["id"], "approve").status_code == 403
    assert balance(player) == AFTER_PLAY

    approved = decide(api_as(supervisor_a), proposed["id"], "approve")

    assert approved.status_code == 200
    assert (approved.json()["credited"], approved.json()["debited"]) == (250, 0)
    assert balance(player) == AFTER_PLAY + 250
    assert actions_of(proposed["id"]) == [
        ("adjustment.propose", "officer"),
        ("adjustment.approve", "supervisor_a"),
    ]


def test_617a6_a_rejection_needs_its_reason_and_moves_nothing(
    api_as, played, player, supervisor_a, officer
):
    proposed = propose(api_as(supervisor_a), void_body(played))
    compliance = api_as(officer)
    written = events_written()

    for body in ({}, {"reason": "  "}, {"reason": 7}):
        refused = decide(compliance, proposed["id"], "reject", **body)
        assert refused.status_code == 400
        assert "reason" in refused.json()["errors"]
    assert events_written() == written

    rejected = decide(compliance, proposed["id"], "reject", reason="The draw was fine")

    assert rejected.status_code == 200
    assert (rejected.json()["status"], rejected.json()["decision_reason"]) == (
        "rejected",
        "The draw was fine",
    )
    assert balance(player) == AFTER_PLAY
    assert not LedgerEntry.objects.filter(kind__startswith="void").exists()
    assert actions_of(proposed["id"])[-1] == ("void.reject", "officer")


@pytest.mark.parametrize("step", ["approve", "reject"])
def test_617a6_a_decided_void_is_a_409_and_nothing_moves(
    api_as, played, player, supervisor_a, officer, officer2, step
):
    proposed = propose(api_as(supervisor_a), void_body(played))
    assert decide(api_as(officer), proposed["id"], "approve").status_code == 200
    entries, written = LedgerEntry.objects.count(), events_written()

    again = decide(api_as(officer2), proposed["id"], step, reason="Second look")

    assert again.status_code == 409
    assert f"only a proposed one can be {step}" in again.json()["detail"]
    assert (LedgerEntry.objects.count(), events_written()) == (entries, written)
    assert balance(player) == DEPOSIT
    assert RoundCorrection.objects.get().decided_by == officer


def test_617a6_a_round_already_void_or_waiting_is_a_409_and_nothing_is_written(
    api_as, played, supervisor_a, officer
):
    propose(api_as(supervisor_a), void_body(played))

    waiting = api_as(officer).post("/api/corrections/", void_body(played), format="json")

    assert waiting.status_code == 409
    assert "already waiting for a decision" in waiting.json()["detail"]
    assert RoundCorrection.objects.count() == 1


# Who may ---------------------------------------------------------------------------------


def test_617a6_a_supervisor_of_another_holder_is_refused_and_cannot_find_its_corrections(
    api_as, played, player, supervisor_a, supervisor_b
):
    other = api_as(supervisor_b)
    written = events_written()

    refused = other.post("/api/corrections/", void_body(played), format="json")

    assert refused.status_code == 403
    assert refused.json()["detail"] == "this record belongs to another certificate holder"
    assert not RoundCorrection.objects.exists() and events_written() == written

    proposed = propose(api_as(supervisor_a), void_body(played))
    assert other.get("/api/corrections/").json()["count"] == 0
    assert other.get(f"/api/corrections/{proposed['id']}/").status_code == 404
    for step in ("approve", "reject"):
        assert decide(other, proposed["id"], step, reason="Not ours").status_code == 404
    assert RoundCorrection.objects.get().status == "proposed"
    assert balance(player) == AFTER_PLAY


def test_617a6_a_player_reads_their_own_rounds_corrections_and_not_another_holders_round(
    api_as, played, theirs, player, supervisor_a, supervisor_b, officer, auditor
):
    mine = propose(api_as(supervisor_a), void_body(played))
    other = propose(api_as(supervisor_b), void_body(theirs))
    client = api_as(player)

    listed = client.get("/api/corrections/").json()

    assert [c["id"] for c in listed["results"]] == [mine["id"]]
    assert client.get(f"/api/corrections/{mine['id']}/").json()["reason"] == REASON
    assert client.get(f"/api/corrections/{other['id']}/").status_code == 404
    assert client.get(f"/api/rounds/{theirs.pk}/").status_code == 404
    # A player proposes and decides nothing, their own round's least of all.
    assert client.post("/api/corrections/", void_body(played), format="json").status_code == 403
    assert decide(client, mine["id"], "reject", reason="Mine").status_code == 403
    assert RoundCorrection.objects.get(pk=mine["id"]).status == "proposed"
    # Compliance and auditors read every holder's.
    for reader in (officer, auditor):
        assert api_as(reader).get("/api/corrections/").json()["count"] == 2


@pytest.mark.parametrize("role", ["manager_a", "payments_a", "auditor"])
def test_617a6_roles_that_do_not_correct_rounds_are_refused_before_the_body_is_read(
    request, api_as, played, role
):
    client = api_as(request.getfixturevalue(role))

    for body in (void_body(played), ["not", "a", "body"]):
        refused = client.post("/api/corrections/", body, format="json")
        assert refused.status_code == 403
        assert refused.json()["detail"] == "your role may not void or adjust rounds here"
    assert not RoundCorrection.objects.exists()


@pytest.mark.parametrize("role", ["manager_a", "payments_a"])
def test_617a6_holder_staff_who_do_not_correct_rounds_do_not_read_corrections(
    request, api_as, role
):
    refused = api_as(request.getfixturevalue(role)).get("/api/corrections/")

    assert refused.status_code == 403
    assert refused.json()["detail"] == "your role may not see voids and adjustments of rounds"


def test_617a6_an_unknown_round_is_a_404_and_nothing_is_written(api_as, officer, played):
    answer = api_as(officer).post(
        "/api/corrections/", void_body(played, round=played.pk + 99), format="json"
    )

    assert answer.status_code == 404
    assert answer.json()["detail"] == f"no round {played.pk + 99}"
    assert not RoundCorrection.objects.exists()


# Malformed bodies ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"kind": "refund"}, "kind"),
        ({"kind": 7}, "kind"),
        ({"kind": None}, "kind"),
        ({"round": "1"}, "round"),
        ({"round": 1.5}, "round"),
        ({"round": True}, "round"),
        ({"round": 0}, "round"),
        ({"round": 2**63}, "round"),
        ({"reason": ""}, "reason"),
        ({"reason": 7}, "reason"),
        ({"reason": "x" * 2001}, "reason"),
        ({"amount": 250}, "amount"),  # a void's amount is not given
        ({"notice": ["a", "list"]}, "notice"),
        ({"balance": 10**9}, "balance"),
    ],
)
def test_617a6_a_malformed_void_is_a_400_on_its_field_and_nothing_is_written(
    api_as, played, player, officer, changes, field
):
    written = events_written()

    answer = api_as(officer).post("/api/corrections/", void_body(played, **changes), format="json")

    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    assert not RoundCorrection.objects.exists()
    assert (events_written(), balance(player)) == (written, AFTER_PLAY)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"amount": 0}, "amount"),
        ({"amount": "250"}, "amount"),
        ({"amount": 2.5}, "amount"),
        ({"amount": True}, "amount"),
        ({"amount": None}, "amount"),
        ({"amount": 100_000_001}, "amount"),  # more than $1,000,000
        ({"amount": -100_000_001}, "amount"),
        ({"amount": 10**30}, "amount"),
        ({"notice": ""}, "notice"),
        ({"notice": "   "}, "notice"),
        ({"notice": 12}, "notice"),
        ({"notice": "x" * 4001}, "notice"),
    ],
)
def test_812a7_a_9_a_malformed_adjustment_is_a_400_on_its_field_and_nothing_is_written(
    api_as, played, player, officer, changes, field
):
    body = adjustment_body(played, **changes)  # its payout finding recorded first
    written = events_written()

    answer = api_as(officer).post("/api/corrections/", body, format="json")

    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    assert not RoundCorrection.objects.exists()
    assert (events_written(), balance(player)) == (written, AFTER_PLAY)


def test_812a7_a_9_an_adjustment_without_its_notice_cites_the_clause(api_as, played, officer):
    body = adjustment_body(played)
    del body["notice"]

    answer = api_as(officer).post("/api/corrections/", body, format="json")

    assert answer.status_code == 400
    [message] = answer.json()["errors"]["notice"]
    assert message.startswith("§ 812a.7(a)(9): write the notification the player is sent")
    assert not RoundCorrection.objects.exists()


@pytest.mark.parametrize(
    "body", [["not", "an", "object"], {}, {"round": 1}, "void", {"kind": "void", "reason": "x"}]
)
def test_617a6_a_body_missing_what_a_proposal_needs_is_a_400(api_as, played, officer, body):
    answer = api_as(officer).post("/api/corrections/", body, format="json")

    assert answer.status_code == 400
    assert answer.json()["errors"]
    assert not RoundCorrection.objects.exists()


# Reading ---------------------------------------------------------------------------------


def test_617a6_the_list_filters_by_status_kind_and_round(
    api_as, played, player, live_offering, supervisor_a, officer
):
    second = play_round(player, live_offering, "correct-api-2").round
    void = propose(api_as(supervisor_a), void_body(played))
    decide(api_as(officer), void["id"], "approve")
    adjustment = propose(api_as(supervisor_a), adjustment_body(second))
    client = api_as(officer)

    def ids(**query) -> list[int]:
        answer = client.get("/api/corrections/", query)
        assert answer.status_code == 200
        return [c["id"] for c in answer.json()["results"]]

    assert ids() == [adjustment["id"], void["id"]]  # newest first
    assert ids(status="proposed") == [adjustment["id"]]
    assert ids(kind="void") == [void["id"]]
    assert ids(round=str(played.pk)) == [void["id"]]
    assert ids(round=str(second.pk), kind="void") == []
    for bad in ({"status": "maybe"}, {"kind": "refund"}, {"round": "1.5"}, {"round": "-1"}):
        refused = client.get("/api/corrections/", bad)
        assert refused.status_code == 400
        assert set(refused.json()["errors"]) == set(bad)


def test_617a6_the_voided_rounds_answer_says_void_and_shows_the_void(
    api_as, played, player, supervisor_a, officer
):
    proposed = propose(api_as(supervisor_a), void_body(played))
    waiting = api_as(player).get(f"/api/rounds/{played.pk}/").json()
    assert waiting["state"] == "complete"  # proposed only: the round stands as settled
    assert [c["status"] for c in waiting["corrections"]] == ["proposed"]

    decide(api_as(officer), proposed["id"], "approve", reason="Agreed")

    for reader in (player, officer):
        answer = api_as(reader).get(f"/api/rounds/{played.pk}/").json()
        assert answer["state"] == "void"
        [void] = answer["corrections"]
        assert list(void) == CORRECTION_KEYS
        assert void == {
            **{k: v for k, v in proposed.items() if k in CORRECTION_KEYS},
            "status": "approved",
            "decided_by": "officer",
            "decided_at": void["decided_at"],
            "decision_reason": "Agreed",
            "credited": STAKED,
            "debited": RETURNED,
        }
        assert void["decided_at"].endswith("+00:00")
        # The round's own record is as it was written.
        assert (answer["status"], answer["total_staked"]) == ("complete", STAKED)
        listed = api_as(reader).get("/api/rounds/").json()["results"]
        assert listed[0]["state"] == "void" and listed[0]["corrections"] == [void]


def test_812a7_a_9_the_adjusted_rounds_answer_says_adjusted_with_the_notice(
    api_as, played, player, supervisor_a, officer
):
    proposed = propose(api_as(officer), adjustment_body(played, amount=-400))
    decide(api_as(supervisor_a), proposed["id"], "approve")

    answer = api_as(player).get(f"/api/rounds/{played.pk}/").json()

    assert answer["state"] == "adjusted"
    [adjustment] = answer["corrections"]
    assert (adjustment["kind"], adjustment["amount"], adjustment["notice"]) == (
        "adjustment",
        -400,
        NOTICE,
    )
    assert (adjustment["credited"], adjustment["debited"]) == (0, 400)
    assert balance(player) == AFTER_PLAY - 400


def test_812a7_a_9_a_rejected_adjustment_leaves_the_round_complete(
    api_as, played, player, supervisor_a, officer
):
    proposed = propose(api_as(officer), adjustment_body(played))
    decide(api_as(supervisor_a), proposed["id"], "reject", reason="Paid right")

    answer = api_as(player).get(f"/api/rounds/{played.pk}/").json()

    assert answer["state"] == "complete"
    assert [(c["status"], c["decision_reason"]) for c in answer["corrections"]] == [
        ("rejected", "Paid right")
    ]


def test_617a6_a_retried_play_answers_the_round_as_it_is_now(
    api_as, player, live_offering, holder_a, supervisor_a, officer
):
    """A retry (the same key) answers the round its key played: voided since, it says so."""
    wallet_top_up(player=player, amount=DEPOSIT, holder=holder_a)
    client = api_as(player)
    body = {
        "offering": live_offering.pk,
        "wagers": [{"kind": "red", "stake": 200}],
        "idempotency_key": "retried-after-void",
    }
    first = client.post("/api/rounds/", body, format="json").json()
    assert (first["state"], first["corrections"]) == ("complete", [])
    proposed = propose(api_as(supervisor_a), void_body(Round.objects.get(pk=first["id"])))
    decide(api_as(officer), proposed["id"], "approve")

    again = client.post("/api/rounds/", body, format="json")

    assert again.status_code == 200
    assert again.json()["state"] == "void"
    assert [c["id"] for c in again.json()["corrections"]] == [proposed["id"]]


# Queries ---------------------------------------------------------------------------------


def test_617a6_a_round_just_played_reads_no_correction(api_as, player, live_offering, holder_a):
    wallet_top_up(player=player, amount=DEPOSIT, holder=holder_a)
    body = {
        "offering": live_offering.pk,
        "wagers": [{"kind": "red", "stake": 200}],
        "idempotency_key": "fresh-round-0001",
    }

    with CaptureQueriesContext(connection) as queries:
        answer = api_as(player).post("/api/rounds/", body, format="json")

    assert answer.status_code == 201
    assert (answer.json()["state"], answer.json()["corrections"]) == ("complete", [])
    assert not [q["sql"] for q in queries if "roundcorrection" in q["sql"].lower()]


def test_617a6_a_page_of_rounds_reads_its_corrections_in_one_query(
    api_as, played, player, live_offering, supervisor_a, officer, django_assert_num_queries
):
    """Session, user, roles; the count, the page, its bets; and the page's corrections."""
    client = api_as(officer)
    with django_assert_num_queries(7):
        assert client.get("/api/rounds/").json()["count"] == 1
    for number in range(2, 7):
        round_obj = play_round(player, live_offering, f"correct-api-{number}").round
        correction = correction_propose(
            actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=REASON
        )
        if number % 2:
            correction_approve(actor=officer, correction_id=correction.pk)
        else:
            correction_reject(actor=officer, correction_id=correction.pk, reason="Fine")

    with django_assert_num_queries(7):
        rounds = client.get("/api/rounds/").json()["results"]

    assert [r["state"] for r in rounds] == [
        "complete",
        "void",
        "complete",
        "void",
        "complete",
        "complete",
    ]
    assert [len(r["corrections"]) for r in rounds] == [1, 1, 1, 1, 1, 0]


def test_617a6_one_round_reads_its_corrections_in_one_query(
    api_as, played, supervisor_a, officer, django_assert_num_queries
):
    """Session, user, roles; the round, its bets; its corrections."""
    propose(api_as(supervisor_a), void_body(played))
    client = api_as(officer)

    with django_assert_num_queries(6):
        answer = client.get(f"/api/rounds/{played.pk}/").json()

    assert [c["kind"] for c in answer["corrections"]] == ["void"]


def test_617a6_the_corrections_list_answers_in_a_fixed_number_of_queries(
    api_as, played, player, live_offering, supervisor_a, officer, django_assert_num_queries
):
    """Session, user, roles; the count and the page (with its people, account and holder)."""
    propose(api_as(supervisor_a), void_body(played))
    client = api_as(officer)
    with django_assert_num_queries(5):
        assert client.get("/api/corrections/").json()["count"] == 1
    for number in range(2, 7):
        round_obj = play_round(player, live_offering, f"correct-list-{number}").round
        correction = correction_propose(
            actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=REASON
        )
        correction_approve(actor=officer, correction_id=correction.pk)

    with django_assert_num_queries(5):
        listed = client.get("/api/corrections/").json()

    assert listed["count"] == 6
    assert {c["decided_by"] for c in listed["results"]} == {"officer", None}
