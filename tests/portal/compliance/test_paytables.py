import pytest

from portal.audit.models import AuditEvent
from portal.compliance.models import Paytable, RecordStatus
from portal.compliance.presenters.edge import edge_report
from portal.compliance.services.paytables import paytable_approve, paytable_submit, paytable_update
from portal.compliance.zero_edges import ZeroEdgesChanged
from portal.core.errors import ValidationFailed
from tests.portal.factories import MINIMUM_ODDS, acknowledged, events_written, make_paytable

pytestmark = pytest.mark.django_db


def _odds(**changes):
    odds = dict(MINIMUM_ODDS)
    odds.update(changes)
    return odds


def _refused(manager, holder, odds) -> str:
    events = events_written()
    with pytest.raises(ValidationFailed) as caught:
        make_paytable(manager, holder, odds=odds)
    assert Paytable.objects.count() == 0
    assert events_written() == events
    return caught.value.field_errors["odds"][0]


def test_617b8_f_paytable_below_minimum_is_refused_naming_kind_given_and_minimum(
    manager_a, holder_a
):
    message = _refused(manager_a, holder_a, _odds(straight=10))

    assert message == "§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1"


def test_617b8_f_paytable_missing_a_kind_is_refused(manager_a, holder_a):
    odds = _odds()
    del odds["corner"]

    assert "617b.8(f)" in _refused(manager_a, holder_a, odds)
    assert "Corner" in _refused(manager_a, holder_a, odds)


@pytest.mark.parametrize(
    "bad", [11.0, "11.5", "eleven", -11, True, None, "1234567890", "11/0", [11]]
)
def test_617b8_f_paytable_odds_must_be_exact_whole_or_fractional_numbers(manager_a, holder_a, bad):
    _refused(manager_a, holder_a, _odds(straight=bad))


def test_617b8_f_paytable_with_an_unknown_kind_is_refused(manager_a, holder_a):
    assert "dozen" in _refused(manager_a, holder_a, _odds(dozen=2))


def test_617b8_f_paytable_stores_odds_in_exact_text_form(manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a, odds=_odds(split="11/2", straight=12))

    assert paytable.odds["split"] == "11/2"
    assert paytable.odds["straight"] == "12"


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_edge_report_shows_exact_edges_under_the_minimum_paytable(manager_a, holder_a):
    report = edge_report(make_paytable(manager_a, holder_a))
    by_kind = {row.kind: row for row in report.rows}

    assert by_kind["street"].edge == "1/26"
    assert by_kind["three_numbers"].edge == "1/13"
    assert by_kind["straight"].edge == "1/26 – 1/13"
    # The range of hold, not a mean over the 52 spots (reading:expected-win).
    bands = {band.key: band for band in report.hold_bands}
    assert list(bands) == ["not_covering_zero", "covering_zero"]
    assert (bands["not_covering_zero"].spots, bands["not_covering_zero"].edge) == (46, "1/26")
    assert bands["not_covering_zero"].edge_percent == "3.846 %"
    assert (bands["covering_zero"].spots, bands["covering_zero"].edge) == (6, "1/13")
    assert bands["covering_zero"].edge_percent == "7.692 %"
    assert not report.flagged


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_edge_report_gives_the_range_of_hold_of_a_generous_paytable(manager_a, holder_a):
    report = edge_report(make_paytable(manager_a, holder_a, odds=_odds(split="11/2")))
    bands = {band.key: band for band in report.hold_bands}

    # Splits at 11 to 2: edge −1/26 off 0 and 0 on it; the other spots keep 1/26 and 1/13.
    assert bands["not_covering_zero"].edge == "-1/26 – 1/26"
    assert bands["not_covering_zero"].edge_percent == "-3.846 % – 3.846 %"
    assert bands["covering_zero"].edge == "0 – 1/13"
    assert report.as_json()["hold_range"]["covering_zero"] == {
        "label": "Wagers covering 0",
        "spots": 6,
        "house_edge": "0 – 1/13",
        "house_edge_percent": "0.000 % – 7.692 %",
        "lowest": "0",
        "highest": "1/13",
    }
    assert "theoretical_hold" not in report.as_json()


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_paytable_with_edge_at_or_below_zero_needs_an_override_to_approve(
    manager_a, officer, holder_a
):
    generous = make_paytable(manager_a, holder_a, odds=_odds(straight=12))
    generous = paytable_submit(actor=manager_a, paytable=generous)
    assert edge_report(generous).flagged

    with pytest.raises(ValidationFailed) as caught:
        paytable_approve(actor=officer, paytable=generous, override_reason="A reason alone")
    assert "617b.8(f)" in caught.value.field_errors["edge_acknowledged"][0]
    with pytest.raises(ZeroEdgesChanged):  # another list than there is (409)
        paytable_approve(
            actor=officer, paytable=generous, override_reason="x", edge_acknowledged="0" * 64
        )
    with pytest.raises(ValidationFailed) as caught:
        paytable_approve(actor=officer, paytable=generous, edge_acknowledged=acknowledged(generous))
    assert "617b.8(f)" in caught.value.field_errors["override_reason"][0]
    generous.refresh_from_db()
    assert generous.status == RecordStatus.SUBMITTED

    approved = paytable_approve(
        actor=officer,
        paytable=generous,
        override_reason="Promotional table, board notified",
        edge_acknowledged=acknowledged(generous),
    )
    assert approved.status == RecordStatus.APPROVED
    assert approved.edge_override_reason == "Promotional table, board notified"
    event = AuditEvent.objects.get(action="paytable.approve")
    assert event.reason == "Promotional table, board notified"


def test_draft_paytable_can_be_edited_and_the_edit_is_audited(manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    paytable_update(actor=manager_a, paytable=paytable, odds=_odds(big=2))

    event = AuditEvent.objects.get(action="paytable.update")
    assert (event.before["odds"]["big"], event.after["odds"]["big"]) == ("1", "2")
