"""The edge ≤ 0 flag and the edges shown to managers follow what is paid (reading:round-up).

Worked by hand (cents; see ``tests/jinzi/test_jinzi_round_up.py`` for the arithmetic):

- straight up at 34 to 3: the odds alone give 1/78 > 0, but a 2- or 4-cent stake on any
  number but 0 is paid 25 or 50 for a 26 or 52 staked over the 13 outcomes: edge 0. Over
  every even stake from 2 cents (a paytable on its own, reading:even-stakes) 12 spots are
  flagged; straight up 0 is not (25 for 26: 1/26).
- at a table with a chip unit of 100 cents, none is: 100 cents gain at most 2/3 of a cent
  per win (lowest edge 4/325), so the rules submission listing it is approved as usual.
- at a table taking 2-cent stakes, they are flagged again, and approving the rules
  submission needs a reason that accepts it.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.models import RecordStatus
from portal.compliance.presenters.edge import edge_report
from portal.compliance.services.paytables import paytable_approve, paytable_submit
from portal.compliance.services.rules import rules_submission_approve, rules_submission_submit
from portal.compliance.zero_edges import listing_flags, zero_edges_of
from portal.core.errors import ValidationFailed
from tests.portal.factories import (
    MINIMUM_ODDS,
    acknowledged,
    approved_layout,
    events_written,
    listing,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db

STRAIGHT_34_3 = {**MINIMUM_ODDS, "straight": "34/3"}


def _submitted(manager, holder, odds=STRAIGHT_34_3):
    return paytable_submit(actor=manager, paytable=make_paytable(manager, holder, odds=odds))


def _approved(manager, officer, holder, odds=STRAIGHT_34_3):
    submitted = _submitted(manager, holder, odds)
    return paytable_approve(
        actor=officer,
        paytable=submitted,
        override_reason="Promotional table, board notified",
        edge_acknowledged=acknowledged(submitted),
    )


def test_reading_round_up_edge_report_shows_the_edges_as_paid_over_every_even_stake(
    manager_a, holder_a
):
    report = edge_report(make_paytable(manager_a, holder_a, odds=STRAIGHT_34_3))
    straight = next(row for row in report.rows if row.kind == "straight")

    # Lowest: 0 on 2 cents (numbers 1–12); highest: straight up 0's own 1 − 37/39 = 2/39.
    assert (straight.lowest, straight.highest) == (0, Fraction(2, 39))
    assert straight.edge == "0 – 2/39" and straight.flagged
    assert straight.rounding_note == "lowest on a stake of 2 cents, its return rounded up"
    assert report.flagged_spots == tuple(f"Straight up {n}" for n in range(1, 13))
    # Said once for the kind, the edge as it is and from which stake.
    assert report.zero_edge_lines == (
        "Straight up: no house edge (zero) on 12 of its 13 spots, lowest at a stake of 2 cents",
    )
    bands = {band.key: band for band in report.hold_bands}
    assert (bands["not_covering_zero"].lowest, bands["covering_zero"].lowest) == (
        0,
        Fraction(1, 26),
    )
    # Whole odds round nothing: the minimum table's rows carry no note.
    minimum = edge_report(make_paytable(manager_a, holder_a, name="Minimum"))
    assert not minimum.flagged and {row.rounding_note for row in minimum.rows} == {""}


def test_reading_round_up_a_split_at_16_to_3_shows_minus_1_26_on_a_2_cent_stake(
    manager_a, holder_a
):
    """Split 1-2 on 2 cents: paid 13 (not 12.67) twice and 1 on 0, 27 for 26 staked."""
    odds = {**MINIMUM_ODDS, "split": "16/3"}
    report = edge_report(make_paytable(manager_a, holder_a, odds=odds))
    split = next(row for row in report.rows if row.kind == "split")

    assert split.lowest == Fraction(-1, 26)  # the odds alone: −1/78
    assert split.edge_percent.startswith("-3.846 %")
    assert report.as_json()["per_kind"][1]["lowest"] == "-1/26"


def test_reading_round_up_approving_a_straight_at_34_to_3_needs_an_override(
    manager_a, officer, holder_a
):
    paytable = _submitted(manager_a, holder_a)
    before = events_written()

    with pytest.raises(ValidationFailed) as caught:
        paytable_approve(actor=officer, paytable=paytable, override_reason="Promotion")

    message = caught.value.field_errors["edge_acknowledged"][0]
    assert message.startswith("§ 617b.8(f) (reading:edge-acknowledgement)")
    assert "Straight up: no house edge (zero) on 12 of its 13 spots" in message
    with pytest.raises(ValidationFailed) as caught:
        paytable_approve(actor=officer, paytable=paytable, edge_acknowledged=acknowledged(paytable))
    assert caught.value.field_errors["override_reason"] == [msg.EDGE_OVERRIDE_REQUIRED]
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.SUBMITTED and events_written() == before

    approved = paytable_approve(
        actor=officer,
        paytable=paytable,
        override_reason="Promotional table, board notified",
        edge_acknowledged=acknowledged(paytable),
    )
    assert approved.status == RecordStatus.APPROVED


def test_reading_round_up_a_table_in_whole_dollars_is_approved_without_a_reason(
    manager_a, officer, holder_a
):
    paytable = _approved(manager_a, officer, holder_a)
    layout = approved_layout(manager_a, officer, holder_a)
    rules = rules_submission_submit(
        actor=manager_a, submission=make_rules(manager_a, holder_a, paytable, layout)
    )  # chip unit 100, 100 to 50,000 cents
    assert listing_flags(rules.games.get()) == ()

    approved = rules_submission_approve(actor=officer, submission=rules)

    assert approved.status == RecordStatus.APPROVED


def test_reading_round_up_a_table_taking_2_cent_stakes_needs_a_reason_to_approve(
    manager_a, officer, holder_a
):
    paytable = _approved(manager_a, officer, holder_a)
    layout = approved_layout(manager_a, officer, holder_a)
    small = listing(paytable, layout, chip_unit=2, min_wager=2, max_wager=1_000)
    rules = make_rules(manager_a, holder_a, paytable, layout, games=[small])
    rules = rules_submission_submit(actor=manager_a, submission=rules)
    flags = listing_flags(rules.games.get())
    assert [(f.wager.spot, f.edge, f.stake) for f in flags][:2] == [
        ("straight:1", 0, 2),
        ("straight:2", 0, 2),
    ]
    before = events_written()

    with pytest.raises(ValidationFailed) as caught:
        rules_submission_approve(actor=officer, submission=rules, reason="A reason alone")

    [message] = caught.value.field_errors["edge_acknowledged"]
    assert "Straight up: no house edge (zero) on 12 of its 13 spots" in message
    assert "(stakes: chips of $0.02, from $0.02 to $10.00 a spot)" in message
    with pytest.raises(ValidationFailed) as caught:
        rules_submission_approve(
            actor=officer, submission=rules, reason="  ", edge_acknowledged=acknowledged(rules)
        )
    assert caught.value.field_errors["reason"] == [msg.LISTING_EDGE_REASON_REQUIRED]
    rules.refresh_from_db()
    assert rules.status == RecordStatus.SUBMITTED and events_written() == before

    approved = rules_submission_approve(
        actor=officer,
        submission=rules,
        reason="Promotional table at 2-cent stakes, accepted",
        edge_acknowledged=acknowledged(rules),
    )
    assert approved.status == RecordStatus.APPROVED
    event = AuditEvent.objects.filter(action="rules_submission.approve").latest("sequence")
    assert event.reason == "Promotional table at 2-cent stakes, accepted"
    assert event.after["edge_acknowledged"] == list(zero_edges_of(rules).lines)


def test_reading_round_up_a_table_from_6_cents_is_not_flagged(manager_a, officer, holder_a):
    """From 6 cents up a straight at 34 to 3 never reaches an edge of 0: the lowest is
    1/130, on 10 cents (bound: no stake from 1/(13 × 1/78) = 6 up can be flagged)."""
    paytable = _approved(manager_a, officer, holder_a)
    layout = approved_layout(manager_a, officer, holder_a)
    from_six = listing(paytable, layout, chip_unit=2, min_wager=6, max_wager=1_000)
    rules = make_rules(manager_a, holder_a, paytable, layout, games=[from_six])
    rules = rules_submission_submit(actor=manager_a, submission=rules)

    assert rules_submission_approve(actor=officer, submission=rules).status == "approved"


def test_reading_round_up_the_pages_preview_and_decision_show_the_flag_with_its_stake(
    login, manager_a, officer, holder_a
):
    typed = {"name": "House special", **{k: str(v) for k, v in STRAIGHT_34_3.items()}}
    preview = login(manager_a).post("/compliance/paytables/preview/", typed).content.decode()
    assert "House edge of zero or less" in preview
    assert "Straight up: no house edge (zero) on 12 of its 13 spots" in preview
    assert preview.count("Straight up: no house edge") == 1
    assert "lowest on a stake of 2 cents, its return rounded up" in preview

    paytable = _approved(manager_a, officer, holder_a)
    layout = approved_layout(manager_a, officer, holder_a)
    small = listing(paytable, layout, chip_unit=2, min_wager=2, max_wager=1_000)
    rules = rules_submission_submit(
        actor=manager_a,
        submission=make_rules(manager_a, holder_a, paytable, layout, games=[small]),
    )
    client = login(officer)
    page = client.get(f"/compliance/paytables/{paytable.pk}/").content.decode()
    assert "lowest at a stake of 2 cents" in page

    decision = client.get(f"/compliance/rules/{rules.pk}/").content.decode()
    assert "Wagers approving leaves with a house edge of zero or less" in decision
    assert "Straight up: no house edge (zero) on 12 of its 13 spots" in decision

    refused = client.post(
        f"/compliance/rules/{rules.pk}/", {"step": "approve", "reason": "A reason alone"}
    )

    assert refused.status_code == 400
    errors = re.search(
        r'<ul class="errorlist" id="id_approve_edge_acknowledged_error">(.*?)</ul>',
        refused.content.decode(),
        re.S,
    )
    assert errors and "§ 617b.8(f) (" in errors.group(1)
    # The field's error names the Reading by its title, linked; never by its id.
    assert 'href="/regulation/#clause-readingedge-acknowledgement"' in errors.group(1)
    assert "reading:" not in errors.group(1)
    rules.refresh_from_db()
    assert rules.status == RecordStatus.SUBMITTED
    approved = client.post(
        f"/compliance/rules/{rules.pk}/",
        {"step": "approve", "reason": "Promotion", "edge_acknowledged": acknowledged(rules)},
    )
    assert approved.status_code == 302
    rules.refresh_from_db()
    assert rules.status == RecordStatus.APPROVED
