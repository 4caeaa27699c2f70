"""§ 810a.11's game record: when betting closed, the round's status and both software
versions are kept, shown and hashed; rounds recorded before them still verify."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

import jinzi
import portal
from portal.core import append_only
from portal.core.hashing import canonical_digest, hashed_instant_text
from portal.game import rounds
from portal.game.chain import (
    BET_FIELDS,
    HASHED_ROUND_FIELDS,
    LATER_ROUND_FIELDS,
    ROUND_FIELDS,
    SESSION_FIELD,
    digest_of,
    round_digest,
)
from portal.game.models import Bet, PlaySession, Round, RoundStatus
from tests.portal.factories import approved_layout, approved_paytable, approved_rules, make_offering
from tests.portal.game.conftest import play_round as play

pytestmark = pytest.mark.django_db


def test_810a11_round_records_no_more_bets_status_and_both_versions(funded_player, live_offering):
    played = play(funded_player, live_offering, "record-0001").round

    stored = Round.objects.get(pk=played.pk)
    assert stored.started_at <= stored.bets_closed_at <= stored.ended_at
    assert stored.status == RoundStatus.COMPLETE
    assert (stored.software_version, stored.portal_version) == (jinzi.__version__, "0.1.0")
    assert portal.__version__ == "0.1.0"


def test_810a11_the_api_and_the_page_show_them(client, funded_player, live_offering):
    played = play(funded_player, live_offering, "record-0002").round
    client.force_login(funded_player)

    data = client.get(f"/api/rounds/{played.pk}/").json()
    page = client.get(f"/play/rounds/{played.pk}/").content.decode()

    assert data["status"] == "complete"
    assert data["portal_version"] == "0.1.0" and data["software_version"] == "1.0.0"
    assert data["bets_closed_at"] == played.bets_closed_at.isoformat()
    assert "No more bets" in page and "portal 0.1.0" in page
    assert data["wheel"] == {"order": played.wheel_order, "first_colour": "red"}
    assert "red after 0" in page


def _legacy_digest(round_obj, bets) -> str:
    """How a round was hashed before the later fields existed."""
    payload = {name: getattr(round_obj, name) for name in ROUND_FIELDS}
    payload["started_at"] = hashed_instant_text(payload["started_at"])
    payload["ended_at"] = hashed_instant_text(payload["ended_at"])
    payload["bets"] = [
        {
            name: getattr(bet, name)
            for name in ("position", "kind", "numbers", "spot", "stake", "returned")
        }
        for bet in bets
    ]
    return canonical_digest(payload)


def test_810a11_round_recorded_before_the_later_fields_hashes_as_it_did(
    funded_player, live_offering
):
    played = play(funded_player, live_offering, "record-0003")
    old = Round(**{f.attname: getattr(played.round, f.attname) for f in Round._meta.fields})
    old.bets_closed_at, old.portal_version, old.session_id = None, "", ""
    old.software_identity = ""

    assert digest_of(old, played.bets) == _legacy_digest(old, played.bets)
    assert digest_of(played.round, played.bets) != _legacy_digest(played.round, played.bets)


def test_812a9_a_5_a_round_records_its_session_and_hashes_it_as_a_later_field(
    funded_player, live_offering
):
    played = play(funded_player, live_offering, "record-0005").round
    session = PlaySession.objects.get(public_id=played.session_id)
    assert session.user_id == funded_player.pk
    assert session.last_activity_at == played.ended_at  # the round moved it, in its write
    assert rounds.round_data(played)["session"] == played.session_id
    # A round recorded before sessions had ids hashes without one, as it did then.
    before = Round(**{f.attname: getattr(played, f.attname) for f in Round._meta.fields})
    before.session_id = ""
    fields = {name: getattr(before, name) for name in HASHED_ROUND_FIELDS}
    bets = [
        {name: getattr(bet, name) for name in BET_FIELDS}
        for bet in Bet.objects.filter(round=played).order_by("position")
    ]
    assert digest_of(played, played.bets.order_by("position")) == played.hash
    assert round_digest(fields, bets) != played.hash
    assert round_digest(fields | {SESSION_FIELD: played.session_id}, bets) == played.hash

    append_only.drop_all(connection)
    try:  # a session id blanked, or moved to another session, breaks the chain
        Round.objects.filter(pk=played.pk).update(session_id="")
    finally:
        append_only.install_all(connection)
    with pytest.raises(CommandError, match=f"round {played.pk}: .*altered"):
        call_command("verify_round_chain")


@pytest.mark.parametrize(
    ("column", "value"),
    [("portal_version", "9.9.9"), ("bets_closed_at", None), ("status", "void")],
)
def test_810a11_changing_a_later_field_breaks_the_chain(
    funded_player, live_offering, column, value
):
    played = play(funded_player, live_offering, "record-0004").round
    call_command("verify_round_chain")
    assert set(LATER_ROUND_FIELDS) >= {column}

    append_only.drop_all(connection)
    try:
        Round.objects.filter(pk=played.pk).update(**{column: value})
    finally:
        append_only.install_all(connection)

    with pytest.raises(CommandError, match=f"round {played.pk}: .*altered"):
        call_command("verify_round_chain")
    assert Bet.objects.filter(round_id=played.pk).count() == 10


def test_617b8_c_a_round_on_a_black_first_wheel_records_and_pays_its_colours(
    funded_player, manager_a, officer, holder_a
):
    layout = approved_layout(manager_a, officer, holder_a, first_colour="black")
    paytable = approved_paytable(manager_a, officer, holder_a)
    rules = approved_rules(manager_a, officer, holder_a, paytable, layout)
    offering = make_offering(manager_a, holder_a, rules, layout, paytable)

    # 1 follows 0 on the standard order: black on this wheel, so black wins on 1.
    played = play(funded_player, offering, "record-black", [{"kind": "black", "stake": 200}], 1)

    assert played.round.first_colour == "black"
    assert played.round.total_returned == 400
    assert rounds.round_data(played.round, played.bets)["outcome_colour"] == "black"
    call_command("verify_round_chain")
