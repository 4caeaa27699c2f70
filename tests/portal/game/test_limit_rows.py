"""The player's limits (§ 814a.2) as rows of their own (``AccountLimit``): the database
refuses what the rules forbid, the account reads them as clients always saw them, and the
upgrade moves the account's JSON into rows, and back, without losing any."""

from __future__ import annotations

import datetime
import importlib

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from portal.access.roles import Role
from portal.audit.services import audit_record
from portal.game.models import MAX_LIMIT, MAX_MINUTES, AccountLimit, GamingAccount, LimitKind
from portal.game.money.services.limit_changes import limit_set
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up

MIGRATION = importlib.import_module("portal.game.migrations.0011_limits_as_rows")
BEFORE_ROWS = [("game", "0010_round_corrections")]
UTC = datetime.UTC
NOW = datetime.datetime(2027, 3, 3, 15, tzinfo=UTC)
MONDAY = datetime.datetime(2027, 3, 8, 5, tzinfo=UTC)  # the next week's start, 00:00 EST


def utc(*parts) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=UTC)


def _in_force(account, kind, amount, since=NOW) -> AccountLimit:
    return AccountLimit.objects.create(
        account=account, kind=kind, amount=amount, in_force_from=since
    )


def _waiting(account, kind, amount, until=MONDAY) -> AccountLimit:
    return AccountLimit.objects.create(
        account=account, kind=kind, amount=amount, pending_until=until
    )


def _refused(make) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


# What the database refuses -------------------------------------------------------------


@pytest.mark.django_db
def test_814a2_a_second_limit_in_force_of_a_kind_is_refused_by_the_database(account_a):
    _in_force(account_a, "deposit_day", 5_000)

    _refused(lambda: _in_force(account_a, "deposit_day", 4_000))
    _in_force(account_a, "deposit_week", 5_000)  # another kind
    assert account_a.limits == {"deposit_day": 5_000, "deposit_week": 5_000}


@pytest.mark.django_db
@pytest.mark.clause("reading:limit-raises", kind="related")
def test_814a2_a_second_raise_waiting_of_a_kind_is_refused_but_one_beside_its_limit_is_not(
    account_a,
):
    _in_force(account_a, "loss_week", 2_000)
    _waiting(account_a, "loss_week", 8_000)

    _refused(lambda: _waiting(account_a, "loss_week", None))
    assert account_a.limits == {"loss_week": 2_000}
    assert account_a.pending_limits == {
        "loss_week": {"value": 8_000, "from": "2027-03-08T05:00:00+00:00"}
    }


@pytest.mark.django_db
@pytest.mark.parametrize("amount", [0, -100])
def test_814a2_a_limit_of_zero_or_less_is_refused_by_the_database(account_a, amount):
    _refused(lambda: _in_force(account_a, "wager", amount))
    _refused(lambda: _waiting(account_a, "wager", amount))
    assert not AccountLimit.objects.exists()


@pytest.mark.django_db
def test_814a2_a_limit_over_its_kinds_maximum_is_refused_by_the_database(account_a):
    _refused(lambda: _in_force(account_a, "time_day", MAX_MINUTES + 1))
    _refused(lambda: _waiting(account_a, "loss_month", MAX_LIMIT + 1))

    _in_force(account_a, "time_day", MAX_MINUTES)
    _in_force(account_a, "deposit_day", MAX_MINUTES + 1)  # cents: a money limit's own bound
    _in_force(account_a, "loss_month", MAX_LIMIT)
    assert AccountLimit.objects.count() == 3


@pytest.mark.django_db
def test_814a2_a_kind_the_rule_does_not_name_is_refused_by_the_database(account_a):
    _refused(lambda: _in_force(account_a, "loss_year", 5_000))
    assert [kind.value for kind in LimitKind][3:6] == ["loss_day", "loss_week", "loss_month"]


@pytest.mark.django_db
def test_814a2_only_a_raise_waiting_may_be_to_no_limit_at_all(account_a):
    _refused(lambda: _in_force(account_a, "wager", None))

    _waiting(account_a, "wager", None)
    assert account_a.pending_limits["wager"]["value"] is None


@pytest.mark.django_db
def test_814a2_a_limit_is_either_in_force_or_waiting_never_both_nor_neither(account_a):
    both = {"in_force_from": NOW, "pending_until": utc(2027, 3, 4, 5)}
    _refused(lambda: AccountLimit.objects.create(account=account_a, kind="wager", amount=5, **both))
    _refused(lambda: AccountLimit.objects.create(account=account_a, kind="wager", amount=5))


# How the account reads them ---------------------------------------------------------------


@pytest.mark.django_db
def test_814a2_accounts_read_with_their_limits_read_no_more_rows(
    account_a, holder_b, django_assert_num_queries
):
    other = GamingAccount.objects.create(player=account_a.player, holder=holder_b)
    _in_force(account_a, "time_day", 90)
    _in_force(account_a, "deposit_day", 5_000)
    _waiting(account_a, "time_day", None, until=utc(2027, 3, 4, 5, 0, 0, 120))
    _waiting(other, "wager", 700)

    list(GamingAccount.objects.with_limits())  # first use asks SQLite whether it has JSON
    with django_assert_num_queries(1):
        read = {a.pk: (a.limits, a.pending_limits) for a in GamingAccount.objects.with_limits()}

    assert read == {
        account.pk: (account.limits, account.pending_limits)  # from the rows, one by one
        for account in GamingAccount.objects.all()
    }
    assert read[account_a.pk] == (
        {"deposit_day": 5_000, "time_day": 90},
        {"time_day": {"value": None, "from": "2027-03-04T05:00:00.000120+00:00"}},
    )
    assert read[other.pk] == ({}, {"wager": {"value": 700, "from": "2027-03-08T05:00:00+00:00"}})


@pytest.mark.django_db
@pytest.mark.clause("reading:limit-raises", kind="related")
def test_814a2_a_raise_reads_from_the_instant_the_service_gave(funded_player, account_a):
    with time_machine.travel(NOW, tick=False):
        limit_set(player=funded_player, account_id=account_a.pk, kind="loss_week", value=5)
        change = limit_set(player=funded_player, account_id=account_a.pk, kind="loss_week", value=9)

    waiting = GamingAccount.objects.with_limits().get(pk=account_a.pk).pending_limits
    assert waiting == {"loss_week": {"value": 9, "from": change.effective_from.isoformat()}}
    row = AccountLimit.objects.get(account=account_a, kind="loss_week", pending_until__isnull=True)
    assert (row.amount, row.in_force_from) == (5, NOW)


@pytest.mark.django_db
@pytest.mark.clause("reading:limit-raises", kind="related")
def test_814a2_setting_the_limit_in_force_again_keeps_it_in_force_from_when_it_took_effect(
    funded_player, account_a
):
    with time_machine.travel(NOW, tick=False):
        limit_set(player=funded_player, account_id=account_a.pk, kind="wager", value=500)
        limit_set(player=funded_player, account_id=account_a.pk, kind="wager", value=900)
    with time_machine.travel(NOW + datetime.timedelta(hours=1), tick=False):
        change = limit_set(player=funded_player, account_id=account_a.pk, kind="wager", value=500)
        lower = limit_set(player=funded_player, account_id=account_a.pk, kind="time_day", value=60)

    assert change.applied and lower.applied
    rows = AccountLimit.objects.filter(account=account_a).order_by("kind")
    assert list(rows.values_list("kind", "amount", "in_force_from", "pending_until")) == [
        ("time_day", 60, NOW + datetime.timedelta(hours=1), None),
        ("wager", 500, NOW, None),  # the raise waiting is gone; the limit stays as it was
    ]


# The upgrade -------------------------------------------------------------------------------


def test_814a2_a_limit_is_in_force_from_the_first_event_of_its_last_run():
    events = [
        (utc(2027, 1, 1), {"limits": {"wager": 500}}),
        (utc(2027, 1, 2), {"limits": {"wager": 300}}),
        (utc(2027, 1, 3), {"limits": {"wager": 500}}),
        (utc(2027, 1, 4), {"limits": {"wager": 500, "time_day": 60}}),
    ]
    assert MIGRATION.in_force_since(events, "wager", 500) == utc(2027, 1, 3)
    assert MIGRATION.in_force_since(events, "time_day", 60) == utc(2027, 1, 4)
    assert MIGRATION.in_force_since(events, "time_day", 90) is None  # the trail disagrees
    assert MIGRATION.in_force_since([], "wager", 500) is None
    assert MIGRATION.in_force_since([(utc(2027, 1, 5), None)], "wager", 500) is None


def test_814a2_the_upgrade_stops_on_a_limit_the_rows_cannot_hold_naming_it():
    assert tuple(LimitKind.values) == MIGRATION.KINDS
    assert (MIGRATION.MAX_LIMIT, MIGRATION.MAX_MINUTES) == (MAX_LIMIT, MAX_MINUTES)
    for kind, value, waiting in [
        ("deposit_day", 0, False),
        ("time_day", MAX_MINUTES + 1, True),
        ("wager", None, False),
        ("wager", 1.5, False),
        ("loss_year", 100, False),
    ]:
        with pytest.raises(RuntimeError, match=rf"account #7: .*{kind}.*before upgrading"):
            MIGRATION._checked(7, kind, value, waiting=waiting)
    assert MIGRATION._checked(7, "wager", None, waiting=True) is None
    with pytest.raises(RuntimeError, match="no instant with a zone"):
        MIGRATION._instant(7, "wager", {"value": 5, "from": "2027-03-08T05:00:00"})


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # the graph as the database now stands


LIMITS = {"deposit_day": 5_000, "wager": 500, "time_day": 120}
PENDING = {
    "loss_week": {"value": 20_000, "from": "2027-03-08T05:00:00+00:00"},
    "wager": {"value": None, "from": "2027-03-04T05:00:00+00:00"},
}


def _limit_event(actor, account_id, at, limits) -> None:
    with time_machine.travel(at, tick=False), transaction.atomic():
        audit_record(
            actor=actor,
            action="account.limit",
            object_type="player_account",
            object_id=account_id,
            before={},
            after={"limits": limits, "pending_limits": {}},
        )


@pytest.mark.django_db(transaction=True)
def test_814a2_the_upgrade_moves_the_json_limits_into_rows_and_back(holder_a, holder_b):
    player, other = make_user("player", Role.PLAYER), make_user("other", Role.PLAYER)
    wallet_top_up(player=player, amount=1_000, holder=holder_a)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = _migrate(BEFORE_ROWS).loader.project_state(BEFORE_ROWS).apps
        OldAccount = old.get_model("game", "GamingAccount")
        mine = OldAccount.objects.get(player_id=player.pk, holder_id=holder_a.pk)
        theirs = OldAccount.objects.create(player_id=other.pk, holder_id=holder_b.pk)
        # deposit_day: 5,000, 3,000, then 5,000 again; wager from the second event; time_day
        # in no event of this account (another account's does not count).
        _limit_event(player, mine.pk, utc(2027, 1, 1), {"deposit_day": 5_000})
        _limit_event(player, mine.pk, utc(2027, 1, 2), {"deposit_day": 3_000, "wager": 500})
        _limit_event(other, theirs.pk, utc(2027, 1, 3), {"time_day": 120})
        _limit_event(player, mine.pk, utc(2027, 1, 4), {"deposit_day": 5_000, "wager": 500})
        updated = utc(2027, 2, 1)
        OldAccount.objects.filter(pk=mine.pk).update(
            limits=LIMITS, pending_limits=PENDING, updated_at=updated
        )

        _migrate(latest)
        account = GamingAccount.objects.get(pk=mine.pk)
        assert (account.limits, account.pending_limits) == (LIMITS, PENDING)
        assert GamingAccount.objects.with_limits().get(pk=mine.pk).pending_limits == PENDING
        since = dict(
            AccountLimit.objects.filter(pending_until__isnull=True).values_list(
                "kind", "in_force_from"
            )
        )
        assert since == {
            "deposit_day": utc(2027, 1, 4),
            "wager": utc(2027, 1, 2),
            "time_day": updated,
        }
        assert AccountLimit.objects.filter(account_id=theirs.pk).count() == 0
        assert AccountLimit.objects.count() == len(LIMITS) + len(PENDING)
        assert account.updated_at == updated

        back = _migrate(BEFORE_ROWS).loader.project_state(BEFORE_ROWS).apps
        found = back.get_model("game", "GamingAccount").objects.order_by("pk")
        assert list(found.values_list("pk", "limits", "pending_limits", "updated_at")) == [
            (mine.pk, LIMITS, PENDING, updated),
            (theirs.pk, {}, {}, theirs.updated_at),
        ]
    finally:
        _migrate(latest)
