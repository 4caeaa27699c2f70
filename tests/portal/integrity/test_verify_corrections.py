"""``verify_records`` holds voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) to their
ledger entries, their rounds and their audit events: each change below is made as someone
with database rights would make it, and the check must name it."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from portal.audit.models import AuditEvent
from portal.core import append_only
from portal.game.corrections.services import (
    correction_approve,
    correction_propose,
    correction_reject,
)
from portal.game.models import LedgerEntry, LedgerKind, RoundCorrection, Wallet
from portal.integrity.records import verify_records
from tests.portal.factories import finding_on
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db


def _sql(statement: str, params: list, *, lift: tuple[str, ...] = ()) -> None:
    for table in lift:
        append_only.drop(connection, table)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
    for table in lift:
        append_only.install(connection, table)


@pytest.fixture
def corrected(funded_player, live_offering, officer, supervisor_a):
    """Four rounds: one voided, one adjusted, one whose void was rejected, one waiting."""
    rounds = [play_round(funded_player, live_offering, f"correct-{n}").round for n in range(4)]

    def propose(round_obj, kind, **more):
        return correction_propose(
            actor=supervisor_a, round_id=round_obj.pk, kind=kind, reason="found wrong", **more
        )

    void = correction_approve(actor=officer, correction_id=propose(rounds[0], "void").pk)
    adjustment = correction_approve(
        actor=officer,
        correction_id=propose(
            rounds[1],
            "adjustment",
            amount=-300,
            notice="We took back $3.00 paid twice.",
            finding_id=finding_on(rounds[1], officer),  # the payout error it rests on
        ).pk,
    )
    correction_reject(actor=officer, correction_id=propose(rounds[2], "void").pk, reason="fine")
    propose(rounds[3], "void")
    return {"void": void, "adjustment": adjustment}


def _problems(report) -> list[str]:
    return [str(problem) for problem in report.problems]


def test_617a6_and_812a7_a_9_corrections_written_by_the_services_verify(corrected):
    report = verify_records()

    assert report.ok, _problems(report)
    assert report.checked["voids"] == 3
    assert report.checked["adjustments"] == 1
    assert report.checked["void entries"] == 2
    assert report.checked["adjustment entries"] == 1


def test_617a6_a_void_entry_no_void_names_is_reported(corrected):
    void = corrected["void"]
    wallet = Wallet.objects.get(player=void.account.player)
    entry = LedgerEntry.objects.create(
        wallet=wallet,
        account=void.account,
        kind=LedgerKind.VOID_STAKES,
        amount=500,
        balance_after=void.account.balance + 500,
        round=void.round,
    )

    problems = _problems(verify_records())

    assert any(
        f"ledger entry #{entry.pk}" in p and "§ 617a.6: no approved void names it" in p
        for p in problems
    ), problems


def test_617a6_a_void_whose_amounts_were_changed_is_reported(corrected):
    void = corrected["void"]
    _sql(
        "UPDATE game_roundcorrection SET credited = credited + 100, amount = amount + 100 "
        "WHERE id = %s",
        [void.pk],
    )

    problems = " | ".join(_problems(verify_records()))

    assert f"void #{void.pk} (round #{void.round_id}): § 617a.6: it credited" in problems
    assert "records another credited" in problems


def test_812a7_a_9_an_adjustment_whose_event_disagrees_is_reported(corrected):
    adjustment = corrected["adjustment"]
    event = AuditEvent.objects.get(action="adjustment.approve", object_id=str(adjustment.pk))
    changed = {**event.after, "debited": 0, "uncollected": 300}
    _sql(
        "UPDATE audit_auditevent SET after = %s WHERE id = %s",
        [json.dumps(changed), event.pk],
        lift=("audit_auditevent",),
    )

    problems = " | ".join(_problems(verify_records()))

    assert f"adjustment #{adjustment.pk}" in problems
    assert "§ 812a.7(a)(9): its audit event" in problems and "debited, uncollected" in problems


def test_617a6_a_decision_without_its_event_and_a_status_changed_by_hand_are_reported(
    corrected,
):
    waiting = RoundCorrection.objects.get(status="proposed")
    _sql(
        "UPDATE game_roundcorrection SET status = 'rejected', decided_by_id = proposed_by_id "
        "WHERE id = %s",
        [waiting.pk],
    )

    problems = " | ".join(_problems(verify_records()))

    assert f"void #{waiting.pk}" in problems
    assert "0 void.reject audit events record it, where it is rejected: 1 due" in problems


def test_617a6_a_void_entry_moved_to_another_round_is_reported(corrected, funded_player):
    void = corrected["void"]
    other = RoundCorrection.objects.get(status="proposed").round_id
    _sql(
        "UPDATE game_ledgerentry SET round_id = %s WHERE id = %s",
        [other, void.credit_entry_id],
        lift=("game_ledgerentry",),
    )

    problems = " | ".join(_problems(verify_records()))

    assert f"ledger entry #{void.credit_entry_id}" in problems
    assert "they differ in: round" in problems
