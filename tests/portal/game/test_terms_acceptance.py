"""A holder's terms and conditions, accepted by the player before their first deposit or
round with that holder, dated and timed; a new version asks again (§ 812a.5)."""

from __future__ import annotations

import pytest

from portal.audit.models import AuditEvent
from portal.compliance.services.terms import terms_amend, terms_approve, terms_submit, terms_update
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import DepositMethod, TermsAcknowledgement
from portal.game.money import terms
from portal.game.money.services.deposits import deposit_make
from tests.portal.factories import approved_terms
from tests.portal.game.account_helpers import nothing_moved
from tests.portal.game.conftest import TEN_STRAIGHTS, play_round

pytestmark = pytest.mark.django_db


def _deposit(player, holder):
    return deposit_make(player=player, holder_id=holder.pk, amount=500, method=DepositMethod.DEMO)


@pytest.fixture
def in_force(manager_a, officer, holder_a):
    return approved_terms(manager_a, officer, holder_a)


@pytest.mark.clause("reading:minimum-age", kind="proves")
def test_812a5_no_deposit_or_round_before_the_terms_in_force_are_accepted(
    funded_player, live_offering, holder_a, in_force
):
    expected = terms.TERMS_NEEDED.format(holder=holder_a.name, version=1)
    with nothing_moved(), pytest.raises(Conflict) as refused:
        _deposit(funded_player, holder_a)
    assert str(refused.value) == expected
    with nothing_moved(), pytest.raises(Conflict) as refused:
        play_round(funded_player, live_offering, "terms-first", wagers=TEN_STRAIGHTS[:1])
    assert str(refused.value) == expected

    accepted = terms.terms_accept(player=funded_player, holder_id=holder_a.pk, terms_id=in_force.pk)
    assert accepted.acknowledged_at is not None
    event = AuditEvent.objects.get(action=terms.ACKNOWLEDGE_ACTION)
    assert event.after["terms_version"] == 1
    _deposit(funded_player, holder_a)
    play_round(funded_player, live_offering, "terms-second", wagers=TEN_STRAIGHTS[:1])


@pytest.mark.clause("reading:minimum-age", kind="proves")
def test_812a5_a_new_version_asks_again(
    funded_player, live_offering, holder_a, in_force, manager_a, officer
):
    terms.terms_accept(player=funded_player, holder_id=holder_a.pk, terms_id=in_force.pk)
    draft = terms_amend(actor=manager_a, terms=in_force)
    draft = terms_update(actor=manager_a, terms=draft, body="New rules for bonuses.")
    second = terms_approve(actor=officer, terms=terms_submit(actor=manager_a, terms=draft))
    with pytest.raises(Conflict) as refused:
        _deposit(funded_player, holder_a)
    assert "(version 2)" in str(refused.value)
    terms.terms_accept(player=funded_player, holder_id=holder_a.pk, terms_id=second.pk)
    _deposit(funded_player, holder_a)


def test_812a5_only_the_version_in_force_can_be_accepted(
    funded_player, holder_a, holder_b, in_force
):
    for holder_id, terms_id in (
        (holder_a.pk, in_force.pk + 1000),
        (holder_b.pk, in_force.pk),  # holder B has none in force
        (holder_a.pk, "1"),
    ):
        with pytest.raises(ValidationFailed) as refused:
            terms.terms_accept(player=funded_player, holder_id=holder_id, terms_id=terms_id)
        assert "terms" in refused.value.field_errors
    assert not TermsAcknowledgement.objects.exists()


def test_812a5_accepting_twice_keeps_the_first_acceptance(funded_player, holder_a, in_force):
    first = terms.terms_accept(player=funded_player, holder_id=holder_a.pk, terms_id=in_force.pk)
    again = terms.terms_accept(player=funded_player, holder_id=holder_a.pk, terms_id=in_force.pk)
    assert again.pk == first.pk
    assert AuditEvent.objects.filter(action=terms.ACKNOWLEDGE_ACTION).count() == 1


def test_812a5_the_player_reads_and_accepts_the_terms_on_their_page(
    client, funded_player, holder_a, in_force
):
    client.force_login(funded_player)
    account = client.get("/play/account/").content.decode()
    assert f"/play/account/terms/{holder_a.pk}/" in account
    page = client.get(f"/play/account/terms/{holder_a.pk}/").content.decode()
    assert "Play responsibly" in page and "I have read and accept" in page
    refused = client.post(f"/play/account/terms/{holder_a.pk}/", {"terms": "999999"})
    assert refused.status_code == 400
    done = client.post(f"/play/account/terms/{holder_a.pk}/", {"terms": str(in_force.pk)})
    assert done.status_code == 302
    assert (
        "You accepted this version"
        in client.get(f"/play/account/terms/{holder_a.pk}/").content.decode()
    )
    assert (
        f"/play/account/terms/{holder_a.pk}/" not in client.get("/play/account/").content.decode()
    )


def test_812a5_staff_have_no_terms_page_to_accept(client, payments_a, holder_a, in_force):
    client.force_login(payments_a)
    assert client.get(f"/play/account/terms/{holder_a.pk}/").status_code == 403
    assert client.post(f"/play/account/terms/{holder_a.pk}/", {"terms": "1"}).status_code == 403
