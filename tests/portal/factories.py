"""Builders of records for the portal tests, each going through the real services."""

from __future__ import annotations

import datetime

from django.utils import timezone

from portal.access.roles import Role
from portal.accounts.services import staff_user_create
from portal.compliance.models import Layout, Offering, Paytable, RulesSubmission
from portal.compliance.services.layouts import layout_approve, layout_create, layout_submit
from portal.compliance.services.offerings import offering_create
from portal.compliance.services.paytables import paytable_approve, paytable_create, paytable_submit
from portal.compliance.services.rules import (
    GameListing,
    rules_submission_approve,
    rules_submission_create,
    rules_submission_submit,
)
from portal.players.services.registration import player_set_up_verified

PASSWORD = "correct-horse-battery-staple"
PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 64
STANDARD_ORDER = [0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6]
MINIMUM_ODDS = {
    "straight": 11,
    "split": 5,
    "street": 3,
    "corner": 2,
    "three_numbers": 3,
    "column": 2,
    "red": 1,
    "black": 1,
    "small": 1,
    "big": 1,
}
EFFECTIVE = datetime.date(2026, 1, 1)
EXPIRY = datetime.date(2028, 1, 1)


def png_upload(name: str = "layout.png"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, PNG_BYTES, content_type="image/png")


def events_written() -> int:
    """Audit events so far, leaving sign-ins out: a test client's sign-in (``force_login``)
    is recorded like any other, and is not what a refused request must not write."""
    from portal.audit.models import AuditEvent

    return AuditEvent.objects.exclude(action="auth.sign_in").count()


def sign_in(client, username: str, password: str = PASSWORD) -> None:
    """Sign in through the login page, as a person does (behind its lock-out)."""
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 302, f"sign-in of {username} failed: {response.status_code}"


def make_user(username: str, role: Role, holder=None):
    """A user in one role; a player is registered with a made-up identity, already verified
    (as the demo's players are), so that they may deposit and play."""
    user = staff_user_create(
        actor=None, username=username, password=PASSWORD, role=role, holder=holder
    )
    if role is Role.PLAYER:
        player_set_up_verified(player=user)
    return user


def make_layout(manager, holder, **overrides) -> Layout:
    fields = {"title": "Main floor layout", "wheel_order": STANDARD_ORDER, "artwork": png_upload()}
    fields.update(overrides)
    return layout_create(actor=manager, holder=holder, **fields)


def approved_layout(manager, officer, holder, **overrides) -> Layout:
    layout = layout_submit(actor=manager, layout=make_layout(manager, holder, **overrides))
    return layout_approve(
        actor=officer,
        layout=layout,
        reference_number="BGO-2026-0001",
        effective_date=EFFECTIVE,
        expiry_date=EXPIRY,
    )


def make_paytable(manager, holder, odds=None, name="Standard") -> Paytable:
    return paytable_create(actor=manager, holder=holder, name=name, odds=odds or MINIMUM_ODDS)


def approved_paytable(manager, officer, holder) -> Paytable:
    paytable = paytable_submit(actor=manager, paytable=make_paytable(manager, holder))
    return paytable_approve(actor=officer, paytable=paytable)


def listing(paytable, layout, **overrides):
    values = {
        "paytable": paytable,
        "layout": layout,
        "chip_unit": 100,
        "min_wager": 100,
        "max_wager": 50_000,
        "max_round_stake": 200_000,
    }
    values.update(overrides)
    return GameListing(**values)


def make_rules(manager, holder, paytable, layout, **overrides) -> RulesSubmission:
    fields = {
        "title": "Jinzi Roulette rules",
        "games": [listing(paytable, layout)],
        "effective_date": EFFECTIVE,
        "expiry_date": EXPIRY,
    }
    fields.update(overrides)
    return rules_submission_create(actor=manager, holder=holder, **fields)


def approved_rules(manager, officer, holder, paytable, layout) -> RulesSubmission:
    """An approved rules submission listing ``paytable`` and ``layout``: a table may run on
    it, on the game software this process runs, approved too."""
    approve_running_software(officer)
    rules = make_rules(manager, holder, paytable, layout)
    rules = rules_submission_submit(actor=manager, submission=rules)
    return rules_submission_approve(actor=officer, submission=rules)


def approve_running_software(recorded_by):
    """The Board's approval of the software this process runs (reading:software-approval),
    as the tests' builders record it so their tables play: written as it stands, once.
    The approval's own service, four-eyes and audit events are tested on their own."""
    from portal.core.software import running_identity
    from portal.software.models import SoftwareApproval, SoftwareApprovalStatus

    identity = running_identity()
    found = SoftwareApproval.objects.filter(
        digest=identity.digest, status=SoftwareApprovalStatus.APPROVED
    ).first()
    if found is not None:
        return found
    return SoftwareApproval.objects.create(
        digest=identity.digest,
        software_version=identity.version,
        lab_reference="BGLO-TEST-1",
        approved_on=datetime.date(2025, 6, 1),
        document="software/approvals/test-approval.pdf",
        document_sha256="0" * 64,
        status=SoftwareApprovalStatus.APPROVED,
        created_by=recorded_by,
        decided_by=recorded_by,
        decided_at=timezone.now(),
    )


def make_offering(manager, holder, rules, layout, paytable, name="Table 1") -> Offering:
    approve_running_software(manager)
    return offering_create(
        actor=manager,
        holder=holder,
        name=name,
        rules_submission=rules,
        layout=layout,
        paytable=paytable,
    )


def approved_offering(manager, officer, holder, name="Table 1") -> Offering:
    """A live table: approved layout, paytable and rules submission listing them."""
    layout = approved_layout(manager, officer, holder)
    paytable = approved_paytable(manager, officer, holder)
    rules = approved_rules(manager, officer, holder, paytable, layout)
    return make_offering(manager, holder, rules, layout, paytable, name=name)


def offering_in_force(manager, officer, holder, *, effective, expiry, layout_expiry=None):
    """A table whose layout and rules submission are approved from ``effective`` to
    ``expiry`` (Pennsylvania dates); the layout may lapse earlier, on ``layout_expiry``."""
    layout = layout_submit(actor=manager, layout=make_layout(manager, holder))
    layout = layout_approve(
        actor=officer,
        layout=layout,
        reference_number="BGO-DATED-0001",
        effective_date=effective,
        expiry_date=layout_expiry or expiry,
    )
    paytable = approved_paytable(manager, officer, holder)
    rules = make_rules(
        manager, holder, paytable, layout, effective_date=effective, expiry_date=expiry
    )
    rules = rules_submission_submit(actor=manager, submission=rules)
    rules = rules_submission_approve(actor=officer, submission=rules)
    return make_offering(manager, holder, rules, layout, paytable)


def approved_terms(manager, officer, holder, body: str = "Play responsibly. 21 and over."):
    """The holder's terms and conditions in force (§ 811a.3): drafted, submitted, approved."""
    from portal.compliance.services.terms import terms_approve, terms_create, terms_submit

    terms = terms_create(actor=manager, holder=holder, title="House terms", body=body)
    terms = terms_submit(actor=manager, terms=terms)
    return terms_approve(actor=officer, terms=terms)


def in_session(player, public_id=None) -> int:
    """The id of a player session of ``player`` running now (every round is played in one,
    § 812a.9(a)(5)): a new one, begun this instant (with ``public_id``, if given)."""
    from django.utils import timezone

    from portal.game.models import PlaySession, SessionChannel
    from portal.game.sessions.lifecycle import new_public_id

    now = timezone.now()
    return PlaySession.objects.create(
        user=player,
        public_id=public_id or new_public_id(),
        channel=SessionChannel.PAGES,
        started_at=now,
        last_activity_at=now,
    ).pk


def signed_in_api(player, password: str = PASSWORD):
    """An API client of ``player`` as a script is one: signed in with ``POST /api/sessions/``
    (§ 812a.3(a)(6)), then sending a bearer token of theirs."""
    from rest_framework.test import APIClient

    from portal.accounts.tokens import api_token_issue

    client = APIClient()
    answer = client.post(
        "/api/sessions/",
        {"username": player.get_username(), "password": password},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    _, secret = api_token_issue(user=player, name="tests", days=1)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    client.session_id = answer.json()["session"]
    return client


def finding_on(round_id, officer=None) -> int:
    """A compliance officer's written payout finding on the round, the recorded payout
    error an adjustment of it rests on (reading:adjustment-grounds); by ``officer``, or the
    first compliance officer there is."""
    from django.contrib.auth import get_user_model

    from portal.game.corrections.services import payout_finding_record

    if officer is None:
        officer = (
            get_user_model()
            .objects.filter(groups__name=Role.COMPLIANCE.value)
            .order_by("pk")
            .first()
        ) or make_user("finder", Role.COMPLIANCE)
    round_id = getattr(round_id, "pk", round_id)
    finding = payout_finding_record(
        actor=officer, round_id=round_id, text="The round was paid at the wrong odds."
    )
    return finding.pk


def acknowledged(record) -> str:
    """The fingerprint of the wagers approving ``record`` would leave at a house edge of zero
    or less (reading:edge-acknowledgement), as the decision panel's box sends it back."""
    from portal.compliance.zero_edges import zero_edges_of

    return zero_edges_of(record).fingerprint
