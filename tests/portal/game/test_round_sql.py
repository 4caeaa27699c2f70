"""The round's fixed SQL (``portal.game.play.sql``) against the ORM, which is the reference:
every field of the game tables is accounted for, and the same seeded rounds played both
ways leave identical rows, balances and chain hashes."""

from __future__ import annotations

import datetime
import random
import uuid

import pytest
from django.db import connection, transaction
from django.utils import timezone

from portal.access.roles import Role
from portal.compliance.selectors import jinzi_listing, offerings_with_parts
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import Bet, GamingAccount, LedgerEntry, PlaySession, Round, Wallet
from portal.game.money.services.limit_changes import limit_set
from portal.game.money.terms import TermsStanding, terms_accept
from portal.game.money.terms import standing_of as terms_standing_of
from portal.game.play import sql, store
from portal.game.play.services import round_play
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from portal.software.selectors import running_software_approved
from tests.portal.factories import approved_terms, in_session, make_user
from tests.portal.funding import wallet_top_up

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", list(sql.FIELD_COVERAGE), ids=lambda model: model.__name__)
def test_every_field_of_the_game_tables_is_written_read_or_left_out_on_purpose(model):
    covered = {model._meta.get_field(name).name for name in sql.FIELD_COVERAGE[model]}

    assert covered == {field.name for field in model._meta.concrete_fields}


@pytest.mark.parametrize("model", list(sql.FIELD_COVERAGE), ids=lambda model: model.__name__)
def test_every_field_said_to_be_written_is_in_the_write(model):
    write = sql._write_sql(connection.alias) if connection.vendor == "postgresql" else None
    if write is None:
        pytest.skip("the write is built for PostgreSQL only")
    table = model._meta.db_table
    for name, how in sql.FIELD_COVERAGE[model].items():
        if how.startswith(("written", "read and written")):
            column = model._meta.get_field(name).column
            assert column in write.split(table, 1)[1], (model.__name__, name)


@pytest.mark.postgres
def test_the_read_gives_what_the_orm_reads(funded_player, live_offering):
    session_id = in_session(funded_player)
    with transaction.atomic():
        found = sql.read_for_round(
            connection,
            player_id=funded_player.pk,
            idempotency_key="no-round-yet-0001",
            offering_id=live_offering.pk,
            session_id=session_id,
        )
    wallet, previous, offering, listing, moved, account, terms, session, approved = found
    # Whether the software running is approved (§ 461a.4), as the ORM reads it.
    assert approved is running_software_approved() is True
    reference = offerings_with_parts().get(pk=live_offering.pk)
    # The session (§ 812a.9(a)(5)), as the ORM reads it; another player's is no session.
    orm_session = PlaySession.objects.get(pk=session_id)
    for name in sql.SESSION_READ:
        attname = PlaySession._meta.get_field(name).attname
        assert getattr(session, attname) == getattr(orm_session, attname), name
    with transaction.atomic():
        SoftwareApproval.objects.update(status=SoftwareApprovalStatus.WITHDRAWN)
        *_, not_theirs, approved_now = sql.read_for_round(
            connection,
            player_id=funded_player.pk,
            idempotency_key="no-round-yet-0001",
            offering_id=live_offering.pk,
            session_id=in_session(make_user("another-player", Role.PLAYER)),
        )
    assert not_theirs is None
    assert approved_now is running_software_approved() is False

    assert (previous, moved) == (None, False)
    assert terms == terms_standing_of(funded_player.pk, live_offering.holder_id)
    orm_wallet = Wallet.objects.get(player=funded_player)
    for name in sql.WALLET_READ:
        attname = Wallet._meta.get_field(name).attname
        assert getattr(wallet, attname) == getattr(orm_wallet, attname), name
    for read, orm in (
        (offering, reference),
        (offering.rules_submission, reference.rules_submission),
        (offering.layout, reference.layout),
        (offering.paytable, reference.paytable),
        (listing, jinzi_listing(reference.rules_submission)),
        (account, GamingAccount.objects.get(player=funded_player, holder=reference.holder)),
    ):
        assert type(read) is type(orm)
        for field in type(read)._meta.concrete_fields:
            if field.attname in read.__dict__:  # the columns the read selects
                assert getattr(read, field.attname) == getattr(orm, field.attname), field.name


@pytest.mark.postgres
def test_814a2_the_read_brings_the_limits_in_force_in_its_one_statement(
    funded_player, live_offering, django_assert_num_queries
):
    mine = GamingAccount.objects.get(player=funded_player, holder=live_offering.holder)
    for kind, value in (("wager", 5_000), ("time_day", 90), ("wager", 9_000)):  # a raise waits
        limit_set(player=funded_player, account_id=mine.pk, kind=kind, value=value)

    session_id = in_session(funded_player)
    with transaction.atomic(), django_assert_num_queries(1):
        *_, account, _terms, _session, _approved = sql.read_for_round(
            connection,
            player_id=funded_player.pk,
            idempotency_key="no-round-yet-0002",
            offering_id=live_offering.pk,
            session_id=session_id,
        )
        in_force = account.limits

    assert in_force == {"wager": 5_000, "time_day": 90}
    assert in_force == GamingAccount.objects.get(pk=mine.pk).limits  # as the ORM reads them


@pytest.mark.postgres
def test_812a5_the_read_gives_the_holders_terms_as_the_orm_reads_them(
    funded_player, live_offering, manager_a, officer, holder_a
):
    def read():
        with transaction.atomic():
            *_, terms, _session, _approved = sql.read_for_round(
                connection,
                player_id=funded_player.pk,
                idempotency_key="no-round-yet-0003",
                offering_id=live_offering.pk,
                session_id=0,
            )
        assert terms == terms_standing_of(funded_player.pk, holder_a.pk)
        return terms

    assert read() == TermsStanding(None, None, True)
    in_force = approved_terms(manager_a, officer, holder_a)
    assert read() == TermsStanding(in_force.pk, 1, False)
    terms_accept(player=funded_player, holder_id=holder_a.pk, terms_id=in_force.pk)
    assert read() == TermsStanding(in_force.pk, 1, True)


class _Clock:
    """``timezone.now`` for a run of rounds: one instant per round, the same in every run."""

    def __init__(self) -> None:
        self.now = datetime.datetime(2026, 11, 30, 15, 0, tzinfo=datetime.UTC)

    def __call__(self) -> datetime.datetime:
        return self.now

    def tick(self) -> None:
        self.now += datetime.timedelta(seconds=7)


def _play_a_session(offering, players, rounds_for, monkeypatch) -> list:
    """Play the same rounds, refusals and retries included; return what each call gave."""
    clock = _Clock()
    monkeypatch.setattr(timezone, "now", clock)
    monkeypatch.setattr(store, "rounds_for", rounds_for)
    rng = random.Random(617)
    answers = []
    twin, newcomer = players
    red_and_zero = [
        {"kind": "red", "stake": 400},
        {"kind": "straight", "numbers": [0], "stake": 200},
    ]
    steps = [
        (twin, red_and_zero, "twin-0001"),
        (twin, [{"kind": "split", "numbers": [0, 1], "stake": 200}], "twin-0002"),
        (newcomer, [{"kind": "big", "stake": 600}], "newcomer-0003"),  # no wallet yet: refused
        (twin, red_and_zero, "twin-0001"),  # a retry
        (twin, [{"kind": "black", "stake": 200}], "twin-0001"),  # the key reused
        (twin, [{"kind": "column", "numbers": [1, 4, 7, 10], "stake": 90_000}], "twin-0004"),
    ]
    for n in range(40):
        wagers = [{"kind": "straight", "numbers": [n % 13], "stake": 200}]
        steps.append((twin, [*wagers, {"kind": "small", "stake": 200}], f"twin-1{n:03d}"))
    # Each player's session, the same id in every run (its id joins each round's hash).
    sessions = {
        player.pk: in_session(player, public_id=uuid.UUID(int=number + 1))
        for number, player in enumerate(players)
    }
    for player, wagers, key in steps:
        clock.tick()
        try:
            played = round_play(
                player=player,
                session=sessions[player.pk],
                offering_id=offering.pk,
                wagers=wagers,
                idempotency_key=key,
                rng=rng,
            )
        except (ValidationFailed, Conflict) as refused:
            answers.append(refused.message)
            continue
        answers.append(
            (
                played.replayed,
                _without_ids(played.round),
                [_without_ids(bet) for bet in played.bets],
            )
        )
    return answers


def _without_ids(instance) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in ("id", "round_id", "wallet_id", "account_id")
    }


def _stored(players) -> dict:
    """Every game row of ``players``, rounds named by (player, sequence) instead of ids."""
    rounds = Round.objects.filter(player__in=players).order_by("player", "sequence")
    name = {r.pk: (r.player_id, r.sequence) for r in rounds}
    return {
        "rounds": [_without_ids(r) for r in rounds],
        "bets": [
            (name[b.round_id], _without_ids(b))
            for b in sorted(
                Bet.objects.filter(round__in=rounds), key=lambda b: (name[b.round_id], b.position)
            )
        ],
        "ledger": [
            (e.wallet.player_id, name.get(e.round_id), _without_ids(e))
            for e in LedgerEntry.objects.filter(wallet__player__in=players).order_by("pk")
        ],
        "wallets": [
            _without_ids(w) for w in Wallet.objects.filter(player__in=players).order_by("player")
        ],
        # Each account's money (§ 812a.4); an entry's account is named by player and holder.
        "accounts": list(
            GamingAccount.objects.filter(player__in=players)
            .order_by("player", "holder")
            .values_list("player_id", "holder_id", "balance", "held")
        ),
        # Each session's last activity, moved by its rounds' writes (§ 812a.3(a)(6)).
        "sessions": list(
            PlaySession.objects.filter(user__in=players)
            .order_by("public_id")
            .values_list("public_id", "last_activity_at")
        ),
        "entry_accounts": [
            (e.account.player_id, e.account.holder_id) if e.account_id else None
            for e in LedgerEntry.objects.filter(wallet__player__in=players)
            .select_related("account")
            .order_by("pk")
        ],
    }


class _Undo(Exception):
    pass


@pytest.mark.postgres
def test_the_fixed_statements_store_exactly_what_the_orm_stores(live_offering, monkeypatch):
    players = [make_user(name, Role.PLAYER) for name in ("twin", "newcomer")]
    runs = {}
    for label, rounds_for in (
        ("orm", lambda connection: store.OrmRounds()),
        ("sql", store.SqlRounds),
    ):
        try:
            with transaction.atomic():
                with monkeypatch.context() as patched:
                    patched.setattr(timezone, "now", _Clock())
                    wallet_top_up(player=players[0], amount=100_000)
                answers = _play_a_session(live_offering, players, rounds_for, monkeypatch)
                runs[label] = (answers, _stored(players))
                raise _Undo  # both runs start from the same database
        except _Undo:
            monkeypatch.undo()

    orm, fixed = runs["orm"], runs["sql"]
    played = [answer for answer in orm[0] if isinstance(answer, tuple)]
    refused = [answer for answer in orm[0] if isinstance(answer, str)]
    assert len(orm[1]["rounds"]) == sum(not replayed for replayed, *_ in played) > 30
    assert any(replayed for replayed, *_ in played) and len(refused) >= 2
    assert fixed[0] == orm[0]  # what each call answered, refusals and replays included
    assert fixed[1] == orm[1]  # every row, balance and chain hash
