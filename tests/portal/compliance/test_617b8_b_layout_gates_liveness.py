"""§ 617b.8(b): a table's layout is approved (by the Bureau, § 601a.10(a)) before it is used.

What proves it is that no table goes live, or takes a bet, on a layout that is not approved:
through the live check (``offering_is_live``, which every round asks first), through the
services (the rules submission that would make the table live cannot be approved while its
layout is not; withdrawing the layout's approval closes the table at once) and through play.
How long an approval lasts is another matter (its expiry dates are related tests, not these).
"""

from __future__ import annotations

import datetime

import pytest
import time_machine

from portal.compliance.models import AvailabilityCause, AvailabilityChange, RecordStatus
from portal.compliance.selectors import offering_is_live
from portal.compliance.services.layouts import layout_approve, layout_submit, layout_withdraw
from portal.compliance.services.rules import rules_submission_approve, rules_submission_submit
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import Round
from portal.game.play.services import round_play
from tests.portal.factories import (
    EFFECTIVE,
    EXPIRY,
    approved_paytable,
    in_session,
    make_layout,
    make_offering,
    make_rules,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db

# Inside every approval's dates (2026-01-01 to 2028-01-01), whatever day the suite runs.
NOW = datetime.datetime(2026, 11, 30, 17, 0, tzinfo=datetime.UTC)  # noon EST
NOT_APPROVED = "the layout v1 is not approved (it is {status})"


@pytest.fixture(autouse=True)
def in_force():
    with time_machine.travel(NOW, tick=False):
        yield


def _a_round(player, offering, key="layout-gate-0001"):
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=[{"kind": "red", "stake": 200}],
        idempotency_key=key,
        rng=FixedBits(1),
    )


def _opened(offering) -> list[bool]:
    return list(
        AvailabilityChange.objects.filter(offering=offering)
        .order_by("at", "pk")
        .values_list("opened", flat=True)
    )


@pytest.fixture
def table_on_a_submitted_layout(manager_a, officer, holder_a):
    """Everything approved but the layout, which awaits the Bureau's decision; the rules
    submission listing it waits too (it cannot be approved before its layout is)."""
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    paytable = approved_paytable(manager_a, officer, holder_a)
    rules = rules_submission_submit(
        actor=manager_a, submission=make_rules(manager_a, holder_a, paytable, layout)
    )
    return make_offering(manager_a, holder_a, rules, layout, paytable)


def test_617b8_b_a_table_on_a_layout_not_yet_approved_is_not_live_and_takes_no_bet(
    table_on_a_submitted_layout, player, holder_a
):
    offering = table_on_a_submitted_layout
    wallet_top_up(player=player, amount=100_000, holder=holder_a)

    liveness = offering_is_live(offering, at=NOW)

    assert not liveness.live
    assert NOT_APPROVED.format(status="submitted") in liveness.reasons
    assert _opened(offering) == []  # set up, but never opened
    with pytest.raises(Conflict, match=r"this table is closed: .*the layout v1 is not approved"):
        _a_round(player, offering)
    assert not Round.objects.exists()


def test_617b8_b_the_rules_that_would_open_the_table_wait_for_its_layouts_approval(
    table_on_a_submitted_layout, officer
):
    offering = table_on_a_submitted_layout

    with pytest.raises(ValidationFailed) as refused:
        rules_submission_approve(actor=officer, submission=offering.rules_submission)

    assert "the listed layout 'Main floor layout' v1 is submitted" in refused.value.message
    offering.rules_submission.refresh_from_db()
    assert offering.rules_submission.status == RecordStatus.SUBMITTED
    assert not offering_is_live(offering, at=NOW).live

    # The Bureau approves the layout; then, and only then, the rules and the table.
    layout_approve(
        actor=officer,
        layout=offering.layout,
        reference_number="BGO-2026-0042",
        effective_date=EFFECTIVE,
        expiry_date=EXPIRY,
    )
    assert _opened(offering) == []
    rules_submission_approve(actor=officer, submission=offering.rules_submission)
    offering.refresh_from_db()
    assert offering_is_live(offering, at=NOW).live
    assert _opened(offering) == [True]


def test_617b8_b_withdrawing_the_layouts_approval_closes_the_table_and_it_takes_no_bet(
    live_offering, funded_player, officer
):
    _a_round(funded_player, live_offering, key="layout-gate-before")

    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled by the Bureau")

    live_offering.refresh_from_db()
    liveness = offering_is_live(live_offering, at=NOW)
    # The layout alone closes it: everything else it runs on is still approved.
    assert liveness.reasons == (NOT_APPROVED.format(status="withdrawn"),)
    closed = AvailabilityChange.objects.filter(offering=live_offering).latest("at", "pk")
    assert (closed.opened, closed.cause) == (False, AvailabilityCause.APPROVAL_WITHDRAWN)
    with pytest.raises(Conflict, match="the layout v1 is not approved"):
        _a_round(funded_player, live_offering, key="layout-gate-after")
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    "status",
    # Superseded is the one status after approval that still plays where the approved rules
    # submission lists it (reading:supersede): its own test is below.
    [s for s in RecordStatus.values if s not in (RecordStatus.APPROVED, RecordStatus.SUPERSEDED)],
)
def test_617b8_b_the_live_check_opens_a_table_only_on_an_approved_layout(live_offering, status):
    assert offering_is_live(live_offering, at=NOW).live  # approved: everything in order

    live_offering.layout.status = status  # as read, not saved: the check alone decides

    liveness = offering_is_live(live_offering, at=NOW)
    assert not liveness.live
    assert liveness.reasons
    assert all(reason.startswith("the layout v1 ") for reason in liveness.reasons)


@pytest.mark.clause("617b.8(b)", kind="related")
@pytest.mark.clause("reading:supersede", kind="proves")
def test_reading_supersede_a_superseded_layout_plays_only_where_the_approved_rules_list_it(
    live_offering,
):
    live_offering.layout.status = RecordStatus.SUPERSEDED  # as read, not saved

    assert offering_is_live(live_offering, at=NOW).live  # its rules submission lists v1

    other = live_offering.rules_submission.games.get()
    other.layout_id = live_offering.layout_id + 1000  # a listing naming another version
    liveness = offering_is_live(live_offering, at=NOW, listing=other)
    assert not liveness.live
    assert "the layout v1 has been superseded by a later version" in liveness.reasons
