"""Chapter 617a, Roulette, the frame of § 617b.8(a): what of it carries over to a table whose
outcome an RNG draws (the register says what does not, and why). § 617a.5, the spin, is
proved with "no more bets" (``test_617b8_d_e_no_more_bets``); § 617a.6 is applied with voids.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine

from jinzi import RegulationError
from portal.compliance.models import AvailabilityCause, AvailabilityChange
from portal.compliance.services.availability import availability_sweep
from portal.compliance.services.paytables import paytable_approve, paytable_submit
from portal.core.errors import Conflict, ValidationFailed
from portal.core.padates import day_starts
from portal.game.models import GamingAccount, Round
from portal.game.play.services import round_play
from tests.portal.factories import (
    MINIMUM_ODDS,
    STANDARD_ORDER,
    acknowledged,
    approved_layout,
    approved_paytable,
    approved_rules,
    in_session,
    make_offering,
    make_paytable,
    offering_in_force,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 30, 17, 0, tzinfo=datetime.UTC)  # noon EST


def _play(player, offering, wagers, outcome, key="chapter-617a-0001"):
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=key,
        rng=FixedBits(outcome),
    )


def _table(manager, officer, holder, *, layout=None, paytable=None):
    layout = layout or approved_layout(manager, officer, holder)
    paytable = paytable or approved_paytable(manager, officer, holder)
    rules = approved_rules(manager, officer, holder, paytable, layout)
    return make_offering(manager, holder, rules, layout, paytable)


@pytest.fixture(autouse=True)
def in_force():
    with time_machine.travel(NOW, tick=False):
        yield


def test_617a1_a_round_is_drawn_and_settled_on_its_tables_approved_wheel(
    manager_a, officer, holder_a, player
):
    # The approved layout's wheel puts black after 0: 1, in the first place, is black.
    layout = approved_layout(manager_a, officer, holder_a, first_colour="black")
    offering = _table(manager_a, officer, holder_a, layout=layout)
    wallet_top_up(player=player, amount=100_000, holder=holder_a)

    played = _play(
        player,
        offering,
        [{"kind": "red", "stake": 1_000}, {"kind": "black", "stake": 1_000}],
        outcome=1,
    ).round

    assert (played.layout_id, played.layout_version) == (layout.pk, layout.version)
    assert (played.wheel_order, played.first_colour) == (STANDARD_ORDER, "black")
    returned = dict(played.bets.values_list("spot", "returned"))
    assert returned == {"red": 0, "black": 2_000}  # settled on that wheel, not the default


def test_617a2_a_table_takes_bets_only_once_the_check_finds_everything_in_date_and_logs_it(
    manager_a, officer, holder_a, player
):
    opens = datetime.date(2026, 12, 1)  # its approvals take effect tomorrow
    offering = offering_in_force(
        manager_a, officer, holder_a, effective=opens, expiry=datetime.date(2027, 12, 1)
    )
    wallet_top_up(player=player, amount=100_000, holder=holder_a)
    red = [{"kind": "red", "stake": 1_000}]

    with pytest.raises(Conflict, match="this table is closed: .*takes effect on 2026-12-01"):
        _play(player, offering, red, outcome=1, key="before-it-opens")
    assert not Round.objects.exists()
    assert not AvailabilityChange.objects.filter(offering=offering, opened=True).exists()

    with time_machine.travel(day_starts(opens) + datetime.timedelta(minutes=5), tick=False):
        assert availability_sweep() == 1  # the midnight job logs the opening ...
        opened = AvailabilityChange.objects.get(offering=offering, opened=True)
        assert (opened.at, opened.cause) == (
            day_starts(opens),
            AvailabilityCause.APPROVAL_TOOK_EFFECT,
        )
        played = _play(player, offering, red, outcome=1, key="once-it-opens").round  # ... bets
    assert played.outcome == 1


def test_617a3_a_wager_off_the_layouts_spots_or_the_tables_chip_unit_is_refused(
    live_offering, funded_player
):
    for wagers in (
        [{"kind": "corner", "numbers": [1, 2, 3, 4], "stake": 1_000}],  # not a 2×2 block
        [{"kind": "straight", "numbers": [13], "stake": 1_000}],  # no 13 on the layout
        [{"kind": "red", "stake": 250}],  # the table's chip unit is 100
    ):
        with pytest.raises(ValidationFailed):
            _play(funded_player, live_offering, wagers, outcome=1)

    assert not Round.objects.exists()
    assert GamingAccount.objects.get(player=funded_player).balance == 100_000


def test_617a4_a_win_is_paid_at_the_odds_its_tables_paytable_posts(
    manager_a, officer, holder_a, player
):
    generous = paytable_submit(
        actor=manager_a,
        paytable=make_paytable(manager_a, holder_a, {**MINIMUM_ODDS, "straight": "45/4"}, "Promo"),
    )
    # At 2 cents, the smallest stake of all, 45/4 rounds up to no edge: approved knowingly;
    # at this table's chip unit of 100 cents it pays exactly and keeps the house an edge.
    generous = paytable_approve(
        actor=officer,
        paytable=generous,
        override_reason="No edge only below a 1 dollar chip",
        edge_acknowledged=acknowledged(generous),
    )
    offering = _table(manager_a, officer, holder_a, paytable=generous)
    wallet_top_up(player=player, amount=100_000, holder=holder_a)

    played = _play(
        player, offering, [{"kind": "straight", "numbers": [5], "stake": 1_000}], outcome=5
    ).round

    # The table's 45 to 4 (11¼ to 1), not Roulette's 35 to 1 nor (f)'s 11 to 1.
    assert played.total_returned == 1_000 * 49 // 4 == 12_250
    assert played.paytable_odds["straight"] == "45/4"


def test_617a4_no_paytable_posts_odds_below_the_floor_of_617b8_f(manager_a, holder_a):
    with pytest.raises((ValidationFailed, RegulationError), match=r"§ 617b\.8\(f\)"):
        make_paytable(manager_a, holder_a, {**MINIMUM_ODDS, "straight": 10}, "Stingy")
