"""What signing in costs on every request: the session or API token, the user, their roles
and holder, as the policy needs them before a view runs. Measured in-process (no HTTP),
so the figure is the sign-in alone: queries and microseconds per request, both ways in.

Printed next to the figure of the previous build, which read the session and the user
with fixed SQL (one query each way in) instead of Django's own session engine and
authentication backend; that build is gone, so its figure is kept here as measured.

Uses DATABASE_URL when set (a scratch PostgreSQL database: the bench migrates it and
loads the demo data); otherwise a throwaway SQLite file.
"""

from __future__ import annotations

import sys
import time

from scratch import scratch_portal

REQUESTS = 3000

# The previous build (fixed-SQL session and user loading), same machine, same bench,
# 2026-11-30: (queries, µs per request) on PostgreSQL 15 and on SQLite.
BEFORE = {
    "PostgreSQL": {"session cookie": (2, 660.0), "API token": (1, 385.0)},
    "SQLite": {"session cookie": (2, 250.0), "API token": (1, 150.0)},
}


def _measure(sign_in) -> tuple[int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sign_in()  # warm: connection, caches, prepared statements
    with CaptureQueriesContext(connection) as queries:
        sign_in()
    start = time.perf_counter()
    for _ in range(REQUESTS):
        sign_in()
    return len(queries), (time.perf_counter() - start) / REQUESTS * 1e6


def main() -> int:
    scratch_portal("sign-in")
    from django.conf import settings
    from django.contrib.auth import get_user, get_user_model
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.db import connection
    from django.http import HttpRequest
    from django.test import Client
    from django.utils import timezone

    from portal.access.roles import holder_id_of, roles_of
    from portal.accounts.api.authentication import BearerTokenAuthentication
    from portal.accounts.tokens import api_token_issue
    from portal.game.models import SessionChannel
    from portal.game.sessions.lifecycle import session_start

    player = get_user_model().objects.get(username="player")
    browser = Client()
    browser.force_login(player)
    session_key = browser.cookies[settings.SESSION_COOKIE_NAME].value
    _, secret = api_token_issue(user=player, name="sign-in bench", days=1)
    # A player's token works inside an API session that runs (§ 812a.3(a)(6)).
    session_start(user=player, channel=SessionChannel.API, at=timezone.now())
    sessions = SessionMiddleware(lambda request: None)
    bearer = BearerTokenAuthentication()

    def by_session():
        request = HttpRequest()
        request.COOKIES[settings.SESSION_COOKIE_NAME] = session_key
        sessions.process_request(request)
        user = get_user(request)
        assert roles_of(user) and holder_id_of(user) is None

    def by_token():
        request = HttpRequest()
        request.META["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
        user, _ = bearer.authenticate(request)
        assert roles_of(user) and holder_id_of(user) is None

    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    print(f"database: {database}; {REQUESTS:,} sign-ins each way, in-process")
    print(f"{'way in':<18}{'queries':>9}{'µs':>9}   {'before: queries':>16}{'µs':>9}")
    for label, sign_in in (("session cookie", by_session), ("API token", by_token)):
        queries, micros = _measure(sign_in)
        old_queries, old_micros = BEFORE[database][label]
        print(f"{label:<18}{queries:>9}{micros:>9.0f}   {old_queries:>16}{old_micros:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
