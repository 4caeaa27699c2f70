"""Where a round's records are read and written: the plain ORM, or two fixed statements.

Both ways share one shape (``RoundInputs`` in, the stored round out) and run inside the
service's ordinary ``transaction.atomic()``:

- ``OrmRounds``, the reference, on every database: the wallet locked with
  ``select_for_update`` (SQLite's immediate transactions already hold the write lock),
  the round under the key, the offering with its parts, whether the software running is
  approved (§ 461a.4), then the round, its bets, its
  ledger entries and the wallet's new state, each written by the ORM;
- ``SqlRounds``, on PostgreSQL: the same read and write as one statement each
  (``portal.game.play.sql``), about twice the round rate. A test plays the same seeded rounds
  through both and requires identical rows, balances and chain hashes.

Only ``portal.game.play.services`` calls this.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.db import connections, router

from portal.compliance.models import ListedGame, Offering
from portal.compliance.selectors import jinzi_listing, offerings_with_parts
from portal.game.models import Bet, GamingAccount, LedgerEntry, PlaySession, Round, Wallet
from portal.game.money.terms import TermsStanding
from portal.game.money.terms import standing_of as terms_standing_of
from portal.game.play import sql
from portal.software.selectors import running_software_approved


@dataclass(frozen=True)
class RoundInputs:
    wallet: Wallet  # locked until the transaction ends
    # (id, request fingerprint) of the round already played under this key, if any
    previous: tuple[int, str] | None
    offering: Offering | None
    listing: ListedGame | None  # the rules submission's Jinzi Roulette listing
    # The player's account with the offering's holder (§ 812a.4), locked after the wallet.
    account: GamingAccount | None = None
    # The wallet moved between the read's snapshot and its lock (another request of this
    # player committed meanwhile): ``previous`` may miss a round that request played.
    moved_while_waiting: bool = False
    # The offering's holder's terms in force and whether the player accepted them (§ 812a.5).
    terms: TermsStanding | None = None
    # The player's session the round is asked in (§ 812a.9(a)(5)); None if not theirs.
    session: PlaySession | None = None
    # Whether the game software running is approved (§ 461a.4): no round plays unless it is.
    software_approved: bool = False


class OrmRounds:
    """The round through the ORM: the reference every other way must match."""

    @staticmethod
    def played_under(*, player_id: int, idempotency_key: str) -> tuple[int, str] | None:
        keyed = Round.objects.filter(player_id=player_id, idempotency_key=idempotency_key)
        return _one_or_none(keyed.values_list("id", "request_fingerprint"))

    def read(self, *, player_id: int, idempotency_key: str, offering_id: int, session_id: int):
        wallet = _one_or_none(Wallet.objects.select_for_update().filter(player_id=player_id))
        if wallet is None:
            return None
        # Under the lock, each statement sees every round committed before it.
        previous = self.played_under(player_id=player_id, idempotency_key=idempotency_key)
        if previous is not None:
            return RoundInputs(wallet, previous, None, None)
        offering = _one_or_none(offerings_with_parts().filter(pk=offering_id))
        listing = jinzi_listing(offering.rules_submission) if offering is not None else None
        account = _account(offering, player_id)
        standing = terms_standing_of(player_id, offering.holder_id) if offering else None
        session = _one_or_none(
            PlaySession.objects.filter(pk=session_id, user_id=player_id).only(*sql.SESSION_READ)
        )
        return RoundInputs(
            wallet,
            previous,
            offering,
            listing,
            account=account,
            terms=standing,
            session=session,
            software_approved=running_software_approved(),
        )

    def write(
        self,
        *,
        round_obj: Round,
        bets: list[dict],
        entries: list[dict],
        wallet,
        account,
        session,
    ):
        """Store the round, its bets and ledger entries (given as field values by name), the
        wallet's new chain head and the account's balance; return the stored round and bets,
        or None if the key is already taken (never, here: the wallet's lock and the read
        come first)."""
        round_obj.save(force_insert=True)
        stored_bets = Bet.objects.bulk_create(Bet(round=round_obj, **bet) for bet in bets)
        if any(bet.pk is None for bet in stored_bets):  # a database without RETURNING
            stored_bets = list(Bet.objects.filter(round=round_obj).order_by("position"))
        LedgerEntry.objects.bulk_create(
            LedgerEntry(wallet=wallet, account=account, round=round_obj, **entry)
            for entry in entries
        )
        # The round's end, not the moment of this statement: as the fixed SQL writes it.
        Wallet.objects.filter(pk=wallet.pk).update(
            **{name: getattr(wallet, name) for name in sql.WALLET_WRITTEN}
        )
        GamingAccount.objects.filter(pk=account.pk).update(
            **{name: getattr(account, name) for name in sql.ACCOUNT_WRITTEN}
        )
        PlaySession.objects.filter(pk=session.pk).update(
            **{name: getattr(session, name) for name in sql.SESSION_WRITTEN}
        )
        return round_obj, stored_bets


class SqlRounds(OrmRounds):
    """The round in two fixed statements on PostgreSQL (``portal.game.play.sql``)."""

    def __init__(self, connection) -> None:
        self.connection = connection

    def read(self, *, player_id: int, idempotency_key: str, offering_id: int, session_id: int):
        found = sql.read_for_round(
            self.connection,
            player_id=player_id,
            idempotency_key=idempotency_key,
            offering_id=offering_id,
            session_id=session_id,
        )
        if found is None:
            return None
        wallet, previous, offering, listing, moved, account, terms, session, approved = found
        if account is None and previous is None:  # none, or joined before the wallet moved
            account = _account(offering, player_id)
        return RoundInputs(
            wallet,
            previous,
            offering,
            listing,
            account=account,
            moved_while_waiting=moved,
            terms=terms,
            session=session,
            software_approved=approved,
        )

    def write(
        self,
        *,
        round_obj: Round,
        bets: list[dict],
        entries: list[dict],
        wallet,
        account,
        session,
    ):
        written = sql.write_round(
            self.connection,
            round_obj=round_obj,
            bets=bets,
            entries=entries,
            wallet=wallet,
            account=account,
            session=session,
        )
        if written is None:
            return None
        round_id, bet_ids = written
        alias = self.connection.alias
        values = {name: getattr(round_obj, name) for name in sql.ROUND_WRITE_COLUMNS}
        stored = _stored(Round, alias, {"id": round_id, **values})
        stored_bets = []
        for bet_id, bet in zip(bet_ids, bets, strict=True):
            stored_bet = _stored(Bet, alias, {"id": bet_id, "round": round_id, **bet})
            stored_bet.round = stored
            stored_bets.append(stored_bet)
        return stored, stored_bets


def _account(offering, player_id: int) -> GamingAccount | None:
    """The player's account with ``offering``'s holder, locked: its own statement, after the
    wallet's lock, so it reads the newest balance (every writer of it holds that lock). Its
    limits in force (§ 814a.2) come in the same statement, for the round's checks."""
    if offering is None:
        return None
    return _one_or_none(
        GamingAccount.objects.with_limits(waiting=False)
        .select_for_update()
        .filter(player_id=player_id, holder_id=offering.holder_id)
    )


def _one_or_none(queryset):
    """The one row ``queryset`` finds (a unique key picks it), or None; unlike ``first()``
    it asks for no ordering."""
    try:
        return queryset.get()
    except queryset.model.DoesNotExist:
        return None


@functools.cache
def _attnames(model) -> tuple[dict[str, str], list[str]]:
    """Each concrete field's attname by its name or attname, and the attnames in order."""
    fields = model._meta.concrete_fields
    by_name = {f.name: f.attname for f in fields} | {f.attname: f.attname for f in fields}
    return by_name, [f.attname for f in fields]


def _stored(model, alias: str, values: dict):
    """An instance as the ORM loads one from the database, from every concrete field's
    value (keyed by name or attname)."""
    by_name, attnames = _attnames(model)
    by_attname = {by_name[name]: value for name, value in values.items()}
    return model.from_db(alias, attnames, [by_attname[attname] for attname in attnames])


def connection_for_rounds():
    return connections[router.db_for_write(Round)]


def rounds_for(connection) -> OrmRounds:
    """The fixed statements on PostgreSQL, the ORM everywhere else."""
    return SqlRounds(connection) if connection.vendor == "postgresql" else OrmRounds()
