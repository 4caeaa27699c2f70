"""Every API operation, fuzzed from the schema the portal serves, for every role.

The OpenAPI document is read from ``/api/schema/`` itself (drf-spectacular), and every
operation in it is called with requests that schemathesis generates from it: valid ones
(``POSITIVE``) and ones that break the schema (``NEGATIVE``), signed in with a bearer API
token as a player, an auditor, a manager, payments staff, a holder's supervisor, a
compliance officer and a superuser. Half of the requests name real records in their path (a
live table, its approved layout, paytable and rules submission, a draft of each, a round, a
void of it waiting for a decision, a report run…) and, when valid, in their
body, so they reach the views' real work rather than stopping at a 404.

No answer may be a 5xx; each must have a status code the schema documents for the
operation, with a documented content type and a body that matches the documented schema.

The requests go through the WSGI application (``portal.wsgi.application``: every
middleware, the exception handler, the 500 page) on the test's own connection, so the
test's transaction holds every write and rolls them back at the end; nothing queued on
commit (a report run) runs meanwhile. The requests are drawn from a fixed seed: CI sends
the same ones on every run. The database grows from request to request, as it would."""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import contextmanager

import hypothesis
import pytest
import schemathesis
from django.core.signals import got_request_exception, request_finished, request_started
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from portal.access.roles import Role, has_role
from portal.accounts.models import ApiToken
from portal.accounts.tokens import api_token_issue
from portal.game.corrections.services import correction_propose
from portal.game.models import GamingAccount, PlaySession, SessionChannel
from portal.game.money.services.withdrawals import withdrawal_request
from portal.game.sessions.lifecycle import session_start
from portal.wsgi import application
from tests.portal.access.world import build_world
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

ROLES = ("player", "auditor", "manager_a", "payments_a", "supervisor_a", "officer", "superuser")
POSITIVE, NEGATIVE = GenerationMode.POSITIVE, GenerationMode.NEGATIVE
PROBE = 5
SEED = 617  # fixed: CI sends the same requests on every run
EXAMPLES = {POSITIVE: 20, NEGATIVE: 10}

# The checks, and why only these: a server error is always a bug, and an answer the
# schema does not describe (status, content type, headers, body) misleads every client
# built from it. Schemathesis's "positive data accepted" check is left out because a schema
# cannot say that a paytable's odds must meet § 617b.8(f), that a draft is submitted only
# once, or which role may act: valid-looking requests are rightly refused (400, 403, 409).
# Its "negative data rejected" check is left out because it also fails DRF's deliberate
# leniencies (an empty ``?page=`` is page 1, a number sent for a text field is read as
# text); the negative requests still must not cause a 5xx or an undocumented answer.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

# Which world record fills the {id} of each resource's paths.
RECORDS_FOR = {
    "holders": ("holder", "other_holder"),
    "layouts": ("layout", "draft_layout"),
    "paytables": ("paytable", "draft_paytable"),
    "rules-submissions": ("rules", "draft_rules"),
    "offerings": ("offering",),
    "audit-events": ("event",),
    "availability": ("availability",),
    "reports": ("report_run",),
    "rounds": ("round",),
    "tokens": ("token",),
    "accounts": ("account", "other_account"),
    "withdrawals": ("withdrawal", "other_withdrawal"),
    "corrections": ("correction",),
    "terms": ("terms", "draft_terms"),
    "sessions": ("session",),
    "complaints": ("complaint",),
    "software-approvals": ("software_approval",),
}
REPORT_FORMATS = ("json", "csv", "xlsx", "pdf", "parquet")


@pytest.fixture
def requests_on_the_test_connection() -> Iterator[None]:
    """Serve requests through the WSGI handler without closing the test's connection.

    Django closes stale connections when a request starts and finishes; here that would
    close the connection that holds the test's transaction (Django's own test client
    disconnects the same receivers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@contextmanager
def server_errors() -> Iterator[list[str]]:
    """The tracebacks of the exceptions the handler turned into 500s, to name the bug."""
    seen: list[str] = []

    def record(sender, request=None, **kwargs) -> None:
        seen.append(traceback.format_exc())

    got_request_exception.connect(record)
    try:
        yield seen
    finally:
        got_request_exception.disconnect(record)


class Bearer:
    """The role's token, issued again if a fuzzed DELETE /api/tokens/{id}/ revoked it."""

    def __init__(self, user) -> None:
        self.user = user
        self._issue()

    def _issue(self) -> None:
        self.token, self.secret = api_token_issue(user=self.user, name="Schema fuzzing")

    def headers(self) -> dict[str, str]:
        if not ApiToken.objects.filter(pk=self.token.pk, revoked_at=None).exists():
            self._issue()
        # A player's token works inside a running API session (§ 812a.3(a)(6)): begun again
        # if a fuzzed POST /api/sessions/{id}/end/ ended it.
        if (
            has_role(self.user, Role.PLAYER)
            and not PlaySession.objects.filter(
                user=self.user, channel=SessionChannel.API, ended_at=None
            ).exists()
        ):
            session_start(user=self.user, channel=SessionChannel.API, at=timezone.now())
        return {"Authorization": f"Bearer {self.secret}"}


@pytest.fixture
def world(
    holder_a, holder_b, officer, manager_a, manager_b, auditor, superuser, payments_a, supervisor_a
):
    world = build_world(holder_a, holder_b, officer, manager_a, manager_b, auditor, superuser)
    world["other_holder"] = holder_b
    world["users"]["payments_a"] = payments_a
    world["users"]["supervisor_a"] = supervisor_a
    # A void of the world's round waiting for a decision (§ 617a.6), proposed by its
    # holder's supervisor: anyone else allowed may approve or reject it.
    if "correction" not in world:
        world["correction"] = correction_propose(
            actor=supervisor_a,
            round_id=world["round"].pk,
            kind="void",
            reason="The draw repeated a segment",
        )
    # The player's account with holder A and a pending withdrawal from it; another player's
    # at holder B, which none but its player and that holder's staff may see.
    player = world["users"]["player"]
    if "account" not in world:
        world["account"] = GamingAccount.objects.get(player=player, holder=holder_a)
    if "withdrawal" not in world:
        world["withdrawal"] = withdrawal_request(
            player=player, account_id=world["account"].pk, amount=1_000
        )
    other = make_user("other_player", Role.PLAYER)
    wallet_top_up(player=other, amount=5_000, holder=holder_b)
    world["other_account"] = GamingAccount.objects.get(player=other)
    world["other_withdrawal"] = withdrawal_request(
        player=other, account_id=world["other_account"].pk, amount=1_000
    )
    return world


def real_ids(operation, world: dict, user) -> st.SearchStrategy[dict]:
    """Path parameters that name real records of the operation's resource."""
    names = {p.name for p in operation.path_parameters}
    if not names:
        return st.just({})
    resource = operation.path.split("/")[2]
    records = [world[key] for key in RECORDS_FOR[resource]]
    if resource == "tokens":
        records.append(api_token_issue(user=user, name="Spare token")[0])
    if "public_id" in names:  # a player session, named by its public id
        fixed = {"public_id": st.sampled_from(sorted(str(r.public_id) for r in records))}
    else:
        fixed = {"id": st.sampled_from(sorted({record.pk for record in records}))}
    if "fmt" in names:
        fixed["fmt"] = st.sampled_from(REPORT_FORMATS)
    return st.fixed_dictionaries(fixed)


# Ids in request bodies that name records: a real one in half of the valid bodies, so a
# round is played on the live table and a rules submission lists real records.
BODY_RECORDS = {"offering": "offering", "paytable": "paytable", "layout": "layout"}
BODY_RECORDS |= {"holder": "holder", "round": "round"}


def cases(operation, mode: GenerationMode, world: dict, user) -> st.SearchStrategy:
    """Generated requests; in half of them, real records in the path (and in valid bodies)."""

    def aim(drawn):
        case, use_real, path = drawn
        if use_real:
            case.path_parameters.update(path)
            if mode is POSITIVE and isinstance(case.body, dict):
                for field, key in BODY_RECORDS.items():
                    if isinstance(case.body.get(field), int):
                        case.body[field] = world[key].pk
        return case

    drawn = st.tuples(
        operation.as_strategy(generation_mode=mode), st.booleans(), real_ids(operation, world, user)
    )
    return drawn.map(aim)


def fuzz(strategy, examples: int, seed: int, bearer: Bearer) -> set[int]:
    """Send ``examples`` requests drawn from ``strategy``; the statuses they got."""
    statuses: set[int] = set()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        # No shrinking: every example is a real request through the portal, and shrinking a
        # failure would repeat them for minutes; the fixed seed replays the failing draw.
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @hypothesis.seed(seed)
    @given(case=strategy)
    def run(case) -> None:
        response = case.call(app=application, headers=bearer.headers())
        statuses.add(response.status_code)
        case.validate_response(response, checks=CHECKS)

    run()
    return statuses


@pytest.mark.parametrize("role", ROLES)
def test_every_operation_answers_as_its_schema_says(role, world, requests_on_the_test_connection):
    user = world["users"][role]
    bearer = Bearer(user)
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/?format=json", application, headers=bearer.headers()
    )
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        with server_errors() as tracebacks:
            try:
                # The policy refuses a role before the request is read: once a few
                # requests all answer 403, more of them would only test that gate again.
                valid = cases(operation, POSITIVE, world, user)
                if fuzz(valid, PROBE, SEED, bearer) == {403}:
                    continue
                fuzz(valid, EXAMPLES[POSITIVE] - PROBE, SEED + 1, bearer)
                fuzz(cases(operation, NEGATIVE, world, user), EXAMPLES[NEGATIVE], SEED, bearer)
            except (Exception, BaseExceptionGroup) as error:  # every operation is tried
                failures.append(f"{role} {operation.label}: {error}\n" + "".join(tracebacks[-1:]))
    assert not failures, f"{len(failures)} failing operation(s):\n\n" + "\n\n".join(failures)
