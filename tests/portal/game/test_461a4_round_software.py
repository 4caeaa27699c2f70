"""§ 461a.4, reading:software-approval: every round records the identity of the game
software it was played under, hashed as a later field (rounds recorded before keep their
hashes), shown on its record, in the API and in the rounds list's CSV; and no round is
played while the software running is not approved: 503, nothing written, no money moved."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from portal.core import append_only
from portal.core.errors import Unavailable
from portal.core.software import running_identity
from portal.game.chain import BET_FIELDS, HASHED_ROUND_FIELDS, SOFTWARE_FIELD, round_digest
from portal.game.models import Bet, GamingAccount, LedgerEntry, Round, Wallet
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from portal.software.selectors import not_approved_reason
from tests.portal.factories import approve_running_software, in_session, signed_in_api
from tests.portal.game.conftest import play_round as play
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

RED = [{"kind": "red", "stake": 200}]


def withdraw_every_approval() -> None:
    SoftwareApproval.objects.update(status=SoftwareApprovalStatus.WITHDRAWN)


def money(player):
    """The player's balance, rounds played, and the rounds and ledger entries stored."""
    balance = GamingAccount.objects.get(player=player).balance
    played = Wallet.objects.get(player=player).rounds_played
    return balance, played, Round.objects.count(), LedgerEntry.objects.count()


def _fields_and_bets(round_obj):
    fields = {name: getattr(round_obj, name) for name in HASHED_ROUND_FIELDS}
    bets = [
        {name: getattr(bet, name) for name in BET_FIELDS}
        for bet in Bet.objects.filter(round=round_obj).order_by("position")
    ]
    return fields, bets


@pytest.mark.clause("461a.4", kind="proves")
@pytest.mark.clause("reading:software-approval", kind="proves")
def test_461a4_a_round_records_the_software_identity_and_hashes_it_as_a_later_field(
    funded_player, live_offering
):
    played = play(funded_player, live_offering, "software-0001").round
    stored = Round.objects.get(pk=played.pk)

    assert stored.software_identity == running_identity().digest
    fields, bets = _fields_and_bets(stored)
    assert round_digest(fields, bets) == stored.hash
    # A round recorded before the identity was kept hashes without it, as it did then.
    assert round_digest(fields | {SOFTWARE_FIELD: ""}, bets) != stored.hash
    without = {name: value for name, value in fields.items() if name != SOFTWARE_FIELD}
    assert round_digest(fields | {SOFTWARE_FIELD: ""}, bets) == round_digest(without, bets)
    call_command("verify_round_chain")

    append_only.drop_all(connection)
    try:  # the identity blanked, or named another software, breaks the chain
        Round.objects.filter(pk=played.pk).update(software_identity="0" * 64)
    finally:
        append_only.install_all(connection)
    with pytest.raises(CommandError, match=f"round {played.pk}: .*altered"):
        call_command("verify_round_chain")


@pytest.mark.clause("461a.4", kind="related")
def test_461a4_the_record_the_api_and_the_list_show_the_software(
    login, funded_player, live_offering, auditor
):
    played = play(funded_player, live_offering, "software-0002").round
    older = play(funded_player, live_offering, "software-0003").round
    append_only.drop_all(connection)
    try:  # as a round recorded before the identity was kept
        Round.objects.filter(pk=older.pk).update(software_identity="")
    finally:
        append_only.install_all(connection)
    identity = running_identity()

    staff = login(auditor)
    page = text(staff.get(f"/play/rounds/{played.pk}/"))
    assert (
        f'<dt>Game software</dt><dd><span title="{identity.digest}">{identity.short}</span>'
    ) in page
    assert "<dt>Game software</dt><dd>not recorded (an older round)</dd>" in text(
        staff.get(f"/play/rounds/{older.pk}/")
    )
    api = signed_in_api(funded_player)
    assert api.get(f"/api/rounds/{played.pk}/").json()["software_identity"] == identity.digest
    assert api.get(f"/api/rounds/{older.pk}/").json()["software_identity"] is None

    export = staff.get("/play/rounds/?sort=round&export=csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(export.streaming_content).decode())))
    by_id = {int(row["Round ID"]): row for row in rows}
    column = "Software identity"
    assert (by_id[played.pk][column], by_id[older.pk][column]) == (identity.digest, "")


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_no_round_is_played_on_software_not_approved(funded_player, live_offering):
    before = money(funded_player)
    withdraw_every_approval()

    with pytest.raises(Unavailable) as refused:
        play(funded_player, live_offering, "software-refused", RED)

    assert refused.value.http_status == 503
    assert refused.value.message == not_approved_reason()
    assert "§ 461a.4" in refused.value.message and running_identity().short in refused.value.message
    assert money(funded_player) == before

    approve_running_software(funded_player)  # the Board's approval recorded again
    played = play(funded_player, live_offering, "software-refused", RED)
    assert not played.replayed and played.round.sequence == 1


def test_461a4_a_retry_of_a_round_already_played_is_answered_with_it(funded_player, live_offering):
    """A retry offers nothing new: it is answered with its round, approved or not since."""
    session = in_session(funded_player)
    first = play(funded_player, live_offering, "software-retry", RED, session=session)
    withdraw_every_approval()

    again = play(funded_player, live_offering, "software-retry", RED, session=session)

    assert again.replayed and again.round.pk == first.round.pk
    with pytest.raises(Unavailable):
        play(funded_player, live_offering, "software-new-key", RED, session=session)


@pytest.mark.clause("461a.4", kind="cites-in-message")
def test_461a4_the_api_answers_503_with_the_reason_and_moves_no_money(funded_player, live_offering):
    api = signed_in_api(funded_player)
    before = money(funded_player)
    withdraw_every_approval()

    response = api.post(
        "/api/rounds/",
        {"offering": live_offering.pk, "wagers": RED, "idempotency_key": "software-api-1"},
        format="json",
    )

    assert response.status_code == 503
    assert response.json()["detail"] == not_approved_reason()
    assert money(funded_player) == before
