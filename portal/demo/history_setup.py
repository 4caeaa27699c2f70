"""BENCH/DEMO DATA: the certificate holders, tables and players a generated history is
played on, set up through the services (real approvals, audit trail and availability log),
and what each table's parts fix in every round (``Era``).

Each player has a wallet (the head of their round chain) and an account with every holder
(§ 812a.4), each opened with its audit event as a first deposit opens one; the history then
funds an account by demo deposits just before a round at that holder's tables needs them."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

import jinzi
import portal
from portal.access.roles import Role
from portal.accounts.services import holder_create, staff_user_create
from portal.audit.services import audit_record
from portal.compliance.models import Game, ListedGame
from portal.compliance.services.layouts import layout_approve, layout_create, layout_submit
from portal.compliance.services.offerings import offering_create, offering_update
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_create,
    paytable_submit,
    paytable_update,
)
from portal.compliance.services.rules import (
    GameListing,
    rules_submission_amend,
    rules_submission_approve,
    rules_submission_create,
    rules_submission_submit,
    rules_submission_update,
)
from portal.compliance.zero_edges import zero_edges_of
from portal.core.hashing import GENESIS_HASH
from portal.demo.software import approve_demo_software
from portal.game.models import GamingAccount, RoundStatus, Wallet
from portal.game.money.selectors import account_picture

LEVELS = (1, 1, 1, 2, 5)  # a player's stake multiplier
LIMITS = {"chip_unit": 100, "min_wager": 100, "max_wager": 50_000, "max_round_stake": 200_000}
_MINIMUM = jinzi.Paytable.minimum().as_dict()
# Every edge stays above 0 at the tables' $1 chip (not on a 2-cent stake, rounded up).
ODDS_V2 = {**_MINIMUM, "split": "51/10", "street": "31/10"}
ODDS_TABLE_2 = {**_MINIMUM, "column": "21/10", "corner": "21/10"}

_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="260" height="340"><rect width="260" '
_SVG += b'height="340" fill="#0b6e4f"/></svg>'
SIGNAGE = "Jinzi Roulette: 13 numbers. When 0 wins, wagers not on 0 return half."
LAYOUT = {"wheel_order": list(jinzi.STANDARD_ORDER), "signage_text": SIGNAGE}


@dataclass(frozen=True)
class Era:
    """The parts a table ran on for a while: the round fields they fix, as ``round_play``
    fills them (``shared``) and as a row stores them (``stored``), the settlement, the limits."""

    shared: dict
    stored: dict
    table: jinzi.SettlementTable
    limits: ListedGame

    @classmethod
    def of(cls, offering_id: int, rules, layout, paytable) -> Era:
        domain, wheel = paytable.to_domain(), layout.wheel()
        shared = {
            "offering_id": offering_id,
            "rules_submission_id": rules.pk,
            "rules_version": rules.version,
            "layout_id": layout.pk,
            "layout_version": layout.version,
            "paytable_id": paytable.pk,
            "paytable_version": paytable.version,
            "paytable_odds": domain.as_dict(),
            "wheel_order": list(wheel.order),
            "first_colour": wheel.first.value,
            "game_name": jinzi.GAME_NAME,
            "software_version": jinzi.__version__,
            "portal_version": portal.__version__,
            "status": RoundStatus.COMPLETE.value,
        }
        stored = {name: json.dumps(shared[name]) for name in ("paytable_odds", "wheel_order")}
        listing = rules.games.get(game=Game.JINZI_ROULETTE)
        return cls(shared, shared | stored, jinzi.SettlementTable.for_(domain, wheel), listing)


@dataclass
class Table:
    label: str
    eras: tuple[Era, ...]
    switch_us: int | None = None  # when the second era began
    holder_id: int = 0  # whose table: its rounds are played from the account with it
    rounds: Counter = field(default_factory=Counter)  # by paytable version

    @property
    def offering_id(self) -> int:
        return self.eras[0].shared["offering_id"]

    def era_at(self, us: int) -> Era:
        return self.eras[1] if self.switch_us is not None and us >= self.switch_us else self.eras[0]


class Account:
    """A player's account with one holder, as the history moves it: its balance, and when
    it last moved (its ``updated_at``)."""

    __slots__ = ("account_id", "balance", "moved_at")

    def __init__(self, account_id: int) -> None:
        self.account_id, self.balance, self.moved_at = account_id, 0, None


class Player:
    __slots__ = (
        *("user_id", "username", "wallet_id", "level", "home", "accounts"),
        *("sequence", "head", "end"),
    )

    def __init__(
        self, user, wallet_id: int, level: int, home: Table, accounts: dict[int, Account]
    ) -> None:
        self.user_id, self.username, self.wallet_id = user.pk, user.get_username(), wallet_id
        self.level, self.home = level, home
        self.accounts = accounts  # by holder id
        self.sequence, self.head, self.end = 0, GENESIS_HASH, None


@dataclass(frozen=True)
class _Holder:
    """A new certificate holder: its manager drafts and submits, the officer decides."""

    holder: object
    manager: object
    officer: object
    dates: dict  # the approvals' effective and expiry dates

    def layout(self, title: str, colour: str):
        art = SimpleUploadedFile("layout.svg", _SVG, content_type="image/svg+xml")
        wheel = {"first_colour": colour, "artwork": art, **LAYOUT}
        draft = layout_create(actor=self.manager, holder=self.holder, title=title, **wheel)
        draft = layout_submit(actor=self.manager, layout=draft)
        number = f"BGO-HIST-{draft.pk:05d}"
        return layout_approve(
            actor=self.officer, layout=draft, reference_number=number, **self.dates
        )

    def paytable(self, draft):
        draft = paytable_submit(actor=self.manager, paytable=draft)
        # Fractional odds leave no edge on the smallest stakes once returns are rounded up
        # (reading:round-up): approved with the reason, for tables whose chip keeps one.
        return paytable_approve(
            actor=self.officer,
            paytable=draft,
            override_reason="Played only with $1 chips, where every edge stays above 0",
            edge_acknowledged=zero_edges_of(draft).fingerprint,
        )

    def rules(self, draft):
        draft = rules_submission_submit(actor=self.manager, submission=draft)
        return rules_submission_approve(actor=self.officer, submission=draft)

    def table(self, name: str, layout, odds: dict) -> tuple:
        mine = {"actor": self.manager, "holder": self.holder}
        paytable = self.paytable(paytable_create(**mine, name=name, odds=odds))
        games = [GameListing(paytable=paytable, layout=layout, **LIMITS)]
        title = f"Jinzi Roulette rules, {name}"
        rules = self.rules(rules_submission_create(**mine, title=title, games=games, **self.dates))
        parts = {"rules_submission": rules, "layout": layout, "paytable": paytable}
        offering = offering_create(**mine, name=name, **parts)
        return offering, Era.of(offering.pk, rules, layout, paytable)

    def amend(self, offering, odds: dict) -> Era:
        """Paytable v2 supersedes the table's v1, a rules amendment lists it, the table
        moves onto both (closed in between, as it would be)."""
        me, layout = self.manager, offering.layout
        draft = paytable_amend(actor=me, paytable=offering.paytable)
        paytable = self.paytable(paytable_update(actor=me, paytable=draft, odds=odds))
        games = [GameListing(paytable=paytable, layout=layout, **LIMITS)]
        draft = rules_submission_amend(actor=me, submission=offering.rules_submission)
        rules = self.rules(rules_submission_update(actor=me, submission=draft, games=games))
        parts = {"rules_submission": rules, "paytable": paytable}
        offering_update(actor=me, offering=offering, **parts)
        return Era.of(offering.pk, rules, layout, paytable)


def setup_tables(tag: str, holders: int, effective, switch_us: int) -> list[Table]:
    officer = staff_user_create(
        actor=None, username=f"hist-{tag}-officer", password=None, role=Role.COMPLIANCE
    )
    dates = {"effective_date": effective, "expiry_date": jinzi.SUNSET}
    # § 461a.4: the software the service plays on after the history is approved too.
    approve_demo_software(officer, officer)
    tables = []
    for i in range(1, holders + 1):
        name, licence, user = f"History Casino {tag}-{i}", f"HIST-{tag}-{i}", f"hist-{tag}-m{i}"
        holder = holder_create(actor=None, name=name, licence_number=licence)
        manager = staff_user_create(
            actor=None, username=user, password=None, role=Role.MANAGER, holder=holder
        )
        staff = _Holder(holder, manager, officer, dates)
        offering, first = staff.table("Table 1", staff.layout("Main floor", "red"), _MINIMUM)
        eras = (first, staff.amend(offering, ODDS_V2))
        tables.append(Table(f"{name} / Table 1", eras, switch_us, holder_id=holder.pk))
        if i % 2 == 0:  # a second table: a black-first wheel, a paytable above the minimum
            _, era = staff.table("Table 2", staff.layout("Garden room", "black"), ODDS_TABLE_2)
            tables.append(Table(f"{name} / Table 2", (era,), holder_id=holder.pk))
    return tables


def setup_players(tag: str, count: int, tables: list[Table], rng) -> list[Player]:
    users = [
        staff_user_create(
            actor=None, username=f"hist-{tag}-player-{n:05d}", password=None, role=Role.PLAYER
        )
        for n in range(1, count + 1)
    ]
    # Made-up players, verified (§ 812a.2) as the demo's are: they play from the start.
    verified = timezone.now()
    wallets = Wallet.objects.bulk_create(
        Wallet(player=user, identity_verified_at=verified) for user in users
    )
    holders = list(dict.fromkeys(table.holder_id for table in tables))
    opened = GamingAccount.objects.bulk_create(
        GamingAccount(player=user, holder_id=holder) for user in users for holder in holders
    )
    accounts: dict[int, dict[int, Account]] = {user.pk: {} for user in users}
    for account, user in zip(opened, (u for u in users for _ in holders), strict=True):
        # As a first deposit opens it (``portal.game.money.services``): the player opens it.
        audit_record(
            actor=user,
            action="account.open",
            object_type="player_account",
            object_id=account.pk,
            after=account_picture(account),
        )
        accounts[user.pk][account.holder_id] = Account(account.pk)
    return [
        Player(user, wallet.pk, rng.choice(LEVELS), tables[n % len(tables)], accounts[user.pk])
        for n, (user, wallet) in enumerate(zip(users, wallets, strict=True))
    ]
