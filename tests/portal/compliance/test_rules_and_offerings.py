import datetime

import pytest

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.models import ListedGame, Offering, RecordStatus, RulesSubmission
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.compliance.services.expiry import records_expire_due
from portal.compliance.services.offerings import offering_retire, offering_update
from portal.compliance.services.paytables import paytable_withdraw
from portal.compliance.services.rules import (
    rules_submission_amend,
    rules_submission_approve,
    rules_submission_submit,
    rules_submission_update,
)
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from tests.portal.factories import (
    approved_layout,
    approved_paytable,
    listing,
    make_layout,
    make_offering,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db
NOW = datetime.datetime(2026, 11, 29, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def parts(manager_a, officer, holder_a):
    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )


def _refused_listing(manager, holder, parts, **overrides) -> dict:
    paytable, layout = parts
    with pytest.raises(ValidationFailed) as caught:
        make_rules(
            manager, holder, paytable, layout, games=[listing(paytable, layout, **overrides)]
        )
    assert RulesSubmission.objects.count() == 0
    return caught.value.field_errors


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
@pytest.mark.clause("reading:even-stakes", kind="proves")
def test_617b8_g_rules_refuse_an_odd_chip_unit(manager_a, holder_a, parts):
    errors = _refused_listing(manager_a, holder_a, parts, chip_unit=25, min_wager=25)

    assert "617b.8(g)" in errors["games.0.chip_unit"][0]


def test_rules_refuse_limits_that_are_not_multiples_of_the_chip(manager_a, holder_a, parts):
    errors = _refused_listing(manager_a, holder_a, parts, max_wager=50_050)

    assert errors["games.0.max_wager"][0] == msg.LIMIT_NOT_MULTIPLE.format(
        field="max_wager", chip=100, value=50_050
    )


@pytest.mark.parametrize("bad", [0, -100, 10**12, 100.0, "100", True])
def test_rules_refuse_amounts_that_are_not_sane_whole_minor_units(manager_a, holder_a, parts, bad):
    errors = _refused_listing(manager_a, holder_a, parts, min_wager=bad)

    assert "games.0.min_wager" in errors


def test_601a2_rules_must_list_a_game(manager_a, holder_a, parts):
    paytable, layout = parts
    with pytest.raises(ValidationFailed, match="601a.2"):
        make_rules(manager_a, holder_a, paytable, layout, games=[])


def test_rules_cannot_list_another_holders_paytable(manager_a, manager_b, holder_a, holder_b):
    foreign = make_paytable(manager_b, holder_b)
    layout = make_layout(manager_a, holder_a)

    with pytest.raises(ValidationFailed) as caught:
        make_rules(manager_a, holder_a, foreign, layout)

    assert "another certificate holder" in caught.value.field_errors["games.0.paytable"][0]


def test_617b8_sunset_rules_expiring_after_2028_06_14_are_refused(manager_a, holder_a, parts):
    paytable, layout = parts
    with pytest.raises(ValidationFailed, match="2028-06-14"):
        make_rules(manager_a, holder_a, paytable, layout, expiry_date=datetime.date(2028, 7, 1))


def test_601a2_rules_cannot_be_approved_while_a_listed_paytable_is_unapproved(
    manager_a, officer, holder_a
):
    layout = approved_layout(manager_a, officer, holder_a)
    draft_paytable = make_paytable(manager_a, holder_a)
    rules = make_rules(manager_a, holder_a, draft_paytable, layout)
    rules = rules_submission_submit(actor=manager_a, submission=rules)

    with pytest.raises(ValidationFailed, match="601a.2.*paytable.*draft"):
        rules_submission_approve(actor=officer, submission=rules)


def test_601a2_an_approved_amendment_supersedes_and_keeps_the_old_version_readable(
    live_offering, manager_a, officer
):
    first = live_offering.rules_submission
    amendment = rules_submission_amend(actor=manager_a, submission=first)
    assert list(amendment.games.values_list("chip_unit", flat=True)) == [100]
    amendment = rules_submission_update(
        actor=manager_a, submission=amendment, title="Jinzi Roulette rules, 2nd edition"
    )
    amendment = rules_submission_submit(actor=manager_a, submission=amendment)
    rules_submission_approve(actor=officer, submission=amendment)

    first.refresh_from_db()
    assert first.status == RecordStatus.SUPERSEDED
    assert first.title == "Jinzi Roulette rules"
    assert ListedGame.objects.filter(submission=first).count() == 1
    event = AuditEvent.objects.get(action="rules_submission.amend", object_id=str(amendment.pk))
    assert event.after["games"][0]["chip_unit"] == 100

    # The table moved onto v2 in the same step and plays on (reading:supersede).
    table = Offering.objects.get(pk=live_offering.pk)
    assert table.rules_submission_id == amendment.pk
    assert offering_is_live(table, at=NOW).live


@pytest.mark.clause("reading:live-offering", kind="proves")
def test_offering_is_live_when_everything_is_approved(live_offering):
    liveness = offering_is_live(live_offering, at=NOW)

    assert (liveness.live, liveness.reasons) == (True, ())


@pytest.mark.clause("reading:live-offering", kind="proves")
def test_offering_is_not_live_before_effective_after_expiry_or_past_sunset(live_offering):
    before = offering_is_live(live_offering, at=datetime.datetime(2025, 12, 1, tzinfo=datetime.UTC))
    after = offering_is_live(live_offering, at=datetime.datetime(2028, 2, 1, tzinfo=datetime.UTC))
    sunset = offering_is_live(
        live_offering, at=datetime.datetime(2028, 6, 14, 4, tzinfo=datetime.UTC)
    )

    assert "the layout v1 takes effect on 2026-01-01" in before.reasons
    assert "the layout v1 expired on 2028-01-01" in after.reasons
    assert "§ 617b.8 expired on 2028-06-14 (sunset)" in sunset.reasons
    assert not (before.live or after.live or sunset.live)


def test_offering_is_not_live_once_its_paytable_is_withdrawn_or_it_is_retired(
    live_offering, manager_a, officer
):
    paytable_withdraw(actor=officer, paytable=live_offering.paytable, reason="Recall")
    offering_retire(actor=manager_a, offering=live_offering, reason="Closed")

    liveness = offering_is_live(Offering.objects.get(pk=live_offering.pk), at=NOW)

    assert "the paytable v1 is not approved (it is withdrawn)" in liveness.reasons
    assert "the offering is retired" in liveness.reasons


def test_617b8_a_offering_must_use_the_layout_and_paytable_its_rules_list(
    live_offering, manager_a, officer, holder_a
):
    other_paytable = approved_paytable(manager_a, officer, holder_a)

    with pytest.raises(ValidationFailed, match="617b.8"):
        offering_update(actor=manager_a, offering=live_offering, paytable=other_paytable)


def _same_table(offering, manager, name):
    """Another offering of ``offering``'s holder on the same records."""
    return make_offering(
        manager,
        offering.holder,
        offering.rules_submission,
        offering.layout,
        offering.paytable,
        name=name,
    )


def test_offering_names_are_unique_per_holder(live_offering, manager_a, holder_a):
    with pytest.raises(ValidationFailed, match="already has an offering"):
        _same_table(live_offering, manager_a, "Table 1")


def test_offering_of_another_holder_cannot_be_changed(live_offering, manager_b):
    with pytest.raises(NotPermitted):
        offering_retire(actor=manager_b, offering=live_offering, reason="x")


def test_a_retired_offering_cannot_be_retired_again(live_offering, manager_a):
    offering_retire(actor=manager_a, offering=live_offering, reason="Closed")

    with pytest.raises(Conflict, match="retired"):
        offering_retire(actor=manager_a, offering=live_offering, reason="Again")


def test_liveness_of_many_offerings_takes_a_constant_number_of_queries(
    live_offering, manager_a, django_assert_num_queries
):
    for number in range(2, 6):
        _same_table(live_offering, manager_a, f"Table {number}")

    with django_assert_num_queries(2):
        results = [offering_is_live(o, at=NOW).live for o in offerings_with_parts()]

    assert results == [True] * 5


def test_expiry_job_marks_due_approvals_expired_and_audits_it(live_offering):
    expired = records_expire_due(today=datetime.date(2028, 1, 1))

    assert expired == 2  # the layout and the rules submission; the paytable has no expiry
    layout = live_offering.layout
    layout.refresh_from_db()
    assert layout.status == RecordStatus.EXPIRED
    event = AuditEvent.objects.get(action="layout.expire")
    assert (event.actor, event.actor_username) == (None, "system")
    assert records_expire_due(today=datetime.date(2028, 1, 1)) == 0
