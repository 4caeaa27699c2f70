"""Every URL in the URLconf, and one record of each kind to fill its arguments."""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import re
from dataclasses import dataclass

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver

from portal.access.roles import Role
from portal.accounts.tokens import api_token_issue
from portal.audit.models import AuditEvent
from portal.compliance.models import AvailabilityChange
from portal.compliance.services.software import software_approval_draft
from portal.compliance.services.terms import terms_amend
from portal.game.complaints.services import complaint_file
from portal.game.models import PlaySession
from portal.game.money.services.withdrawals import withdrawal_request
from portal.game.play.services import round_play
from portal.reports.render import write_json
from portal.reports.services.files import reports_dir
from portal.reports.services.runs import report_run_execute, report_run_request
from tests.portal.factories import (
    approved_offering,
    approved_terms,
    in_session,
    make_layout,
    make_paytable,
    make_rules,
    make_user,
)
from tests.portal.funding import wallet_top_up

ROLES = ("anonymous", "player", "auditor", "manager_a", "manager_b", "officer", "superuser")


@dataclass(frozen=True)
class Route:
    name: str
    pattern: str

    @property
    def is_admin(self) -> bool:
        return self.pattern.startswith("admin/")


def routes() -> list[Route]:
    found: list[Route] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                ns = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
                walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
            elif isinstance(pattern, URLPattern):
                name = f"{namespace}{pattern.name}" if pattern.name else f"<unnamed {pattern}>"
                found.append(Route(name, prefix + str(pattern.pattern)))

    walk(get_resolver().url_patterns, "", "")
    return found


def build_world(holder_a, holder_b, officer, manager_a, manager_b, auditor, superuser) -> dict:
    """holder_a's live table with a round played on it, and a draft of each record."""
    offering = approved_offering(manager_a, officer, holder_a)
    layout, paytable, rules = offering.layout, offering.paytable, offering.rules_submission
    player = make_user("player", Role.PLAYER)
    account = wallet_top_up(player=player, amount=10_000)
    session = in_session(player)
    round_obj = round_play(
        player=player,
        session=session,
        offering_id=offering.pk,
        wagers=[{"kind": "red", "stake": 200}],
        idempotency_key="world-round-1",
    ).round
    withdrawal = withdrawal_request(player=player, account_id=account.pk, amount=1_000)
    # The player's dispute about the round (reading:complaint-number), waiting for a handler.
    complaint = complaint_file(
        player=player, holder_id=holder_a.pk, kind="dispute", subject="Paid short",
        description="My red was paid short.", request="The difference.", rounds=[round_obj.pk],
    )  # fmt: skip
    # The holder's terms in force, and an amendment of them in draft (a holder keeps one
    # series of terms, § 811a.3); made after the world's player accepted none, so that
    # player is asked to accept them.
    terms = approved_terms(manager_a, officer, holder_a)
    draft_terms = terms_amend(actor=manager_a, terms=terms)
    return {
        "users": {
            "anonymous": None,
            "player": player,
            "auditor": auditor,
            "manager_a": manager_a,
            "manager_b": manager_b,
            "officer": officer,
            "superuser": superuser,
        },
        "layout": layout,
        "paytable": paytable,
        "rules": rules,
        "offering": offering,
        "round": round_obj,
        "session": PlaySession.objects.get(pk=session),  # the player's, the round's
        "account": account,
        "player_user": player,  # a player's file is found by the player's own id
        "withdrawal": withdrawal,
        "complaint": complaint,
        "holder": holder_a,
        "event": AuditEvent.objects.order_by("sequence").first(),
        "availability": AvailabilityChange.objects.get(offering=offering),
        "report_run": _report_run(auditor, holder_a),
        "token": api_token_issue(user=manager_a, name="World token")[0],
        "draft_layout": make_layout(manager_a, holder_a, title="Draft layout"),
        "draft_paytable": make_paytable(manager_a, holder_a, name="Draft paytable"),
        "draft_rules": make_rules(manager_a, holder_a, paytable, layout, title="Draft rules"),
        "terms": terms,
        "draft_terms": draft_terms,
        # A software approval drafted for another identity, its letter stored.
        "software_approval": software_approval_draft(
            actor=officer,
            digest="cd" * 32,
            software_version="0.0.9",
            lab_reference="BGLO-WORLD-1",
            approved_on=datetime.date(2026, 11, 2),
            document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 world", "application/pdf"),
        ),
    }


def _report_run(auditor, holder):
    """A finished expiry report about holder A (run here: the test's transaction never
    commits, so nothing is queued on commit), with a chart in its stored document."""
    run = report_run_request(
        actor=auditor, kind="expiry", parameters={"holder": holder.pk}, via="api"
    )[0]
    report_run_execute(run_id=run.pk)
    _add_chart(run)
    return run


# The expiry report draws no chart. Without one, the chart URL would answer 404 to every
# role, a row that passes just as well with no access check at all; with one, the walk sees
# that those who may see the run get the chart and manager B, of another holder, does not.
WORLD_CHART = {
    "key": "outcomes",
    "title": "Outcome frequency",
    "type": "bars",
    "x_title": "Number",
    "y_title": "Rounds",
    "labels": [str(number) for number in range(13)],
    "values": [1] + [0] * 12,
}


def _add_chart(run) -> None:
    """Rewrite the run's JSON file with ``WORLD_CHART`` added, as the worker writes it
    (same writer), and record its new size and SHA-256 so file and record still agree."""
    json_file = run.files.get(format="json")
    path = reports_dir() / json_file.name
    document = json.loads(path.read_bytes())
    document["charts"] = [WORLD_CHART]
    out = io.BytesIO()
    write_json(document, out)
    path.write_bytes(out.getvalue())
    json_file.size = len(out.getvalue())
    json_file.sha256 = hashlib.sha256(out.getvalue()).hexdigest()
    json_file.save(update_fields=["size", "sha256"])


_GROUP = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def concrete_path(route: Route, world: dict, args: dict[str, object]) -> str:
    """The route with its arguments filled from ``args``; regex routes lose their anchors."""

    def fill(match: re.Match) -> str:
        key = match.group(1) or match.group(2)
        return str(args[key])

    path = _GROUP.sub(fill, route.pattern)
    path = path.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
    return "/" + path
