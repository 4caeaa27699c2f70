"""Every URL in the URLconf, for every role and an anonymous visitor, answers as expected.

A view added without an entry here fails this test, so nothing ships unguarded. Each
entry gives the status codes for GET and for POST (an empty JSON body), one per role in
this order: anonymous, player, auditor, manager_a, manager_b (another holder),
officer (compliance), superuser. Objects in the URLs belong to holder_a.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType

from tests.portal.access.world import ROLES, WORLD_CHART, concrete_path, routes

# Which world object fills a route's <pk>, by route-name prefix (first match wins).
OBJECT_FOR = (
    ("accounts:api-token", "token"),
    ("api-token", "token"),
    ("compliance:layout-edit", "draft_layout"),
    ("compliance:paytable-edit", "draft_paytable"),
    ("compliance:rules-edit", "draft_rules"),
    ("compliance:layout", "layout"),
    ("compliance:paytable", "paytable"),
    ("compliance:terms-edit", "draft_terms"),
    ("compliance:terms", "terms"),
    ("compliance:rules", "rules"),
    ("filings:package", "rules"),
    ("compliance:offering", "offering"),
    ("compliance:software-d", "software_approval"),
    ("software-approval-", "software_approval"),
    ("game:terms", "holder"),
    ("game:table", "offering"),
    ("game:round", "round"),
    ("game:replay", "round"),
    ("game:statement", "account"),
    ("game:player-account", "account"),
    ("game:withdrawal", "withdrawal"),
    ("game:correction", "correction"),
    ("game:complaint", "complaint"),
    ("complaint-", "complaint"),
    ("players:identity", "player_user"),
    ("correction-", "correction"),
    ("account-", "account"),
    ("withdrawal-", "withdrawal"),
    ("layout", "layout"),
    ("paytable", "paytable"),
    ("terms", "terms"),
    ("rules-submission", "rules"),
    ("offering", "offering"),
    ("holder", "holder"),
    ("audit-event", "event"),
    ("audit:event-detail", "event"),
    ("availability", "availability"),
    ("reports:run", "report_run"),
    ("report-run", "report_run"),
    ("round", "round"),
)

#         anon player auditor mgr_a mgr_b officer super
EXPECTED: dict[str, tuple[str, str]] = {
    "home": ("200 302 302 302 302 302 302", "405 405 405 405 405 405 405"),
    "healthz": ("200 200 200 200 200 200 200", "405 405 405 405 405 405 405"),
    "favicon": ("302 302 302 302 302 302 302", "405 405 405 405 405 405 405"),
    # Prometheus's text, for the bearer of the metrics token only: no session opens it.
    "metrics": ("401 401 401 401 401 401 401", "401 401 401 401 401 401 401"),
    "login": ("200 200 200 200 200 200 200", "200 200 200 200 200 200 200"),
    "logout": ("405 405 405 405 405 405 405", "302 302 302 302 302 302 302"),
    # Portal pages: sign-in redirect (302), wrong role 403, another holder's record 404.
    # A record's workflow steps post to its own page, naming the step: none named is a 400.
    # The API tokens page: one's own; the world's token is manager_a's (the superuser
    # finds it already revoked by manager_a, who came first).
    "accounts:api-tokens": ("302 200 200 200 200 200 200", "302 400 400 400 400 400 400"),
    "accounts:api-token-revoke": ("302 405 405 405 405 405 405", "302 404 404 302 404 404 409"),
    "compliance:dashboard": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "compliance:mine": ("302 403 403 200 200 403 200", "302 405 405 405 405 405 405"),
    "compliance:layout-list": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "compliance:layout-create": ("302 403 403 200 200 403 200", "302 403 403 400 400 403 400"),
    "compliance:layout-detail": ("302 404 200 200 404 200 200", "302 404 400 400 404 400 400"),
    "compliance:layout-edit": ("302 404 403 200 404 403 200", "302 404 403 400 404 403 400"),
    "compliance:layout-artwork": ("302 404 200 200 404 200 200", "302 405 405 405 405 405 405"),
    # The layout's schematic and wheel pictures (SVG): whoever may see the layout.
    "compliance:layout-schematic-svg": (
        "302 404 200 200 404 200 200",
        "302 405 405 405 405 405 405",
    ),
    "compliance:layout-wheel-svg": ("302 404 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "compliance:paytable-list": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "compliance:paytable-create": ("302 403 403 200 200 403 200", "302 403 403 400 400 403 400"),
    "compliance:paytable-preview": ("302 405 405 405 405 405 405", "302 403 403 200 200 403 200"),
    "compliance:paytable-detail": ("302 404 200 200 404 200 200", "302 404 400 400 404 400 400"),
    "compliance:paytable-par-csv": ("302 404 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "compliance:paytable-par-json": ("302 404 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "compliance:paytable-par-pdf": ("302 404 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "compliance:paytable-edit": ("302 404 403 200 404 403 200", "302 404 403 400 404 403 400"),
    "compliance:terms-list": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "compliance:terms-create": ("302 403 403 200 200 403 200", "302 403 403 400 400 403 400"),
    "compliance:terms-detail": ("302 404 200 200 404 200 200", "302 404 400 400 404 400 400"),
    "compliance:terms-edit": ("302 404 403 200 404 403 200", "302 404 403 400 404 403 400"),
    "game:terms": ("302 200 403 403 403 403 403", "302 400 403 403 403 403 403"),
    "compliance:rules-list": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "compliance:rules-create": ("302 403 403 200 200 403 200", "302 403 403 400 400 403 400"),
    "compliance:rules-detail": ("302 404 200 200 404 200 200", "302 404 400 400 404 400 400"),
    # Building the filing package queues a run (302 to it); another holder's submission 404.
    "filings:package": ("302 404 200 200 404 200 200", "302 404 302 302 404 302 302"),
    "compliance:rules-edit": ("302 404 403 200 404 403 200", "302 404 403 400 404 403 400"),
    "compliance:offering-list": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "compliance:offering-create": ("302 403 403 200 200 403 200", "302 403 403 400 400 403 400"),
    "compliance:offering-listed": ("302 403 403 200 200 403 200", "302 405 405 405 405 405 405"),
    "compliance:offering-detail": ("302 404 200 200 404 200 200", "302 404 400 400 404 400 400"),
    "compliance:offering-edit": ("302 404 403 200 404 403 200", "302 404 403 400 404 403 400"),
    "audit:event-list": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "audit:event-export": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "audit:event-detail": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "compliance:software-list": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "compliance:software-new": ("302 403 403 403 403 200 200", "302 403 403 403 403 400 400"),
    "compliance:software-detail": ("302 403 200 403 403 200 200", "302 403 403 403 403 400 400"),
    "compliance:software-document": (
        "302 403 200 403 403 200 200",
        "302 405 405 405 405 405 405",
    ),
    "compliance:availability-list": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "compliance:availability-export": (
        "302 403 200 403 403 200 200",
        "302 405 405 405 405 405 405",
    ),
    # The Software Installation/Removal Log (§ 811a.7(e)): auditors and compliance officers.
    "software:installation-list": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "software:installation-export": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    # One's own account: the password and the second factor (not required in this world,
    # JINZI_REQUIRE_2FA=0, so its set-up and code pages send everyone back).
    "accounts:password-change": ("302 200 200 200 200 200 200", "302 400 400 400 400 400 400"),
    "accounts:second-factor": ("302 200 200 200 200 200 200", "302 405 405 405 405 405 405"),
    # A player may set up a second factor by choice (§ 812a.3(a)(3)); nobody else here must.
    "accounts:second-factor-setup": ("302 200 302 302 302 302 302", "302 400 302 302 302 302 302"),
    "accounts:second-factor-verify": ("302 302 302 302 302 302 302", "302 302 302 302 302 302 302"),
    "accounts:recovery-codes-renew": ("302 405 405 405 405 405 405", "302 302 302 302 302 302 302"),
    "accounts:second-factor-remove": ("302 405 405 405 405 405 405", "302 302 302 302 302 302 302"),
    "audit:verify": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "audit:records": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "game:tables": ("302 200 403 403 403 403 403", "302 405 405 405 405 405 405"),
    # A POST acknowledges the notice the next round waits on (§ 814a.1): the player's, with
    # no notice number given, is refused as such.
    # Tables suspended while checked (reading:table-suspension): officers and a holder's
    # supervisors; a POST that says nothing is refused as such.
    "game:table-checks": ("302 403 403 403 403 200 200", "302 403 403 403 403 400 400"),
    "game:table": ("302 200 403 403 403 403 403", "302 400 403 403 403 403 403"),
    "game:history": ("302 200 403 403 403 403 403", "302 405 405 405 405 405 405"),
    # A round's record is where a void or an adjustment is proposed (§ 617a.6,
    # § 812a.7(a)(9)): a POST naming none is a 400 to whoever may correct the round, a 403
    # to anyone else who sees it (the player, an auditor).
    "game:round": ("302 200 200 403 403 200 200", "302 403 403 403 403 400 400"),
    "game:replay-last": ("302 200 403 403 403 403 403", "302 405 405 405 405 405 405"),
    "game:replay": ("302 200 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "game:round-list": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "game:verify-rounds": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    # Voids and adjustments: compliance and auditors every holder's (auditors read only),
    # a holder's supervisors their own (none in this world). The world's void waits for a
    # decision; a decision naming no step is a 400, before any role is asked.
    "game:corrections": ("302 403 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "game:correction": ("302 403 200 403 403 200 200", "302 403 400 403 403 400 400"),
    # The player's accounts (Chapter 812a): the world's player's account is with holder A,
    # with a pending withdrawal. Its forms post to its page, naming what they do: none
    # named is a 400. The payments queue is payments staff's (none in this world) and the
    # superuser's; the holder's accounts are its managers', compliance's and auditors'.
    "game:account": ("302 200 403 403 403 403 403", "302 400 403 403 403 403 403"),
    "game:statement": ("302 200 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "game:payments": ("302 403 403 403 403 403 200", "302 405 405 405 405 405 405"),
    "game:withdrawal": ("302 403 200 200 404 200 200", "302 403 400 400 404 400 400"),
    "game:player-accounts": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "game:player-account": ("302 403 200 200 404 200 200", "302 403 400 400 404 400 400"),
    "players:register": ("200 302 302 302 302 302 302", "400 302 302 302 302 302 302"),
    "players:welcome": ("302 200 403 403 403 403 403", "302 405 405 405 405 405 405"),
    "players:waiting": ("302 403 403 403 403 200 200", "302 405 405 405 405 405 405"),
    "players:exclude": ("302 200 403 403 403 403 403", "302 400 403 403 403 403 403"),
    "players:identity": ("302 200 200 404 404 200 200", "302 403 403 404 404 400 400"),
    "players:list": ("302 403 200 403 403 200 200", "302 403 403 403 403 400 400"),
    "players:reviews": ("302 403 200 403 403 200 200", "302 403 403 403 403 400 400"),
    # API: anonymous 403, wrong role 403 before the body is read, another holder's 404.
    "api-root": ("403 200 200 200 200 200 200", "403 405 405 405 405 405 405"),
    "api-schema": ("403 200 200 200 200 200 200", "403 405 405 405 405 405 405"),
    # The docs are a page: signed out, GET is sent to sign in and back.
    "api-docs": ("302 200 200 200 200 200 200", "403 405 405 405 405 405 405"),
    "round-list": ("403 200 200 403 403 200 200", "403 400 403 403 403 403 403"),
    "round-detail": ("403 200 200 403 403 200 200", "403 405 405 405 405 405 405"),
    # Complaints (reading:complaint-number): a player's own, the holder's supervisors and the
    # officers handle them, auditors read the log; managers have none.
    "game:complaints": ("302 200 200 403 403 200 200", "302 405 405 405 405 405 405"),
    "game:complaint-new": ("302 200 403 403 403 403 403", "302 400 403 403 403 403 403"),
    "game:complaint": ("302 200 200 403 403 200 200", "302 403 403 403 403 400 400"),
    "complaint-list": ("403 200 200 403 403 200 200", "403 400 403 403 403 403 403"),
    "complaint-detail": ("403 200 200 403 403 200 200", "403 405 405 403 403 405 405"),
    "complaint-take": ("403 405 405 403 403 405 405", "403 403 403 403 403 200 200"),
    "complaint-note": ("403 405 405 403 403 405 405", "403 403 403 403 403 400 400"),
    "complaint-close": ("403 405 405 403 403 405 405", "403 403 403 403 403 400 400"),
    # A payout finding on a round (reading:adjustment-grounds): compliance officers only;
    # an empty body is refused as such.
    "round-findings": ("403 405 405 405 405 405 405", "403 403 403 403 403 400 400"),
    "wallet-list": ("403 200 403 403 403 403 403", "403 405 405 405 405 405 405"),
    "wallet-top-up": ("403 405 405 405 405 405 405", "403 400 403 403 403 403 403"),
    # The player's accounts and withdrawals (Chapter 812a): a player's own, the holder's
    # staff theirs, compliance and auditors every holder's. A player's own movements need
    # the body (400); staff's need their role (payments staff are not in this world; the
    # superuser may pay and record deposits, 400 for the empty body). Cancelling needs no
    # body: the player's POST cancels the world's pending withdrawal.
    "account-list": ("403 200 200 200 200 200 200", "403 405 405 405 405 405 405"),
    "account-detail": ("403 200 200 200 404 200 200", "403 405 405 405 405 405 405"),
    "account-entries": ("403 200 200 200 404 200 200", "403 405 405 405 405 405 405"),
    "account-deposit": ("403 405 405 405 405 405 405", "403 400 403 403 403 403 403"),
    "account-withdraw": ("403 405 405 405 405 405 405", "403 400 403 403 403 403 403"),
    "account-limits": ("403 405 405 405 405 405 405", "403 400 403 403 403 403 403"),
    "account-limits-confirm": ("403 405 405 405 405 405 405", "403 400 403 403 403 403 403"),
    "account-pause": ("403 405 405 405 405 405 405", "403 400 403 403 403 403 403"),
    "account-deposits": ("403 405 405 405 405 405 405", "403 403 403 403 403 403 400"),
    "account-status": ("403 405 405 405 405 405 405", "403 403 403 400 404 400 400"),
    "withdrawal-list": ("403 200 200 200 200 200 200", "403 405 405 405 405 405 405"),
    "withdrawal-detail": ("403 200 200 200 404 200 200", "403 405 405 405 405 405 405"),
    "withdrawal-cancel": ("403 405 405 405 405 405 405", "403 200 403 403 403 403 403"),
    "withdrawal-pay": ("403 405 405 405 405 405 405", "403 403 403 403 403 403 400"),
    "withdrawal-refuse": ("403 405 405 405 405 405 405", "403 403 403 403 403 403 400"),
    # Voids and adjustments (§ 617a.6, § 812a.7(a)(9)): a player reads those of their own
    # rounds, compliance and auditors every holder's; managers none. The world's void
    # waits: the officer's approval (no reason needed) is taken, the superuser's then finds
    # it decided; a rejection needs its reason (400). A proposal needs its body (400).
    "correction-list": ("403 200 200 403 403 200 200", "403 403 403 403 403 400 400"),
    "correction-detail": ("403 200 200 403 403 200 200", "403 405 405 405 405 405 405"),
    "correction-approve": ("403 405 405 405 405 405 405", "403 403 403 403 403 200 409"),
    "correction-reject": ("403 405 405 405 405 405 405", "403 403 403 403 403 400 400"),
    "holder-list": ("403 403 200 200 200 200 200", "403 403 403 403 403 403 400"),
    "holder-detail": ("403 403 200 200 404 200 200", "403 403 405 405 405 405 405"),
    "offering-list": ("403 200 200 200 200 200 200", "403 403 403 400 400 403 400"),
    "offering-detail": ("403 200 200 200 404 200 200", "403 405 405 405 405 405 405"),
    "offering-retire": ("403 405 405 405 405 405 405", "403 403 403 400 404 403 400"),
    # A table suspended or reopened (reading:table-suspension): officers and the holder's
    # supervisors. The empty body gives no reason (400); the world's table is not suspended,
    # so reopening it is refused first (409).
    "offering-suspend": ("403 405 405 405 405 405 405", "403 403 403 403 403 400 400"),
    "offering-reopen": ("403 405 405 405 405 405 405", "403 403 403 403 403 409 409"),
    "api-token-list": ("403 200 200 200 200 200 200", "403 400 400 400 400 400 400"),
    "api-token-detail": ("403 404 404 200 404 404 404", "403 405 405 405 405 405 405"),
    "audit-event-list": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "audit-event-detail": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "audit-event-export": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    # The world's approval was drafted by the officer (four-eyes: 403) for software nobody
    # runs (the superuser's approval: 409); a reason is needed to reject (400).
    "software-approval-list": ("403 403 200 403 403 200 200", "403 403 403 403 403 400 400"),
    "software-approval-detail": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "software-approval-approve": ("403 403 405 403 403 405 405", "403 403 403 403 403 403 409"),
    "software-approval-reject": ("403 403 405 403 403 405 405", "403 403 403 403 403 403 400"),
    "software-approval-withdraw": ("403 403 405 403 403 405 405", "403 403 403 403 403 409 409"),
    "availability-list": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "availability-detail": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "availability-export": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "software-installation-list": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "software-installation-export": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "audit-event-verify": ("403 403 200 403 403 200 200", "403 403 405 403 403 405 405"),
    "regulation:matrix": ("302 403 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "regulation-list": ("403 403 200 200 200 200 200", "403 403 405 405 405 405 405"),
    # The identity of the game software running (§ 461a.4): read by every back-office role.
    "software-identity-list": ("403 403 200 200 200 200 200", "403 403 405 405 405 405 405"),
    # The world's report run is about holder A: manager B neither sees nor downloads it.
    # Amend a rules submission to use a newer version: manager_a's, which lists it already.
    "compliance:rules-amend-to-use": ("302 405 405 405 405 405 405", "302 404 403 409 404 403 409"),
    "notifications:inbox": ("302 200 200 200 200 200 200", "302 405 405 405 405 405 405"),
    "notifications:read": ("302 405 405 405 405 405 405", "302 404 404 404 404 404 404"),
    "notifications:read-all": ("302 405 405 405 405 405 405", "302 302 302 302 302 302 302"),
    "notifications:preferences": ("302 200 200 200 200 200 200", "302 302 302 302 302 302 302"),
    "reports:run-list": ("302 403 200 200 200 200 200", "302 403 400 400 400 400 400"),
    "reports:run-detail": ("302 403 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "reports:run-retry": ("302 405 405 405 405 405 405", "302 403 409 409 404 409 409"),
    "reports:run-file": ("302 403 200 200 404 200 200", "302 405 405 405 405 405 405"),
    # The world's run has a chart in its stored document (world.WORLD_CHART, "outcomes").
    "reports:run-chart": ("302 403 200 200 404 200 200", "302 405 405 405 405 405 405"),
    "report-run-list": ("403 403 200 200 200 200 200", "403 403 400 400 400 400 400"),
    "report-run-detail": ("403 403 200 200 404 200 200", "403 403 405 405 405 405 405"),
    "report-run-files": ("403 403 200 200 404 200 200", "403 403 405 405 405 405 405"),
    "report-run-retry": ("403 403 405 405 405 405 405", "403 403 409 409 404 409 409"),
    # A player's sessions (§ 812a.3(a)(6)): the list's POST is the API's sign-in, which takes
    # no sign-in of its own (an empty body is refused as such, whoever sends it).
    "session-list": ("403 200 403 403 403 403 403", "400 400 400 400 400 400 400"),
    "session-detail": ("403 200 403 403 403 403 403", "403 405 403 403 403 403 403"),
    "session-end": ("403 405 403 403 403 403 403", "403 200 403 403 403 403 403"),
    "session-notice": ("403 405 403 403 403 403 403", "403 400 403 403 403 403 403"),
    # A paytable's PAR sheet: whoever may read the paytable.
    "paytable-par": ("403 403 200 200 404 200 200", "403 403 405 405 405 405 405"),
}
for _kind in ("layout", "paytable", "rules-submission", "terms"):
    EXPECTED.update(
        {
            f"{_kind}-list": ("403 403 200 200 200 200 200", "403 403 403 400 400 403 400"),
            f"{_kind}-detail": ("403 403 200 200 404 200 200", "403 403 405 405 405 405 405"),
            # The record is approved: amending is fine for its manager, submitting is not.
            f"{_kind}-amend": ("403 403 405 405 405 405 405", "403 403 403 201 404 403 409"),
            f"{_kind}-submit": ("403 403 405 405 405 405 405", "403 403 403 409 404 403 409"),
            f"{_kind}-approve": ("403 403 405 405 405 405 405", "403 403 403 403 403 409 409"),
            f"{_kind}-reject": ("403 403 405 405 405 405 405", "403 403 403 403 403 409 409"),
            f"{_kind}-request-changes": (
                "403 403 405 405 405 405 405",
                "403 403 403 403 403 409 409",
            ),
            f"{_kind}-impact": ("403 403 200 200 404 200 200", "403 403 405 405 405 405 405"),
            f"{_kind}-withdraw": ("403 403 405 405 405 405 405", "403 403 403 400 404 400 400"),
        }
    )

# The world's terms have an amendment open already (a holder keeps one series): a second
# amendment is refused, to its manager too.
EXPECTED["terms-amend"] = ("403 403 405 405 405 405 405", "403 403 403 409 404 403 409")

SITE_ROUTES = [route for route in routes() if not route.is_admin]
ADMIN_ROUTES = [route for route in routes() if route.is_admin]


def _statuses(client, world, path: str, method: str) -> str:
    client.raise_request_exception = False
    codes = []
    for role in ROLES:
        client.logout()
        if world["users"][role] is not None:
            client.force_login(world["users"][role])
        if method == "get":
            response = client.get(path)
        else:
            response = client.post(path, "{}", content_type="application/json")
        codes.append(str(response.status_code))
    return " ".join(codes)


def test_every_site_route_has_an_expectation():
    names = {route.name for route in SITE_ROUTES}

    assert names - set(EXPECTED) == set(), "add the new URL's expected statuses to EXPECTED"
    assert set(EXPECTED) - names == set(), "EXPECTED names a URL that no longer exists"


@pytest.mark.parametrize("route", SITE_ROUTES, ids=[route.name for route in SITE_ROUTES])
@pytest.mark.clause("reading:roles", kind="proves")
def test_route_answers_every_role_as_expected(client, world, route):
    key = next((obj for prefix, obj in OBJECT_FOR if route.name.startswith(prefix)), None)
    args = {"pk": world[key].pk if key else 0, "action": "approve", "fmt": "pdf"}
    # Amending a rules submission to use a version: the world's paytable, which it lists.
    args |= {"kind": "paytable", "record_pk": world["paytable"].pk}
    args |= {"public_id": world["session"].public_id}  # the world player's session
    path = concrete_path(route, world, args | {"key": WORLD_CHART["key"]})
    expected_get, expected_post = EXPECTED[route.name]

    assert (
        _statuses(client, world, path, "get"),
        _statuses(client, world, path, "post"),
    ) == (expected_get, expected_post), path


def _admin_args(route) -> dict:
    """Arguments for an admin route: an existing object of the route's model."""
    name = route.name.removeprefix("admin:")
    app_label, _, rest = name.partition("_")
    args = {"app_label": "compliance", "url": "no-such-page/"}
    for model in apps.get_models():
        prefix = f"{model._meta.app_label}_{model._meta.model_name}_"
        if name.startswith(prefix):
            obj = model.objects.order_by("pk").first()
            args["object_id"] = obj.pk if obj else 1
    from portal.compliance.models import Layout

    args.setdefault("object_id", Layout.objects.order_by("pk").first().pk)
    args["id"] = args["object_id"]
    args["content_type_id"] = ContentType.objects.get_for_model(Layout).pk
    return args


@pytest.mark.parametrize("route", ADMIN_ROUTES, ids=[route.name for route in ADMIN_ROUTES])
def test_admin_is_for_superusers_only(client, world, route):
    path = concrete_path(route, world, _admin_args(route))
    get_codes = _statuses(client, world, path, "get").split()
    post_codes = _statuses(client, world, path, "post").split()

    if route.name == "admin:login":
        assert get_codes[:6] == ["200"] * 6
        return
    # Everyone but the superuser is sent to the admin's sign-in page, GET or POST.
    if route.name != "admin:logout":
        assert get_codes[:6] == ["302"] * 6, path
        assert post_codes[:6] == ["302"] * 6, path
    assert get_codes[6] not in ("500",), path
    assert post_codes[6] not in ("500",), path
