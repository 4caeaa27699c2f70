"""Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds through their pages:
proposed on the round's record, listed in the queue, decided on their own page by someone
else; the round's record, its replay and the lists then say what the round is now.

The round played: ten straights of $2.00 on 0–9, the wheel stops on 3, so $20.00 is staked
and the straight on 3 returns $24.00; the player's account with holder A had $100.00."""

from __future__ import annotations

import csv
import io
import re

import pytest

from portal.core.readings import title_of
from portal.game.corrections.services import (
    correction_approve,
    correction_propose,
    correction_reject,
)
from portal.game.models import (
    CorrectionStatus,
    GamingAccount,
    LedgerEntry,
    Round,
    RoundCorrection,
)
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from tests.portal.factories import approved_offering, finding_on
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round
from tests.portal.page_helpers import field_errors, text
from tests.portal.plain_words import shown_text

pytestmark = pytest.mark.django_db

STAKED, RETURNED, DEPOSITED = 2_000, 2_400, 10_000
AFTER_ROUND = DEPOSITED - STAKED + RETURNED
WHY = "The draw repeated a segment: a malfunction"


@pytest.fixture
def played(player, live_offering, holder_a):
    account = wallet_top_up(player=player, amount=DEPOSITED, holder=holder_a)
    return account, play_round(player, live_offering, "correct-page-1").round


def round_url(round_obj) -> str:
    return f"/play/rounds/{round_obj.pk}/"


def propose_void(client, round_obj, reason=WHY):
    return client.post(round_url(round_obj), {"action": "void", "reason": reason})


def propose_adjustment(client, round_obj, **fields):
    """The round page's adjustment form, resting on a payout finding recorded on the round
    (reading:adjustment-grounds) unless ``finding`` says otherwise."""
    if "finding" not in fields:
        fields["finding"] = str(finding_on(round_obj))
    given = {
        "action": "adjustment",
        "direction": "credit",
        "amount": "2.50",
        "reason": "Dispute upheld: the split paid short",
        "notice": "We have credited $2.50 to your account for this game.",
    } | fields
    return client.post(round_url(round_obj), {k: v for k, v in given.items() if v is not None})


def decide(client, correction, step, reason=""):
    return client.post(f"/play/corrections/{correction.pk}/", {"step": step, "reason": reason})


def balance(account) -> int:
    return GamingAccount.objects.get(pk=account.pk).balance


def buttons(page: str) -> list[str]:
    return re.findall(r'<button type="submit" name="step" value="([a-z-]+)"', page)


def state_cells(page: str) -> dict[int, str]:
    """Each listed round's State cell, by round id."""
    rows = re.findall(
        r'<a href="/play/rounds/(\d+)/">#\d+</a>.*?<td data-label="State"[^>]*>(\w+)</td>',
        page,
        re.S,
    )
    return {int(pk): state for pk, state in rows}


# Proposed on the round's page, decided on its own ---------------------------------------


def test_617a6_a_void_proposed_on_the_round_page_is_decided_by_another_and_shown_with_who_when_why(
    login, played, supervisor_a, officer, player
):
    account, round_obj = played
    client = login(supervisor_a)
    form_page = text(client.get(round_url(round_obj)))
    assert "Propose a void" in form_page and "Propose an adjustment" in form_page

    proposed = propose_void(client, round_obj)

    correction = RoundCorrection.objects.get()
    assert proposed.status_code == 302
    assert proposed["Location"] == f"/play/corrections/{correction.pk}/"
    assert (correction.kind, correction.status, correction.reason) == ("void", "proposed", WHY)
    assert correction.proposed_by == supervisor_a
    assert balance(account) == AFTER_ROUND  # nothing moves until it is approved

    client = login(officer)
    queue = text(client.get("/play/corrections/"))
    assert f'href="/play/corrections/{correction.pk}/"' in queue
    assert re.search(r'<td data-label="Waiting">\d+\xa0minutes?</td>', queue)  # its age
    page = text(client.get(f"/play/corrections/{correction.pk}/"))
    # Before deciding: the round's record and its replay, the bets and what they returned.
    assert f'href="/play/rounds/{round_obj.pk}/"' in page
    assert f'href="/play/rounds/{round_obj.pk}/replay/"' in page
    assert "Straight up 3" in page and "$24.00" in page and "$20.00" in page
    assert buttons(page) == ["approve", "reject"]

    approved = decide(client, correction, "approve", "Agreed: the draw log shows it")

    assert approved.status_code == 302
    correction.refresh_from_db()
    assert (correction.status, correction.decided_by) == ("approved", officer)
    assert (correction.credited, correction.debited, correction.uncollected) == (
        STAKED,
        RETURNED,
        0,
    )
    assert balance(account) == DEPOSITED
    for url in (round_url(round_obj), f"{round_url(round_obj)}replay/"):
        shown = text(client.get(url))
        state = shown[shown.index('id="round-state"') :]
        assert '<h2 id="round-state-heading">Void</h2>' in shown, url
        assert "by officer" in state and WHY in state and "§ 617a.6" in state, url
        assert "Stakes given back: <strong>$20.00</strong>" in state, url
        assert "returns taken back: <strong>$24.00</strong>" in state, url
    # The round's own record is still the one played.
    assert Round.objects.get(pk=round_obj.pk).hash == round_obj.hash


def test_617a6_the_player_sees_their_void_with_the_reason_in_plain_words(
    login, played, supervisor_a, officer, player
):
    round_obj = played[1]
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(player)

    waiting = text(client.get(round_url(round_obj)))
    assert "Void proposed, waiting for a decision" in waiting
    assert "a second person approves or rejects it. Nothing has changed yet." in waiting
    assert WHY in waiting

    correction_approve(actor=officer, correction_id=void.pk)
    for url in (round_url(round_obj), f"{round_url(round_obj)}replay/", "/play/replay/"):
        page = text(client.get(url))
        assert '<h2 id="round-state-heading">Void</h2>' in page, url
        assert "This game was voided" in page and "Your stakes were given back" in page, url
        assert f"<strong>Why:</strong> {WHY}" in page, url
        # The player neither proposes nor decides, nor opens the staff's pages.
        assert "Propose a void" not in page and "/play/corrections/" not in page, url
    assert client.get("/play/corrections/").status_code == 403
    assert client.get(f"/play/corrections/{void.pk}/").status_code == 403


def test_617a6_a_void_the_account_cannot_cover_shows_what_was_uncollected(
    login, played, supervisor_a, officer, payments_a
):
    account, round_obj = played
    # $104.00 in the account; $100.50 is paid out, $3.50 left.
    paid = withdrawal_request(player=account.player, account_id=account.pk, amount=10_050)
    withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH-1")
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    correction_approve(actor=officer, correction_id=void.pk)

    page = text(login(officer).get(round_url(round_obj)))
    mine = text(login(account.player).get(round_url(round_obj)))

    assert "uncollected: <strong>$0.50</strong> (the account could not cover it)" in page
    assert "uncollected: <strong>$0.50</strong> (your account could not cover it)" in mine


# Four-eyes through the page -----------------------------------------------------------------


def test_617a6_four_eyes_the_proposer_sees_no_buttons_and_a_forged_decision_is_403(
    login, played, supervisor_a
):
    account, round_obj = played
    client = login(supervisor_a)
    propose_void(client, round_obj)
    correction = RoundCorrection.objects.get()

    page = text(client.get(f"/play/corrections/{correction.pk}/"))
    forged = decide(client, correction, "approve")
    forged_reject = decide(client, correction, "reject", "Changed my mind")

    assert buttons(page) == []
    assert "You proposed this void: someone else decides it." in page
    assert "§ 617a.6: a void is decided by someone other than who proposed it" in page
    assert forged.status_code == forged_reject.status_code == 403
    assert "§ 617a.6: a void is decided by someone other" in text(forged)
    correction.refresh_from_db()
    assert (correction.status, correction.decided_by) == (CorrectionStatus.PROPOSED, None)
    assert balance(account) == AFTER_ROUND
    assert not LedgerEntry.objects.filter(kind__startswith="void").exists()


def test_617a6_an_auditor_reads_the_queue_and_the_correction_but_never_decides(
    login, played, supervisor_a, auditor
):
    round_obj = played[1]
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(auditor)

    queue = client.get("/play/corrections/")
    page = text(client.get(f"/play/corrections/{void.pk}/"))
    forged = decide(client, void, "approve")
    round_page = text(client.get(round_url(round_obj)))

    assert queue.status_code == 200 and f"/play/corrections/{void.pk}/" in text(queue)
    assert buttons(page) == [] and "Your role does not decide voids and adjustments" in page
    assert forged.status_code == 403
    assert RoundCorrection.objects.get().status == CorrectionStatus.PROPOSED
    assert "Propose a void" not in round_page  # auditors read, they do not propose
    assert propose_void(client, round_obj).status_code == 403


def test_617a6_a_supervisor_of_another_holder_neither_sees_nor_proposes_nor_decides(
    login, played, supervisor_a, supervisor_b
):
    account, round_obj = played
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(supervisor_b)

    assert client.get(round_url(round_obj)).status_code == 404
    assert client.get(f"{round_url(round_obj)}replay/").status_code == 404
    assert client.get(f"/play/corrections/{void.pk}/").status_code == 404
    assert decide(client, void, "approve").status_code == 404
    assert propose_void(client, round_obj).status_code == 404
    assert f"/play/corrections/{void.pk}/" not in text(client.get("/play/corrections/"))
    assert f"/play/rounds/{round_obj.pk}/" not in text(client.get("/play/rounds/"))
    assert RoundCorrection.objects.get().status == CorrectionStatus.PROPOSED
    assert balance(account) == AFTER_ROUND


@pytest.mark.parametrize("role", ["player", "manager_a", "payments_a"])
def test_617a6_those_who_do_not_correct_rounds_may_not_propose_or_open_the_queue(
    login, request, played, role
):
    round_obj = played[1]
    client = login(request.getfixturevalue(role))

    proposed = propose_void(client, round_obj)

    assert proposed.status_code == 403
    assert client.get("/play/corrections/").status_code == 403
    assert not RoundCorrection.objects.exists()


# Rejecting, deciding twice, proposing twice ---------------------------------------------


def test_617a6_a_rejection_needs_its_reason_and_the_player_reads_it(
    login, played, supervisor_a, officer, player
):
    account, round_obj = played
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(officer)

    bare = decide(client, void, "reject", "  ")
    rejected = decide(client, void, "reject", "The draw log is in order")
    again = decide(client, void, "approve")

    assert bare.status_code == 400
    assert "§ 617a.6: give the reason" in field_errors(bare, "decide_reason")
    assert rejected.status_code == 302
    assert again.status_code == 409 and "only a proposed one can be approved" in text(again)
    assert balance(account) == AFTER_ROUND
    page = text(login(player).get(round_url(round_obj)))
    assert "the game stands as you played it" in page
    assert "The draw log is in order" in page and "Rejected" in page


def test_617a6_a_second_proposal_while_one_waits_is_refused_inline_with_its_clause(
    login, played, supervisor_a, officer
):
    round_obj = played[1]
    client = login(supervisor_a)
    propose_void(client, round_obj)

    waiting = text(login(officer).get(round_url(round_obj)))
    again = propose_void(login(officer), round_obj, "A second look")

    assert "waiting for a decision" in waiting and "decide that one first" in waiting
    assert again.status_code == 409
    assert "§ 617a.6: a void of round" in text(again) and "already waiting" in text(again)
    assert RoundCorrection.objects.count() == 1


def test_617a6_an_unknown_step_or_action_is_400_and_changes_nothing(
    login, played, supervisor_a, officer
):
    round_obj = played[1]
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(officer)

    no_step = decide(client, void, "")
    bad_step = decide(client, void, "withdraw")
    no_action = client.post(round_url(round_obj), {"reason": WHY})
    bad_action = client.post(round_url(round_obj), {"action": "refund", "reason": WHY})

    assert no_step.status_code == bad_step.status_code == 400
    assert "There is no step “withdraw” for a void" in text(bad_step)
    assert no_action.status_code == bad_action.status_code == 400
    assert RoundCorrection.objects.get().status == CorrectionStatus.PROPOSED


def test_812a7_a_9_an_adjustment_waiting_is_named_with_its_article_everywhere(
    login, played, supervisor_a, officer
):
    """ "An adjustment", never "a adjustment": the round page, the refusal of a second
    proposal, and the refusal of a step the adjustment does not have."""
    round_obj = played[1]
    waiting = propose_adjustment(login(supervisor_a), round_obj)
    assert waiting.status_code == 302
    adjustment = RoundCorrection.objects.get()

    page = text(login(officer).get(round_url(round_obj)))
    again = propose_void(login(officer), round_obj, "A second look")
    bad_step = decide(login(officer), adjustment, "withdraw")

    assert "An adjustment of this round is waiting for a decision" in page
    assert again.status_code == 409
    assert f"round {round_obj.pk} already has an adjustment waiting" in text(again)
    assert "There is no step “withdraw” for an adjustment" in text(bad_step)
    for shown in (page, text(again), text(bad_step)):
        assert "a adjustment" not in shown.lower()
    assert RoundCorrection.objects.count() == 1


# Adjustments --------------------------------------------------------------------------------


def test_812a7_a_9_an_adjustment_typed_in_dollars_is_proposed_in_cents_with_its_notice(
    login, played, supervisor_a, officer, player
):
    account, round_obj = played
    client = login(supervisor_a)

    proposed = propose_adjustment(
        client, round_obj, direction="debit", amount="$1,234.50", notice="We took back $1,234.50."
    )

    adjustment = RoundCorrection.objects.get()
    assert proposed.status_code == 302
    assert (adjustment.kind, adjustment.amount) == ("adjustment", -123_450)
    assert adjustment.notice == "We took back $1,234.50."
    correction_reject(actor=officer, correction_id=adjustment.pk, reason="Not so much")

    propose_adjustment(client, round_obj)  # a credit of $2.50
    credit = RoundCorrection.objects.get(status=CorrectionStatus.PROPOSED)
    assert credit.amount == 250
    decided = decide(login(officer), credit, "approve")

    assert decided.status_code == 302
    assert balance(account) == AFTER_ROUND + 250
    page = text(login(player).get(round_url(round_obj)))
    assert '<h2 id="round-state-heading">Adjusted</h2>' in page
    assert "a credit of $2.50 to your account" in page
    assert "We have credited $2.50 to your account for this game." in page  # the notice


@pytest.mark.parametrize(
    ("fields", "field", "error"),
    [
        ({"amount": "2.005"}, "adjustment_amount", "at most two digits of cents"),
        ({"amount": "abc"}, "adjustment_amount", "Enter an amount in dollars and cents"),
        ({"amount": "-2.50"}, "adjustment_amount", "without a sign"),
        ({"amount": "0.00"}, "adjustment_amount", "§ 812a.7(a)(9): the adjustment is"),
        ({"amount": None}, "adjustment_amount", "§ 812a.7(a)(9): the adjustment is"),
        ({"notice": None}, "adjustment_notice", "§ 812a.7(a)(9): write the notification"),
        ({"notice": "   "}, "adjustment_notice", "§ 812a.7(a)(9): write the notification"),
        ({"reason": ""}, "adjustment_reason", "§ 812a.7(a)(9): give the reason"),
        ({"direction": None}, "adjustment_direction", "credited or debited"),
        ({"direction": "refund"}, "adjustment_direction", "credited or debited"),
        ({"amount": "1000000.01"}, "adjustment_amount", "at most $1,000,000.00"),
    ],
    ids=[
        "odd-cents",
        "not-a-number",
        "negative-credit",
        "zero",
        "missing-amount",
        "missing-notice",
        "blank-notice",
        "missing-reason",
        "missing-direction",
        "forged-direction",
        "too-large",
    ],
)
def test_812a7_a_9_a_malformed_adjustment_is_400_on_its_field_and_writes_nothing(
    login, played, officer, fields, field, error
):
    account, round_obj = played

    refused = propose_adjustment(login(officer), round_obj, **fields)

    assert refused.status_code == 400
    assert error in field_errors(refused, field)
    assert not RoundCorrection.objects.exists()
    assert balance(account) == AFTER_ROUND


@pytest.mark.clause("reading:adjustment-grounds", kind="cites-in-message")
def test_812a7_a_9_a_field_error_citing_a_reading_names_it_by_its_title(login, played, officer):
    """The refusal cites the register; the page names the Reading by its title, linked to
    its entry on the Regulation page, never by its id."""
    account, round_obj = played

    refused = propose_adjustment(login(officer), round_obj, finding="")

    assert refused.status_code == 400
    page = text(refused)
    shown = shown_text(page)
    assert "§ 812a.7(a)(9): an adjustment credit rests on an upheld dispute" in shown
    title = title_of("reading:adjustment-grounds")
    assert title and f"the reading “{title}”" in shown
    assert 'href="/regulation/#clause-readingadjustment-grounds"' in page
    assert "reading:" not in shown
    assert not RoundCorrection.objects.exists()


def test_617a6_a_void_without_its_reason_is_400_citing_the_clause(login, played, officer):
    refused = propose_void(login(officer), played[1], reason="   ")

    assert refused.status_code == 400
    assert "§ 617a.6: give the reason" in field_errors(refused, "void_reason")
    assert not RoundCorrection.objects.exists()


# The queue ----------------------------------------------------------------------------------


@pytest.fixture
def two_holders(played, supervisor_a, supervisor_b, officer, manager_b, holder_b, player):
    """A void waiting at holder A and an adjustment waiting at holder B, proposed later."""
    round_a = played[1]
    wallet_top_up(player=player, amount=DEPOSITED, holder=holder_b)
    table_b = approved_offering(manager_b, officer, holder_b, name="Table B")
    round_b = play_round(player, table_b, "correct-page-b").round
    void = correction_propose(actor=supervisor_a, round_id=round_a.pk, kind="void", reason=WHY)
    adjustment = correction_propose(
        actor=supervisor_b,
        round_id=round_b.pk,
        kind="adjustment",
        finding_id=finding_on(round_b.pk),
        amount=-300,
        reason="Paid twice",
        notice="We took back $3.00 paid twice.",
    )
    return void, adjustment


def _listed(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<a href="/play/corrections/(\d+)/">', page)]


def test_617a6_the_queue_lists_what_waits_oldest_first_and_filters_by_status_and_kind(
    login, two_holders, officer, officer2
):
    void, adjustment = two_holders
    client = login(officer)

    waiting = text(client.get("/play/corrections/"))
    assert _listed(waiting) == [void.pk, adjustment.pk]  # oldest first
    assert "Debit of $3.00" in waiting and 'data-label="Holder">Susquehanna Gaming' in waiting
    assert _listed(text(client.get("/play/corrections/?kind=adjustment"))) == [adjustment.pk]
    correction_approve(actor=officer2, correction_id=void.pk)

    assert _listed(text(client.get("/play/corrections/"))) == [adjustment.pk]
    assert _listed(text(client.get("/play/corrections/?status=approved"))) == [void.pk]
    assert _listed(text(client.get("/play/corrections/?status=any"))) == [
        adjustment.pk,
        void.pk,
    ]  # newest first
    bad = client.get("/play/corrections/?status=applied")
    assert bad.status_code == 400 and "Select a valid choice" in field_errors(bad, "id_status")
    assert _listed(text(bad)) == []


def test_617a6_a_supervisor_queues_their_own_holders_only(login, two_holders, supervisor_b):
    void, adjustment = two_holders

    page = text(login(supervisor_b).get("/play/corrections/"))

    assert _listed(page) == [adjustment.pk]
    assert 'data-label="Holder"' not in page and 'name="holder"' not in page
    # Their holder's round and its replay open; the other holder's do not.
    assert login(supervisor_b).get(f"/play/rounds/{adjustment.round_id}/").status_code == 200
    assert login(supervisor_b).get(f"/play/rounds/{void.round_id}/replay/").status_code == 404
    # Their holder's rounds list, offering their holder's tables only.
    rounds = text(login(supervisor_b).get("/play/rounds/"))
    assert f'href="/play/rounds/{adjustment.round_id}/"' in rounds
    assert f'href="/play/rounds/{void.round_id}/"' not in rounds
    assert "Table B (Susquehanna Gaming)" in rounds and "(Keystone Casino)" not in rounds


def test_617a6_the_queue_exports_every_correction_selected_as_csv(
    login, two_holders, officer, officer2
):
    void, adjustment = two_holders
    correction_approve(actor=officer2, correction_id=void.pk, reason="Agreed")

    response = login(officer).get("/play/corrections/?status=any&export=csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))

    assert response["Content-Type"].startswith("text/csv")
    by_id = {int(row["Correction ID"]): row for row in rows}
    assert set(by_id) == {void.pk, adjustment.pk}
    assert by_id[void.pk]["Kind"] == "void" and by_id[void.pk]["Status"] == "approved"
    # $20.00 given back less $24.00 taken back: the player owes $4.00.
    assert (by_id[void.pk]["Direction"], by_id[void.pk]["Amount (cents)"]) == ("debit", "400")
    assert (by_id[void.pk]["Credited (cents)"], by_id[void.pk]["Debited (cents)"]) == (
        "2000",
        "2400",
    )
    assert by_id[void.pk]["Decided by"] == "officer2"
    assert by_id[void.pk]["Decision reason"] == "Agreed"
    assert by_id[adjustment.pk]["Notice"] == "We took back $3.00 paid twice."
    assert (by_id[adjustment.pk]["Direction"], by_id[adjustment.pk]["Amount (cents)"]) == (
        "debit",
        "300",
    )


@pytest.mark.parametrize("rows", [1, 4])
def test_617a6_the_queue_reads_a_fixed_number_of_queries(
    login, played, supervisor_a, officer, live_offering, django_assert_num_queries, rows
):
    player = played[0].player
    for number in range(rows):
        round_obj = play_round(player, live_offering, f"queue-count-{number}").round
        correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(officer)

    # session, user, roles and holder; the holders offered; the count; one page of rows
    with django_assert_num_queries(7):  # with the header's unread-notification count
        response = client.get("/play/corrections/")

    assert response.status_code == 200 and len(_listed(text(response))) == rows


# The lists say what each round is now ------------------------------------------------------


def test_617a6_the_round_lists_and_their_csv_show_each_rounds_state(
    login, played, supervisor_a, officer, officer2, player, live_offering
):
    round_obj = played[1]
    other = play_round(player, live_offering, "correct-page-2").round
    adjusted = play_round(player, live_offering, "correct-page-3").round
    void = correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    correction_approve(actor=officer, correction_id=void.pk)
    adjustment = correction_propose(
        actor=officer,
        round_id=adjusted.pk,
        kind="adjustment",
        finding_id=finding_on(adjusted.pk),
        amount=100,
        reason="Short",
        notice="We credited you $1.00.",
    )
    correction_approve(actor=officer2, correction_id=adjustment.pk)
    waiting = correction_propose(actor=supervisor_a, round_id=other.pk, kind="void", reason=WHY)
    expected = {round_obj.pk: "Void", adjusted.pk: "Adjusted", other.pk: "Complete"}

    staff = text(login(officer).get("/play/rounds/"))
    supervised = text(login(supervisor_a).get("/play/rounds/"))
    export = login(officer).get("/play/rounds/?export=csv")
    history = text(login(player).get("/play/history/"))

    assert '<th scope="col"' in staff and ">State<" in staff
    assert state_cells(staff) == expected  # a proposal waiting changes nothing yet
    assert state_cells(supervised) == expected
    assert state_cells(history) == expected
    rows = list(csv.DictReader(io.StringIO(b"".join(export.streaming_content).decode())))
    assert {int(row["Round ID"]): row["State"] for row in rows} == {
        round_obj.pk: "void",
        adjusted.pk: "adjusted",
        other.pk: "complete",
    }
    assert waiting.status == CorrectionStatus.PROPOSED


@pytest.mark.parametrize("rows", [1, 4])
def test_617a6_the_round_list_reads_its_state_in_the_same_query(
    login, played, supervisor_a, officer, player, live_offering, django_assert_num_queries, rows
):
    for number in range(rows):
        round_obj = play_round(player, live_offering, f"list-count-{number}").round
        correction_propose(actor=supervisor_a, round_id=round_obj.pk, kind="void", reason=WHY)
    client = login(officer)

    # session, user, roles and holder; the tables offered; the count; one page of rows
    with django_assert_num_queries(7):  # with the header's unread-notification count
        response = client.get("/play/rounds/")

    assert response.status_code == 200


# The header ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "shown"),
    [
        ("officer", True),
        ("auditor", True),
        ("supervisor_a", True),
        ("superuser", True),
        ("manager_a", False),
        ("payments_a", False),
        ("player", False),
    ],
)
def test_617a6_the_header_links_the_queue_for_those_who_see_it(login, request, role, shown):
    page = text(login(request.getfixturevalue(role)).get("/accounts/2fa/"))

    assert ('<a href="/play/corrections/">Voids and adjustments</a>' in page) is shown


def test_617a6_a_supervisor_signs_in_to_what_waits_for_a_decision(login, supervisor_a):
    answer = login(supervisor_a).get("/")

    assert answer.status_code == 302 and answer.url == "/play/corrections/"


def test_617a6_a_supervisors_view_of_a_player_account_links_its_rounds(
    login, played, supervisor_a, supervisor_b
):
    account, round_obj = played

    page = login(supervisor_a).get(f"/play/players/{account.pk}/")

    assert page.status_code == 200
    assert f'href="/play/rounds/{round_obj.pk}/"' in page.content.decode()
    assert login(supervisor_b).get(f"/play/players/{account.pk}/").status_code in (403, 404)
