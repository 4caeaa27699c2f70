"""Each step says, before it is taken, which tables it takes live or dark (§ 811a.7(f)):
what ``step_impact`` foretells is what the availability log records when the step is taken."""

from __future__ import annotations

import pytest

from portal.compliance.models import AvailabilityChange
from portal.compliance.selectors import step_impact
from portal.compliance.services.layouts import layout_withdraw
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_reject,
    paytable_submit,
)

pytestmark = pytest.mark.django_db


def _recorded(after_pk: int) -> tuple[set[int], set[int]]:
    changes = AvailabilityChange.objects.filter(pk__gt=after_pk)
    return (
        {change.offering_id for change in changes if change.opened},
        {change.offering_id for change in changes if not change.opened},
    )


def _last_change() -> int:
    last = AvailabilityChange.objects.order_by("-pk").first()
    return last.pk if last else 0


def _ids(offerings) -> set[int]:
    return {offering.pk for offering in offerings}


def test_811a7_f_withdrawing_a_layout_foretells_the_table_it_closes(
    live_offering, officer, manager_a
):
    impact = step_impact(live_offering.layout, "withdraw")
    assert _ids(impact.closes) == {live_offering.pk} and not impact.opens

    mark = _last_change()
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")

    assert _recorded(mark) == (_ids(impact.opens), _ids(impact.closes))


def test_811a7_f_approving_an_amendment_foretells_what_superseding_closes(
    live_offering, officer, manager_a
):
    amendment = paytable_submit(
        actor=manager_a, paytable=paytable_amend(actor=manager_a, paytable=live_offering.paytable)
    )
    impact = step_impact(amendment, "approve")
    # The rules submission still lists v1, which approving v2 supersedes: the table plays on
    # under v1 until the submission's amendment is approved (reading:supersede).
    assert not impact

    mark = _last_change()
    paytable_approve(actor=officer, paytable=amendment)

    assert _recorded(mark) == (_ids(impact.opens), _ids(impact.closes)) == (set(), set())


def test_a_step_that_moves_no_table_foretells_nothing(live_offering, officer, manager_a):
    amendment = paytable_submit(
        actor=manager_a, paytable=paytable_amend(actor=manager_a, paytable=live_offering.paytable)
    )
    assert not step_impact(amendment, "reject")

    mark = _last_change()
    paytable_reject(actor=officer, paytable=amendment, reason="No")

    assert _recorded(mark) == (set(), set())
