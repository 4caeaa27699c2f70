"""What telling people costs, and what a wrong password tells.

1. Dispatch: the demo's history, then DEPOSITS deposits recorded at the cage (each an audit
   event that tells the player and the holder's payments staff), read by
   ``notifications_dispatch`` and sent by ``outbox_send_due`` (Django's in-memory mail
   backend): events and notices per second, and queries per batch of events read.
2. Sign-in: a wrong password for a real name and for a name no account has, ATTEMPTS each,
   through the login page in-process (the lock-out's counters cleared every few tries, so
   each attempt runs the password check): the median time of each and their ratio, which
   should be close to 1 (the hasher runs for both).

Uses DATABASE_URL when set (a scratch PostgreSQL database); otherwise a throwaway SQLite file.
"""

from __future__ import annotations

import logging
import statistics
import sys
import time

from scratch import scratch_portal

DEPOSITS = 1000
ATTEMPTS = 200


def _dispatch() -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from portal.access.roles import holder_id_of
    from portal.game.models import GamingAccount
    from portal.game.money.services.deposits import deposit_record
    from portal.notifications.models import Notification, Outbox
    from portal.notifications.services import (
        DISPATCH_BATCH,
        notifications_dispatch,
        outbox_send_due,
    )

    notifications_dispatch()  # the demo's history: told once, before the measure
    outbox_send_due()
    payments = get_user_model().objects.get(username="payments")
    account = GamingAccount.objects.filter(holder_id=holder_id_of(payments)).first()
    for number in range(DEPOSITS):
        deposit_record(
            actor=payments,
            account_id=account.pk,
            amount=100 + 2 * number,
            method="cash",
            reference=f"CAGE-{number:05d}",
        )
    inbox, outbox = Notification.objects.count(), Outbox.objects.count()
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        made = notifications_dispatch()
    rest = 0
    while True:  # more events than one batch: the next runs take the rest
        more = notifications_dispatch()
        if not more:
            break
        rest += more
    dispatched = time.perf_counter() - start
    start = time.perf_counter()
    sent = 0
    while batch := outbox_send_due():
        sent += batch
    sending = time.perf_counter() - start
    notices = Notification.objects.count() - inbox
    emails = Outbox.objects.count() - outbox
    print(f"{DEPOSITS:,} deposits recorded: {notices:,} inbox notices, {emails:,} emails queued")
    print(
        f"dispatch: {dispatched:.2f} s, {DEPOSITS / dispatched:,.0f} events/s, "
        f"{notices / dispatched:,.0f} notices/s; first batch of {DISPATCH_BATCH} events "
        f"made {made:,} notices in {len(queries)} queries"
    )
    print(f"send: {sent:,} emails in {sending:.2f} s, {sent / max(sending, 1e-9):,.0f} emails/s")
    assert made + rest == notices, "every notice was made by a dispatch"


def _wrong_passwords() -> None:
    from axes.utils import reset

    logging.getLogger("axes").setLevel(logging.ERROR)  # one warning per attempt otherwise
    from django.test import Client

    client = Client(REMOTE_ADDR="192.0.2.10")

    def attempt(username: str) -> float:
        start = time.perf_counter()
        answer = client.post("/accounts/login/", {"username": username, "password": "wrong"})
        took = time.perf_counter() - start
        assert answer.status_code == 200, answer.status_code
        return took

    times: dict[str, list[float]] = {"real name": [], "unknown name": []}
    for number in range(ATTEMPTS):
        if number % 4 == 0:
            reset()  # stay under the lock-out: each attempt checks a password
        times["real name"].append(attempt("officer"))
        times["unknown name"].append(attempt(f"nobody-{number}"))
    medians = {who: statistics.median(taken) * 1000 for who, taken in times.items()}
    for who, median in medians.items():
        print(f"wrong password, {who:<13} median {median:7.1f} ms over {ATTEMPTS} attempts")
    ratio = medians["unknown name"] / medians["real name"]
    print(f"unknown / real: {ratio:.2f} (1.00 is the same time)")


def main() -> int:
    scratch_portal("notifications", JINZI_EMAIL_BACKEND="console")
    from django.conf import settings
    from django.db import connection

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    print(f"database: {database}; in-process")
    _dispatch()
    _wrong_passwords()
    return 0


if __name__ == "__main__":
    sys.exit(main())
