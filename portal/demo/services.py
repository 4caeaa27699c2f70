"""Demo data for `make run`: two holders, a user per role, records in every status but
expired, and a void of a round waiting for a decision.

Everything is created through the services, so the demo's audit trail is real.
Running it again changes nothing (the first holder's licence number marks a seeded
database).

No approval is expired: one must expire after the day it is approved (a Pennsylvania
date) and the demo approves everything today, so a fresh install cannot hold an honestly
expired one. Running the expiry job as of a later day would show one expired before its
date, and backdating an approval would forge its audit trail. A few approvals expire
within the dashboard's 30-day window instead; the daily job expires them on their day.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.utils import timezone

import jinzi
from portal.access.roles import Role
from portal.accounts.models import CertificateHolder
from portal.accounts.services import ensure_role_groups, holder_create, staff_user_create
from portal.compliance.selectors import terms_in_force
from portal.compliance.services.expiry import records_expire_due
from portal.compliance.services.layouts import (
    layout_amend,
    layout_approve,
    layout_create,
    layout_reject,
    layout_request_changes,
    layout_submit,
    layout_update,
    layout_withdraw,
)
from portal.compliance.services.offerings import offering_create
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_create,
    paytable_reject,
    paytable_request_changes,
    paytable_submit,
    paytable_update,
    paytable_withdraw,
)
from portal.compliance.services.rules import (
    GameListing,
    rules_submission_amend,
    rules_submission_approve,
    rules_submission_create,
    rules_submission_reject,
    rules_submission_request_changes,
    rules_submission_submit,
    rules_submission_withdraw,
)
from portal.compliance.services.terms import terms_approve, terms_create, terms_submit
from portal.compliance.zero_edges import zero_edges_of
from portal.core.padates import pa_today
from portal.demo.software import approve_demo_software
from portal.game.corrections.services import correction_propose
from portal.game.models import DepositMethod, Round, SessionChannel
from portal.game.money.limits import LimitKind
from portal.game.money.services.deposits import MAX_DEMO_TOP_UP, deposit_make, deposit_record
from portal.game.money.services.limit_changes import limit_set
from portal.game.money.services.withdrawals import (
    withdrawal_pay,
    withdrawal_refuse,
    withdrawal_request,
)
from portal.game.money.terms import terms_accept
from portal.game.play.services import round_play
from portal.game.sessions.lifecycle import session_end, session_start
from portal.players.services.registration import player_set_up_verified
from portal.reports.models import ReportKind
from portal.reports.services.runs import report_run_request

DEMO_PASSWORD = "jinzi-demo-2026"
DEMO_BALANCE = MAX_DEMO_TOP_UP  # $1,000.00 of demo credit for the player, with each holder
USERS = (
    ("admin", None, None),  # superuser
    ("officer", Role.COMPLIANCE, None),
    ("officer2", Role.COMPLIANCE, None),
    ("manager", Role.MANAGER, "PA-DEMO-001"),
    ("manager2", Role.MANAGER, "PA-DEMO-002"),
    ("auditor", Role.AUDITOR, None),
    ("payments", Role.PAYMENTS, "PA-DEMO-001"),
    ("payments2", Role.PAYMENTS, "PA-DEMO-002"),
    ("supervisor", Role.SUPERVISOR, "PA-DEMO-001"),
    ("supervisor2", Role.SUPERVISOR, "PA-DEMO-002"),
    # Keystone's second supervisor: decides what ``supervisor`` proposes (four-eyes).
    ("supervisor3", Role.SUPERVISOR, "PA-DEMO-001"),
    ("player", Role.PLAYER, None),
)
HOLDERS = (
    ("Keystone Riverside Casino", "PA-DEMO-001"),
    ("Allegheny Heights Gaming", "PA-DEMO-002"),
)
EFFECTIVE = jinzi.EFFECTIVE
SUNSET = jinzi.SUNSET

_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="260" height="340">'
    b'<rect width="260" height="340" fill="#0b6e4f"/>'
    b'<text x="130" y="40" fill="#fff" text-anchor="middle" font-size="24">0</text>'
    b'<text x="130" y="320" fill="#fff" text-anchor="middle" font-size="14">Jinzi Roulette</text>'
    b"</svg>"
)


def _artwork():
    return SimpleUploadedFile("layout.svg", _SVG, content_type="image/svg+xml")


def _minimum_odds(**changes) -> dict:
    odds = dict(jinzi.Paytable.minimum().as_dict())
    odds.update(changes)
    return odds


def _layout(manager, holder, title, status, officer, first_colour="red"):
    layout = layout_create(
        actor=manager,
        holder=holder,
        title=title,
        wheel_order=list(jinzi.STANDARD_ORDER),
        first_colour=first_colour,
        signage_text="Jinzi Roulette — 13 numbers. When 0 wins, wagers not on 0 return half.",
        artwork=_artwork(),
    )
    if status == "draft":
        return layout
    layout = layout_submit(actor=manager, layout=layout)
    if status == "approved":
        return layout_approve(
            actor=officer,
            layout=layout,
            reference_number=f"BGO-DEMO-{layout.pk:04d}",
            effective_date=EFFECTIVE,
            expiry_date=SUNSET,
            conditions="Layout to be displayed with the approved signage.",
        )
    if status == "rejected":
        return layout_reject(actor=officer, layout=layout, reason="Artwork illegible")
    if status == "changes_requested":
        return layout_request_changes(
            actor=officer, layout=layout, reason="Please add the zero half-back rule to signage"
        )
    return layout


def _paytable(manager, holder, name, status, officer, odds=None):
    paytable = paytable_create(
        actor=manager, holder=holder, name=name, odds=odds or _minimum_odds()
    )
    if status == "draft":
        return paytable
    paytable = paytable_submit(actor=manager, paytable=paytable)
    if status == "approved":
        return paytable_approve(actor=officer, paytable=paytable)
    return paytable


def _listing(paytable, layout) -> GameListing:
    return GameListing(
        paytable=paytable,
        layout=layout,
        chip_unit=100,
        min_wager=100,
        max_wager=50_000,
        max_round_stake=200_000,
    )


def _rules(manager, holder, title, status, officer, paytable, layout, expiry=SUNSET):
    rules = rules_submission_create(
        actor=manager,
        holder=holder,
        title=title,
        games=[_listing(paytable, layout)],
        effective_date=EFFECTIVE,
        expiry_date=expiry,
    )
    if status == "draft":
        return rules
    rules = rules_submission_submit(actor=manager, submission=rules)
    if status == "approved":
        return rules_submission_approve(actor=officer, submission=rules)
    if status == "rejected":
        return rules_submission_reject(
            actor=officer, submission=rules, reason="Limits exceed the casino's bankroll policy"
        )
    if status == "changes_requested":
        return rules_submission_request_changes(
            actor=officer, submission=rules, reason="State the chip unit in dollars as well"
        )
    return rules


# Days from today (Pennsylvania date) to the expiry of the approvals the dashboard's
# "Expiring within 30 days" shows: the Lobby layout v2 and the Summer rules are well inside
# the window; the Summer pop-up layout came into it 5 days ago, so it is marked new.
LOBBY_DAYS = 20
SUMMER_RULES_DAYS = 10
SUMMER_LAYOUT_DAYS = 25


def _expires_in(days: int) -> datetime.date:
    """An expiry date ``days`` after today (Pennsylvania date), never past the sunset."""
    return min(pa_today() + datetime.timedelta(days=days), SUNSET)


def _more_statuses(holder, manager, officer, paytable, layout) -> None:
    """Paytables and rules submissions in the statuses the layouts show."""
    decided = _paytable(manager, holder, "Late-night table", "submitted", officer)
    paytable_reject(actor=officer, paytable=decided, reason="Name the table")
    asked = _paytable(manager, holder, "Weekend table", "submitted", officer)
    paytable_request_changes(actor=officer, paytable=asked, reason="Raise split odds")
    first = _paytable(manager, holder, "Split bonus", "approved", officer)
    second = paytable_amend(actor=manager, paytable=first)
    second = paytable_update(actor=manager, paytable=second, odds=_minimum_odds(split="51/10"))
    # Rounded up (reading:round-up), a 2-cent split at 51/10 returns 13 cents: no edge at
    # that stake, so approving it takes an override reason (§ 617b.8(f)).
    paytable_approve(
        actor=officer,
        paytable=(submitted := paytable_submit(actor=manager, paytable=second)),
        override_reason="Only for tables with a $1 chip, where the house keeps its edge",
        # The demo's one deliberate override, acknowledged as an officer would on its page
        # (reading:edge-acknowledgement).
        edge_acknowledged=zero_edges_of(submitted).fingerprint,
    )  # supersedes v1
    gone = _paytable(manager, holder, "Holiday table", "approved", officer)
    paytable_withdraw(actor=officer, paytable=gone, reason="Holiday over")

    for status in ("draft", "submitted", "rejected", "changes_requested"):
        title = f"Rules amendment proposal ({status.replace('_', ' ')})"
        _rules(manager, holder, title, status, officer, paytable, layout)
    old = _rules(manager, holder, "High-limit rules", "approved", officer, paytable, layout)
    new = rules_submission_amend(actor=manager, submission=old)
    new = rules_submission_submit(actor=manager, submission=new)
    rules_submission_approve(actor=officer, submission=new)  # supersedes v1
    pulled = _rules(manager, holder, "Tournament rules", "approved", officer, paytable, layout)
    rules_submission_withdraw(actor=officer, submission=pulled, reason="Cancelled")
    # Expires within the dashboard's 30-day window.
    expiry = _expires_in(SUMMER_RULES_DAYS)
    _rules(manager, holder, "Summer rules", "approved", officer, paytable, layout, expiry)


DEMO_ROUNDS = 20
DEMO_WAGERS = (
    [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [7], "stake": 100}],
    [{"kind": "small", "stake": 400}, {"kind": "split", "numbers": [0, 1], "stake": 200}],
    [{"kind": "column", "numbers": [2, 5, 8, 11], "stake": 300}, {"kind": "black", "stake": 200}],
)


def _play_demo_rounds(player, offering) -> None:
    """A few rounds through the real service (the OS CSPRNG draws), for the player's recall
    and replay pages and the audit report's figures, in one session of theirs, signed out
    after."""
    session, _ = session_start(user=player, channel=SessionChannel.PAGES, at=timezone.now())
    for number in range(DEMO_ROUNDS):
        round_play(
            player=player,
            session=session.pk,
            offering_id=offering.pk,
            wagers=DEMO_WAGERS[number % len(DEMO_WAGERS)],
            idempotency_key=f"demo-round-{number:03d}",
        )
    session_end(session, at=timezone.now())


DEMO_VOID_REASON = (
    "The table's random number generator was reported faulty during this round: a "
    "malfunction voids all pays and plays (§ 617a.6)"
)


def _propose_demo_void(supervisor, player) -> None:
    """A void of the player's first round, proposed by the holder's supervisor and waiting
    for a compliance officer (someone other than its proposer) to decide it."""
    first = Round.objects.filter(player=player).order_by("sequence").first()
    correction_propose(actor=supervisor, round_id=first.pk, kind="void", reason=DEMO_VOID_REASON)


def _seed_money(player, holders, payments) -> None:
    """The player's accounts (§ 812a.4): a demo deposit with each holder; at the first
    holder, a cash deposit taken at its cage, a withdrawal paid, one refused and one
    pending in its payments queue (§ 812a.10); at the second, one pending too; and a
    largest single wager the player chose (§ 814a.2)."""
    accounts = {}
    for licence, holder in holders.items():
        deposit = deposit_make(
            player=player, holder_id=holder.pk, amount=DEMO_BALANCE, method=DepositMethod.DEMO
        )
        accounts[licence] = deposit.account_id
    first, second = accounts.values()
    staff = payments
    deposit_record(
        actor=staff,
        account_id=first,
        amount=25_000,
        method=DepositMethod.CASH,
        reference="Cage receipt DEMO-0001",
    )
    paid = withdrawal_request(player=player, account_id=first, amount=20_000)
    withdrawal_pay(actor=staff, withdrawal_id=paid.pk, payout_reference="ACH DEMO-7781")
    refused = withdrawal_request(player=player, account_id=first, amount=90_000)
    withdrawal_refuse(
        actor=staff,
        withdrawal_id=refused.pk,
        reason="Identity check pending: bring a photo ID to the cage",
    )
    withdrawal_request(player=player, account_id=first, amount=5_000)
    withdrawal_request(player=player, account_id=second, amount=2_500)
    limit_set(player=player, account_id=first, kind=LimitKind.WAGER, value=50_000)


# A holder's terms and conditions, a paragraph each (shown to players with its line breaks).
TERMS_PARAGRAPHS = (
    "These are the terms and conditions of {holder} for Jinzi Roulette, the interactive game "
    "it offers in Pennsylvania. Read them before you deposit or play: you accept them, dated "
    "and timed in your account, before your first deposit or round with {holder}.",
    "You must be 21 or older and in Pennsylvania to play. You may hold one interactive gaming "
    "account with {holder}; a second account will be closed and its balance returned to you.",
    "Responsible gaming tools are in your account: deposit, spend and wager limits, a daily "
    "time limit, a pause of your own play, and self-exclusion. If gambling is a problem for "
    "you or someone you know, call 1-800-GAMBLER.",
    "To complain about a game, a payment or your account, write to {holder}'s customer "
    "service from your account: we answer within 10 days. If our answer does not settle it, "
    "you may take your complaint to the Pennsylvania Gaming Control Board.",
    "{holder} is licensed and regulated by the Pennsylvania Gaming Control Board.",
)


def _terms(holder, manager, officer):
    """The holder's terms and conditions for players (§ 811a.3), approved: the version
    players acknowledge (§ 812a.5)."""
    terms = terms_create(
        actor=manager,
        holder=holder,
        title=f"{holder.name} terms and conditions",
        body="\n\n".join(TERMS_PARAGRAPHS).format(holder=holder.name),
    )
    terms = terms_submit(actor=manager, terms=terms)
    return terms_approve(actor=officer, terms=terms)


def _seed_holder(holder, manager, officer):
    _terms(holder, manager, officer)
    layout = _layout(manager, holder, "Main floor layout", "approved", officer)
    paytable = _paytable(manager, holder, "Standard (§ 617b.8(f) minimum)", "approved", officer)
    rules = _rules(
        manager, holder, "Jinzi Roulette rules submission", "approved", officer, paytable, layout
    )
    offering = offering_create(
        actor=manager,
        holder=holder,
        name="Jinzi Table 1",
        rules_submission=rules,
        layout=layout,
        paytable=paytable,
    )
    return paytable, layout, offering


def _seed_statuses(holder, manager, officer) -> None:
    """One record in each workflow status but expired, for the dashboards and lists."""
    _layout(manager, holder, "High-limit room layout", "draft", officer)
    # § 617b.8(c) lets either colour follow 0: one draft shows a black-first wheel.
    _layout(manager, holder, "Garden room layout", "draft", officer, first_colour="black")
    _layout(manager, holder, "Mezzanine layout", "submitted", officer)
    _layout(manager, holder, "Terrace layout", "rejected", officer)
    _layout(manager, holder, "Poker room layout", "changes_requested", officer)
    old = _layout(manager, holder, "Lobby layout", "approved", officer)
    amended = layout_amend(actor=manager, layout=old)
    amended = layout_update(actor=manager, layout=amended, title="Lobby layout (2nd)")
    amended = layout_submit(actor=manager, layout=amended)
    layout_approve(
        actor=officer,
        layout=amended,
        reference_number="BGO-DEMO-LOBBY-2",
        effective_date=EFFECTIVE,
        expiry_date=_expires_in(LOBBY_DAYS),
    )  # supersedes v1; expires within 30 days, so it shows on the dashboard
    withdrawn = _layout(manager, holder, "Retired patio layout", "approved", officer)
    layout_withdraw(actor=officer, layout=withdrawn, reason="Patio closed")
    expiring = _layout(manager, holder, "Summer pop-up layout", "submitted", officer)
    layout_approve(
        actor=officer,
        layout=expiring,
        reference_number="BGO-DEMO-SUMMER",
        effective_date=datetime.date(2025, 7, 1),
        expiry_date=_expires_in(SUMMER_LAYOUT_DAYS),
    )  # came into the 30-day window 5 days ago: the dashboard marks it new
    _paytable(
        manager,
        holder,
        "Enhanced straight-up (draft)",
        "draft",
        officer,
        # 11¼ to 1: the house keeps an edge at the demo tables' $1 chips (23/2 would leave it
        # none on numbers 1-12, § 617b.8(f)); 2-cent stakes, rounded up, still leave none.
        _minimum_odds(straight="45/4"),
    )
    _paytable(
        manager,
        holder,
        "Player-favourable promo",
        "submitted",
        officer,
        _minimum_odds(straight="12"),
    )
    # The daily job, as of today (Pennsylvania date), as it runs at midnight: nothing the
    # demo approved today is due. Never run it as of a later day: that would show an
    # approval expired before its expiry date.
    records_expire_due()


@transaction.atomic
def seed_demo() -> list[tuple[str, str, str]]:
    """Create the demo data once; return (username, password, role) for every demo user."""
    ensure_role_groups()
    user_model = get_user_model()
    credentials = [
        (name, DEMO_PASSWORD, role.label if role else "Superuser") for name, role, _ in USERS
    ]
    if CertificateHolder.objects.filter(licence_number=HOLDERS[0][1]).exists():
        return credentials
    holders = {
        licence: holder_create(actor=None, name=name, licence_number=licence)
        for name, licence in HOLDERS
    }
    users = {}
    for username, role, licence in USERS:
        if role is None:
            users[username] = user_model.objects.create_superuser(
                username, f"{username}@example.com", DEMO_PASSWORD
            )
        else:
            users[username] = staff_user_create(
                actor=None,
                username=username,
                password=DEMO_PASSWORD,
                role=role,
                holder=holders.get(licence),
                # Emails are written to the console under `make run` (docs/notifications.md).
                email=f"{username}@example.com",
            )
            if role is Role.PLAYER:  # verified, so that `make run` plays at once (§ 812a.2)
                player_set_up_verified(player=users[username])
    first, second = holders.values()
    paytable, layout, table = _seed_holder(first, users["manager"], users["officer"])
    _seed_holder(second, users["manager2"], users["officer2"])
    _more_statuses(first, users["manager"], users["officer"], paytable, layout)
    _seed_statuses(first, users["manager"], users["officer"])
    for holder in holders.values():  # § 812a.5: the terms in force, accepted before any money
        in_force = terms_in_force(holder.pk)
        terms_accept(player=users["player"], holder_id=holder.pk, terms_id=in_force.pk)
    _seed_money(users["player"], holders, users["payments"])
    approve_demo_software(users["officer"], users["officer2"])  # § 461a.4: before any round
    _play_demo_rounds(users["player"], table)
    _propose_demo_void(users["supervisor"], users["player"])
    # One report of each kind already run (in-process without a broker; queued with one).
    report_run_request(actor=users["auditor"], kind=ReportKind.EXPIRY, parameters={}, via="page")
    today = {"start": pa_today().isoformat(), "end": pa_today().isoformat()}
    report_run_request(actor=users["auditor"], kind=ReportKind.AUDIT, parameters=today, via="page")
    return credentials
