"""Where reads go (portal.core.replica): the primary unless a block opened for the replica
says otherwise and a replica is configured; a request's block is pinned to the primary once
it writes; a report run's is not (its progress and files are its own rows)."""

import pytest

from portal.core import replica
from portal.core.replica import PRIMARY, REPLICA, ReplicaRouter, read_alias, reading_from

ROUTER = ReplicaRouter()


@pytest.fixture
def configured(monkeypatch):
    monkeypatch.setattr(replica, "replica_configured", lambda: True)


with_a_replica = pytest.mark.usefixtures("configured")


@with_a_replica
def test_reads_and_writes_go_to_the_primary_outside_a_replica_block():
    assert read_alias() == PRIMARY
    assert ROUTER.db_for_read(None) == PRIMARY
    assert ROUTER.db_for_write(None) == PRIMARY


@with_a_replica
def test_a_replica_block_reads_the_replica_and_still_writes_the_primary():
    with reading_from(REPLICA):
        assert ROUTER.db_for_read(None) == REPLICA
        assert ROUTER.db_for_write(None) == PRIMARY
        assert ROUTER.db_for_read(None) == REPLICA  # a run's own writes pin nothing
    assert read_alias() == PRIMARY


@with_a_replica
def test_a_request_that_has_written_reads_the_primary_for_the_rest_of_it():
    with reading_from(REPLICA, pin_on_write=True):
        assert ROUTER.db_for_read(None) == REPLICA
        ROUTER.db_for_write(None)
        assert ROUTER.db_for_read(None) == PRIMARY
    with reading_from(REPLICA, pin_on_write=True):  # the next request starts unpinned
        assert ROUTER.db_for_read(None) == REPLICA


def test_without_a_replica_every_read_is_the_primarys():
    assert not replica.replica_configured()  # the suite's settings: no replica is read
    with reading_from(REPLICA):
        assert read_alias() == PRIMARY
    assert replica.read_source().alias == PRIMARY


def test_migrations_run_on_the_primary_only_the_replica_replays_them():
    assert ROUTER.allow_migrate(PRIMARY, "reports")
    assert not ROUTER.allow_migrate(REPLICA, "reports")


@pytest.mark.django_db
@with_a_replica
def test_the_auditors_lists_and_the_par_sheet_read_inside_a_replica_block(
    client, login, auditor, monkeypatch
):
    seen = []
    real = replica.read_alias

    def noting():
        alias = real()
        seen.append(alias)
        return PRIMARY  # the suite has no replica to read: note where it would have gone

    monkeypatch.setattr(replica, "read_alias", noting)
    login(auditor)

    assert client.get("/audit/").status_code == 200
    assert REPLICA in seen
