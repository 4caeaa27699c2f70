"""How notices reach people: the outbox sends each email once however often the jobs run,
each person's choice (in the portal only, each time by email, or a daily digest) is kept,
and a failing mail server is tried again with the error recorded."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

from portal.compliance.services.paytables import paytable_reject, paytable_submit
from portal.notifications.models import (
    Cursor,
    Delivery,
    Notification,
    Outbox,
    OutboxStatus,
    Preference,
)
from portal.notifications.services import (
    MAX_ATTEMPTS,
    digests_prepare,
    notifications_dispatch,
    outbox_send_due,
    preferences_set,
)
from tests.portal.factories import make_paytable
from tests.portal.notifications.helpers import dispatch_twice, emails_to, settle, with_emails

pytestmark = pytest.mark.django_db


class RefusingBackend(BaseEmailBackend):
    """A mail server that is down."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError("the mail server refused the connection")


@pytest.fixture
def rejected(manager_a, officer, holder_a):
    """Two paytables of holder A rejected: two decisions manager_a is told of."""
    with_emails(manager_a, officer)
    records = [
        paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a, name=name))
        for name in ("Weekend", "Holiday")
    ]
    settle()

    def reject():
        for record in records:
            paytable_reject(actor=officer, paytable=record, reason="Too generous")

    return reject


def test_a_rerun_from_an_old_cursor_neither_duplicates_nor_resends(rejected, manager_a):
    rejected()
    dispatch_twice()
    assert len(emails_to("manager_a@example.com")) == 2

    Cursor.objects.filter(pk=1).update(audit_sequence=0)  # as if the cursor were lost
    dispatch_twice()

    assert Notification.objects.filter(recipient=manager_a).count() == 2
    assert Outbox.objects.filter(recipient=manager_a).count() == 2
    assert len(emails_to("manager_a@example.com")) == 2


def test_in_the_portal_only_sends_no_email(rejected, manager_a):
    preferences_set(actor=manager_a, choices={"record_decided": Delivery.IN_APP})
    rejected()
    dispatch_twice()

    assert Notification.objects.filter(recipient=manager_a, kind="record_decided").count() == 2
    assert not Outbox.objects.exists() and not mail.outbox


def test_a_daily_digest_gathers_the_days_notifications_in_one_email(rejected, manager_a):
    preferences_set(actor=manager_a, choices={"record_decided": Delivery.DIGEST})
    rejected()
    dispatch_twice()
    assert not mail.outbox  # nothing until the morning

    today = datetime.date(2026, 12, 2)
    assert digests_prepare(today=today) == 1
    assert digests_prepare(today=today) == 0  # a rerun that day makes none
    outbox_send_due()
    outbox_send_due()

    [digest] = mail.outbox
    assert digest.to == ["manager_a@example.com"]
    assert digest.subject == "Your daily digest for 2026-12-02: 2 notifications"
    html = digest.alternatives[0][0]
    for name in ("Weekend", "Holiday"):
        assert f"The paytable '{name}' v1 was rejected" in digest.body
        assert f"The paytable &#x27;{name}&#x27; v1 was rejected" in html
    assert "http://127.0.0.1:8000/compliance/paytables/" in digest.body
    # Gathered once: tomorrow's digest has nothing of today's.
    assert digests_prepare(today=today + datetime.timedelta(days=1)) == 0


def test_a_failing_mail_server_is_tried_again_later_with_the_error_recorded(
    rejected, manager_a, settings, time_machine
):
    settings.EMAIL_BACKEND = "tests.portal.notifications.test_delivery.RefusingBackend"
    rejected()
    notifications_dispatch()
    outbox_send_due()
    outbox_send_due()  # not due again yet: no second attempt

    rows = list(Outbox.objects.filter(recipient=manager_a))
    assert [(r.status, r.attempts) for r in rows] == [(OutboxStatus.PENDING, 1)] * 2
    assert all("refused the connection" in r.last_error for r in rows)
    assert all(r.next_attempt_at > timezone.now() for r in rows)

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=2))
    assert outbox_send_due() == 2
    rows = list(Outbox.objects.filter(recipient=manager_a))
    assert [(r.status, r.attempts) for r in rows] == [(OutboxStatus.SENT, 2)] * 2
    assert len(mail.outbox) == 2


def test_a_mail_server_down_for_good_is_given_up_after_the_last_attempt(
    rejected, manager_a, settings, time_machine
):
    settings.EMAIL_BACKEND = "tests.portal.notifications.test_delivery.RefusingBackend"
    rejected()
    notifications_dispatch()
    for _ in range(MAX_ATTEMPTS + 2):
        outbox_send_due()
        time_machine.move_to(timezone.now() + datetime.timedelta(hours=2))
    statuses = set(Outbox.objects.values_list("status", "attempts"))
    assert statuses == {(OutboxStatus.FAILED, MAX_ATTEMPTS)}


def test_someone_without_an_email_address_is_told_in_the_portal_only(manager_a, officer, holder_a):
    paytable = paytable_submit(
        actor=manager_a, paytable=make_paytable(manager_a, holder_a, name="Weekend")
    )
    settle()
    paytable_reject(actor=officer, paytable=paytable, reason="Too generous")
    dispatch_twice()

    assert Notification.objects.filter(recipient=manager_a).count() == 1
    assert not Outbox.objects.exists() and not mail.outbox


def test_a_choice_is_refused_for_a_kind_one_is_not_told_of(manager_a, player):
    from portal.core.errors import ValidationFailed

    with pytest.raises(ValidationFailed, match="not told of this kind"):
        preferences_set(actor=player, choices={"record_decided": Delivery.EMAIL})
    with pytest.raises(ValidationFailed, match="choose one of"):
        preferences_set(actor=manager_a, choices={"record_decided": "pigeon"})
    assert not Preference.objects.exists()


def test_the_jobs_deliver_and_send_what_happened(rejected, manager_a, time_machine):
    from portal.notifications.tasks import daily, deliver

    rejected()
    assert deliver.apply().get() == {"made": 2, "sent": 2}
    assert deliver.apply().get() == {"made": 0, "sent": 0}
    assert daily.apply().get() == {"reminders": 0, "digests": 0, "sent": 0}
    assert len(emails_to("manager_a@example.com")) == 2
