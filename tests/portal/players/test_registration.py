"""Registration (§ 812a.2): what it records, what it refuses on which field, the sealed
player file, and verification by someone else (§ 812a.2(c))."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection

from portal.access.roles import Role, forget
from portal.audit.models import AuditEvent
from portal.core.errors import NotFound, NotPermitted, ValidationFailed
from portal.game.models import GamingAccount, Wallet
from portal.players import messages as msg
from portal.players import sealing
from portal.players.models import PlayerFile, VerificationMethod
from portal.players.services.registration import player_register
from portal.players.services.verification import identity_read, identity_verify
from tests.portal.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

TODAY = datetime.datetime(2026, 12, 4, 17, 0, tzinfo=datetime.UTC)  # noon in Pennsylvania


def details(holder, **overrides) -> dict:
    values = {
        "username": "mary",
        "password": PASSWORD,
        "email": "mary@example.com",
        "holder_id": holder.pk,
        "given_names": "Mary Ann",
        "surname": "O'Brien",
        "date_of_birth": "1990-04-21",
        "address": "12 Pine Street, Pittsburgh, PA 15222",
        "telephone": "412 555 0199",
        "ssn_last4": "",
    }
    values.update(overrides)
    return values


def refused_on(field: str, holder, **overrides) -> str:
    users = get_user_model().objects.count()
    with pytest.raises(ValidationFailed) as refused:
        player_register(**details(holder, **overrides))
    assert get_user_model().objects.count() == users  # nothing stored
    assert not PlayerFile.objects.exists()
    assert field in refused.value.field_errors, refused.value.field_errors
    return refused.value.field_errors[field][0]


def test_812a2_b_registration_records_the_identity_sealed_and_opens_the_account(holder_a):
    player_file = player_register(**details(holder_a, ssn_last4="1234"))
    player = player_file.player
    assert player.email == "mary@example.com"
    assert player.groups.filter(name=Role.PLAYER.value).exists()
    assert GamingAccount.objects.filter(player=player, holder=holder_a).exists()
    identity = sealing.unseal(player_file.sealed)
    assert identity["surname"] == "O'Brien"
    assert identity["date_of_birth"] == "1990-04-21"
    assert identity["ssn_last4"] == "1234"
    assert player_file.verified_at is None
    assert Wallet.objects.get(player=player).identity_verified_at is None


def test_812a2_d_the_database_holds_none_of_the_identity_in_clear(holder_a):
    player_file = player_register(**details(holder_a, ssn_last4="4321"))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {PlayerFile._meta.db_table}")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    for value in ("O'Brien", "Mary Ann", "1990-04-21", "Pine Street", "412 555", "4321"):
        assert value not in stored
    assert player_file.sealed in stored


def test_812a2_d_the_trail_says_which_details_were_given_never_their_values(holder_a):
    player_file = player_register(**details(holder_a, ssn_last4="4321"))
    event = AuditEvent.objects.get(action="player.register", object_id=str(player_file.player_id))
    assert "ssn_last4" in event.after["fields_given"]
    text = str(event.before) + str(event.after)
    for value in ("O'Brien", "Mary", "1990", "Pine", "4321", "412"):
        assert value not in text


def test_812a2_d_a_file_sealed_under_an_older_key_opens_and_is_resealed_under_the_newest(
    holder_a, settings
):
    player_file = player_register(**details(holder_a))
    older = settings.PLAYER_FILE_KEYS[0]
    settings.PLAYER_FILE_KEYS = ["cm90YXRlZC1rZXktZm9yLXRoZS1wbGF5ZXItZmlsZSE=", older]
    resealed = sealing.reseal(player_file.sealed)
    assert sealing.unseal(resealed)["surname"] == "O'Brien"
    settings.PLAYER_FILE_KEYS = settings.PLAYER_FILE_KEYS[:1]  # the old key dropped
    assert sealing.unseal(resealed)["surname"] == "O'Brien"


@time_machine.travel(TODAY, tick=False)
@pytest.mark.clause("reading:minimum-age", kind="proves")
def test_812a2_a_person_under_21_by_pennsylvania_date_is_refused(holder_a):
    # 21 tomorrow (Pennsylvania date): refused today.
    message = refused_on("date_of_birth", holder_a, date_of_birth="2005-12-05")
    assert message == msg.UNDER_21.format(birthday="05 December 2026")
    player_register(**details(holder_a, date_of_birth="2005-12-04"))  # 21 today


@time_machine.travel(datetime.datetime(2026, 12, 5, 3, 0, tzinfo=datetime.UTC), tick=False)
@pytest.mark.clause("reading:minimum-age", kind="proves")
def test_812a2_the_age_counts_the_pennsylvania_date_not_the_utc_one(holder_a):
    # 03:00 UTC on 5 December is still 4 December in Pennsylvania.
    refused_on("date_of_birth", holder_a, date_of_birth="2005-12-05")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("date_of_birth", "2999-01-01", msg.BORN_IN_FUTURE),
        ("date_of_birth", "1990-02-30", msg.BORN_NEEDED),
        ("date_of_birth", "", msg.BORN_NEEDED),
        ("surname", "  ", msg.NAME_NEEDED.format(what="surname", limit=100)),
        ("given_names", "x" * 101, msg.NAME_NEEDED.format(what="given names", limit=100)),
        ("address", "", msg.ADDRESS_NEEDED.format(limit=300)),
        ("telephone", "call me", msg.TELEPHONE_NEEDED),
        ("email", "not-an-email", msg.EMAIL_NEEDED),
    ],
)
def test_812a2_b_a_wrong_detail_is_refused_on_its_field_and_nothing_is_stored(
    holder_a, field, value, message
):
    assert refused_on(field, holder_a, **{field: value}) == message


@pytest.mark.parametrize("digits", ["123", "12345", "12a4", "１２３４"])
def test_812a2_b_3_ssn_digits_when_given_are_exactly_four_digits(holder_a, digits):
    assert refused_on("ssn_last4", holder_a, ssn_last4=digits) == msg.SSN_FOUR_DIGITS


def test_812a2_b_3_the_ssn_digits_may_be_left_out(holder_a):
    player_file = player_register(**details(holder_a, ssn_last4=""))
    assert sealing.unseal(player_file.sealed)["ssn_last4"] == ""


def test_812a2_an_email_already_registered_is_refused(holder_a):
    player_register(**details(holder_a))
    message = refused_on_second("email", holder_a, username="mary2", email="MARY@example.com")
    assert message == msg.EMAIL_TAKEN


def test_812a2_the_same_name_and_date_of_birth_cannot_register_twice(holder_a):
    player_register(**details(holder_a))
    # The same person however the name is spaced, cased or punctuated.
    message = refused_on_second(
        "surname",
        holder_a,
        username="mary2",
        email="other@example.com",
        given_names="MARY  ANN",
        surname="O Brien",
    )
    assert message == msg.ALREADY_REGISTERED


def refused_on_second(field, holder, **overrides) -> str:
    files = PlayerFile.objects.count()
    with pytest.raises(ValidationFailed) as refused:
        player_register(**details(holder, **overrides))
    assert PlayerFile.objects.count() == files
    return refused.value.field_errors[field][0]


def test_812a4_registration_names_a_holder_that_exists(holder_a):
    assert refused_on("holder", holder_a, holder_id=999_999) == msg.HOLDER_NEEDED


def test_815a8_the_refusal_of_a_listed_person_says_nothing_of_the_list():
    assert "list" not in msg.CANNOT_REGISTER.lower()
    assert "exclu" not in msg.CANNOT_REGISTER.lower()


# --- verification (§ 812a.2(c)) ---------------------------------------------------------


@pytest.fixture
def registered(holder_a):
    return player_register(**details(holder_a)).player


def test_812a2_c_payments_staff_verify_recording_how_what_who_and_when(registered, payments_a):
    player_file = identity_verify(
        actor=payments_a,
        player_id=registered.pk,
        method=VerificationMethod.IN_PERSON,
        document_reference="PA-DL 12345678",
    )
    assert player_file.verified_by == payments_a
    assert player_file.verification_method == VerificationMethod.IN_PERSON
    assert sealing.unseal(player_file.sealed)["document_reference"] == "PA-DL 12345678"
    assert Wallet.objects.get(player=registered).identity_verified_at == player_file.verified_at
    event = AuditEvent.objects.get(action="player.identity_verify")
    assert event.actor_id == payments_a.pk
    assert "12345678" not in str(event.after)


def test_812a2_c_nobody_verifies_their_own_identity(registered):
    registered.groups.add(Group.objects.get(name=Role.COMPLIANCE.value))
    forget(registered)
    with pytest.raises(NotPermitted) as refused:
        identity_verify(
            actor=registered,
            player_id=registered.pk,
            method=VerificationMethod.IN_PERSON,
            document_reference="PA-DL 1",
        )
    assert str(refused.value) == msg.OWN_IDENTITY
    assert PlayerFile.objects.get(player=registered).verified_at is None


def test_812a2_c_another_holders_payments_staff_find_no_such_player(registered, payments_b):
    with pytest.raises(NotFound):
        identity_verify(
            actor=payments_b,
            player_id=registered.pk,
            method=VerificationMethod.IN_PERSON,
            document_reference="PA-DL 1",
        )


def test_812a2_c_a_verification_needs_a_method_and_a_reference(registered, officer):
    with pytest.raises(ValidationFailed) as refused:
        identity_verify(
            actor=officer, player_id=registered.pk, method="guess", document_reference="x"
        )
    assert "method" in refused.value.field_errors
    with pytest.raises(ValidationFailed) as refused:
        identity_verify(
            actor=officer,
            player_id=registered.pk,
            method=VerificationMethod.SETUP,
            document_reference="x",
        )
    assert "method" in refused.value.field_errors
    with pytest.raises(ValidationFailed) as refused:
        identity_verify(
            actor=officer,
            player_id=registered.pk,
            method=VerificationMethod.ELECTRONIC,
            document_reference=" ",
        )
    assert "document_reference" in refused.value.field_errors
    assert PlayerFile.objects.get(player=registered).verified_at is None


def test_812a2_d_each_reading_of_the_identity_is_audited_and_others_find_nothing(
    registered, auditor, other_player, manager_a
):
    _file, identity = identity_read(actor=auditor, player_id=registered.pk)
    assert identity["given_names"] == "Mary Ann"
    assert AuditEvent.objects.filter(
        action="player.identity_view", actor_id=auditor.pk, object_id=str(registered.pk)
    ).exists()
    for stranger in (other_player, manager_a):
        with pytest.raises(NotFound):
            identity_read(actor=stranger, player_id=registered.pk)


def test_812a2_the_player_made_by_the_tests_is_verified_as_the_demos_are(db):
    player = make_user("verified_one", Role.PLAYER)
    assert Wallet.objects.get(player=player).identity_verified_at is not None
