import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from portal.accounts.services import holder_create
from portal.audit.chain import digest_of, verify
from portal.audit.models import GENESIS_HASH, AuditEvent
from portal.audit.services import audit_record
from portal.audit.triggers import REFUSAL

pytestmark = pytest.mark.django_db


def _three_events():
    for number in range(3):
        holder_create(actor=None, name=f"Holder {number}", licence_number=f"L-{number}")
    return list(AuditEvent.objects.order_by("sequence"))


def test_811a7_events_form_a_hash_chain_from_genesis():
    first, second, third = _three_events()

    assert [e.sequence for e in (first, second, third)] == [1, 2, 3]
    assert first.prev_hash == GENESIS_HASH
    assert second.prev_hash == first.hash
    assert third.prev_hash == second.hash
    assert all(digest_of(e) == e.hash for e in (first, second, third))
    assert verify(AuditEvent.objects.order_by("sequence")).ok


def test_811a7_event_records_actor_action_object_and_after(manager_a, holder_a):
    event = AuditEvent.objects.get(action="user.create", object_id=str(manager_a.pk))

    assert event.actor_username == "system"
    assert event.after == {"username": "manager_a", "role": "Manager", "holder_id": holder_a.pk}


@pytest.mark.django_db(transaction=True)
def test_audit_record_refuses_to_run_outside_a_transaction():
    with pytest.raises(RuntimeError, match="inside the service's transaction"):
        audit_record(actor=None, action="x", object_type="x", object_id=1)

    assert AuditEvent.objects.count() == 0


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE audit_auditevent SET reason = 'edited'",
        "DELETE FROM audit_auditevent",
    ],
)
def test_811a7_database_refuses_update_and_delete_of_audit_events(statement):
    _three_events()

    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)

    assert AuditEvent.objects.count() == 3
    assert not AuditEvent.objects.filter(reason="edited").exists()


@pytest.mark.postgres
def test_811a7_postgres_refuses_truncate_of_audit_events():
    _three_events()

    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        # Fire the deferred foreign-key checks of this test's inserts first.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE audit_auditevent CASCADE")  # with what refers to it

    assert AuditEvent.objects.count() == 3


def test_811a7_verify_command_passes_on_an_intact_chain(capsys):
    _three_events()

    call_command("verify_audit_chain")

    assert "audit chain intact: 3 events verified" in capsys.readouterr().out


def _tamper(sql: str, params: list) -> None:
    """Simulate an attacker with database rights: lift the triggers, change a row."""
    from portal.audit import triggers

    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    triggers.install(connection)


def test_811a7_verify_command_names_an_altered_event():
    _, second, _ = _three_events()
    _tamper("UPDATE audit_auditevent SET reason = %s WHERE id = %s", ["forged", second.pk])

    with pytest.raises(CommandError, match=r"broken at event #2 .*altered"):
        call_command("verify_audit_chain")


def test_811a7_verify_command_names_the_event_after_a_deleted_one():
    _, second, _ = _three_events()
    _tamper("DELETE FROM audit_auditevent WHERE id = %s", [second.pk])

    with pytest.raises(CommandError, match=r"broken at event #3 .*missing"):
        call_command("verify_audit_chain")


def test_811a7_verify_detects_a_rewritten_event_with_a_recomputed_hash():
    first, second, _ = _three_events()
    # The forger recomputes the hash of the changed event, but cannot fix its successor.
    second.reason = "forged"
    forged_hash = digest_of(second)
    _tamper(
        "UPDATE audit_auditevent SET reason = %s, hash = %s WHERE id = %s",
        ["forged", forged_hash, second.pk],
    )

    report = verify(AuditEvent.objects.order_by("sequence"))

    assert (report.ok, report.broken_sequence) == (False, 3)
    assert "prev_hash" in report.problem


def test_refusal_text_cites_the_clause():
    assert "§ 811a.7" in REFUSAL


def test_811a7_verify_command_notices_the_newest_events_deleted():
    first, second, third = _three_events()
    _tamper("DELETE FROM audit_auditevent WHERE sequence >= %s", [second.sequence])

    with pytest.raises(CommandError, match=r"ends at event #1 but its recorded head is #3"):
        call_command("verify_audit_chain")
