"""Top-ups made before they were audited get their audit event at upgrade (§ 811a.7).

Before ``wallet_top_up`` wrote a ``wallet.top_up`` event, a top-up was a ledger entry and
the balance it left, nothing more; ``verify_records`` reports such an entry as forged. The
game migration that records them appends the event ``wallet_top_up`` writes for each, so
the upgraded database verifies. Nothing is deleted: the trail is append-only.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction

from portal.access.roles import Role
from portal.audit.chain import stored_head, verify_stored
from portal.audit.models import AuditEvent
from portal.core.hashing import hashed_instant_text
from portal.game.models import LedgerEntry, LedgerKind, Wallet
from portal.game.money.selectors import wallet_for
from portal.game.money.services.deposits import TOP_UP_ACTION, top_up_pictures
from portal.integrity.records import verify_records
from tests.portal.factories import approved_offering, make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module(
    "portal.game.migrations.0006_audit_top_ups_made_before_auditing"
)


def _upgrade() -> None:
    MIGRATION.record_unaudited_top_ups(apps, None)


@transaction.atomic
def _top_up_before_audit(player, amount: int) -> LedgerEntry:
    """A top-up as ``wallet_top_up`` made it before top-ups were audited: the ledger entry
    and the wallet's balance, and no audit event."""
    wallet = Wallet.objects.select_for_update().get(pk=wallet_for(player).pk)
    wallet.balance += amount
    entry = LedgerEntry.objects.create(
        wallet=wallet, kind=LedgerKind.TOP_UP, amount=amount, balance_after=wallet.balance
    )
    wallet.save(update_fields=["balance", "updated_at"])
    return entry


def _forged_entries(report) -> list[str]:
    return [
        problem.subject
        for problem in report.problems
        if problem.area == "top-up" and "no wallet.top_up audit event" in problem.detail
    ]


def _subject(entry: LedgerEntry) -> str:
    return f"ledger entry #{entry.pk} (wallet #{entry.wallet_id}, top-up {entry.amount:+d})"


@pytest.fixture
def upgraded_world(manager_a, officer, holder_a, player):
    """Two players' single-wallet top-ups from before they were audited, interleaved, then
    a deposit made by today's services (with its event) and a round played from it."""
    other = make_user("player2", Role.PLAYER)
    old = [
        _top_up_before_audit(player, 50_000),
        _top_up_before_audit(other, 20_000),
        _top_up_before_audit(player, 2_000),
    ]
    old.append(_top_up_before_audit(other, 100_000))
    offering = approved_offering(manager_a, officer, holder_a)
    wallet_top_up(player=player, amount=5_000)
    play_round(player, offering, "after-upgrade-1", outcome=3)
    return {"player": player, "other": other, "old": old}


def test_811a7_the_migration_writes_the_service_top_up_event():
    assert MIGRATION.TOP_UP_ACTION == TOP_UP_ACTION
    assert MIGRATION.TOP_UP_KIND == LedgerKind.TOP_UP
    for entry_id, amount, balance_after in [(1, 2, 2), (7, 5_000, 12_000)]:
        assert MIGRATION._pictures(entry_id, amount, balance_after) == top_up_pictures(
            entry_id=entry_id, amount=amount, balance_after=balance_after
        )
    dependencies = set(MIGRATION.Migration.dependencies)
    assert {("audit", "0003_chain_head"), ("game", "0005_period_indexes")} <= dependencies


def test_811a7_top_ups_made_before_they_were_audited_are_reported_as_forged(upgraded_world):
    report = verify_records()

    assert sorted(_forged_entries(report)) == sorted(map(_subject, upgraded_world["old"]))
    assert len(report.problems) == len(upgraded_world["old"])


def test_811a7_top_ups_made_before_they_were_audited_are_recorded_at_upgrade(upgraded_world):
    head_before = stored_head()
    events_before = AuditEvent.objects.count()

    _upgrade()

    report = verify_records()
    assert report.ok, [str(problem) for problem in report.problems]
    chain = verify_stored()
    assert chain.ok, chain.problem
    old = upgraded_world["old"]
    added = list(AuditEvent.objects.filter(sequence__gt=head_before[0]).order_by("sequence"))
    assert len(added) == len(old) == AuditEvent.objects.count() - events_before
    assert added[0].prev_hash == head_before[1]
    assert stored_head() == (added[-1].sequence, added[-1].hash)
    owners = {entry.pk: entry.wallet.player for entry in old}
    for event, entry in zip(added, old, strict=True):  # in ledger-entry order
        player = owners[entry.pk]
        before, after = top_up_pictures(
            entry_id=entry.pk, amount=entry.amount, balance_after=entry.balance_after
        )
        assert (event.action, event.object_type, event.object_id) == (
            TOP_UP_ACTION,
            "wallet",
            str(entry.wallet_id),
        )
        assert (event.actor_id, event.actor_username) == (player.pk, player.get_username())
        assert (event.before, event.after) == (before, after)
        assert (event.object_version, event.request_id) == (None, "")
        assert "Recorded at upgrade" in event.reason
        assert "before top-ups were audited" in event.reason
        assert f"#{entry.pk}" in event.reason
        assert hashed_instant_text(entry.created_at) in event.reason
        assert event.occurred_at == added[0].occurred_at  # the upgrade's moment
        assert event.occurred_at >= entry.created_at


def test_811a7_recording_top_ups_at_upgrade_twice_adds_nothing(upgraded_world):
    _upgrade()
    head = stored_head()
    events = AuditEvent.objects.count()

    _upgrade()

    assert stored_head() == head
    assert AuditEvent.objects.count() == events
    assert verify_records().ok
    assert verify_stored().ok


def test_811a7_a_database_whose_top_ups_are_all_audited_gains_no_event(funded_player):
    wallet_top_up(player=funded_player, amount=3_000)
    head = stored_head()
    events = AuditEvent.objects.count()

    _upgrade()

    assert stored_head() == head
    assert AuditEvent.objects.count() == events
    assert verify_records().ok


def test_811a7_top_ups_recorded_at_upgrade_start_an_empty_trail(db):
    """A database whose trail has no events yet: the recorded top-ups start the chain."""
    early = get_user_model().objects.create_user("early")  # no service, so no event
    entries = [_top_up_before_audit(early, 9_000), _top_up_before_audit(early, 4_000)]

    _upgrade()

    events = list(AuditEvent.objects.order_by("sequence"))
    assert [(e.sequence, e.after["ledger_entry"]) for e in events] == [
        (1, entries[0].pk),
        (2, entries[1].pk),
    ]
    assert events[0].actor_username == "early"
    assert stored_head() == (2, events[1].hash)
    assert verify_stored().ok
    assert verify_records().ok
