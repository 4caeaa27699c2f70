"""Notifications, end to end: a manager submits a paytable for review; the dispatcher tells
the compliance officers; an officer sees one unread, opens the inbox and follows the link to
the paytable, then marks it read. The email the officer chose to get is kept beside the
screenshots (``email.html``) and shown as the last one."""

from __future__ import annotations

import pytest
from django.core import mail
from playwright.sync_api import expect

from portal.notifications.models import Delivery, Notification
from portal.notifications.services import (
    notifications_dispatch,
    outbox_send_due,
    preferences_set,
)
from tests.portal.browser import needs_chromium
from tests.portal.factories import make_paytable
from tests.portal.notifications.helpers import with_emails

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_an_officer_is_told_of_a_submission_and_follows_it_from_the_inbox(
    walk, manager_a, officer, holder_a
):
    with_emails(officer)
    preferences_set(actor=officer, choices={"record_submitted": Delivery.EMAIL})
    paytable = make_paytable(manager_a, holder_a, name="Weekend")
    notifications_dispatch()  # what the set-up did is read: the officer is told of nothing
    Notification.objects.all().delete()
    page = walk.page

    walk.sign_in("manager_a")
    walk.open(f"/compliance/paytables/{paytable.pk}/")
    page.get_by_role("button", name="Submit for review").click()
    expect(walk.status_badge()).to_have_text("Submitted")
    walk.shot("the-manager-submits")
    walk.sign_out()

    notifications_dispatch()  # what beat runs every minute
    outbox_send_due()

    walk.sign_in("officer")
    walk.open("/notifications/")
    expect(page.get_by_role("heading", name="Notifications", level=1)).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("1 unread.")
    subject = "Keystone Casino submitted the paytable 'Weekend' v1 for review"
    expect(page.get_by_role("article", name=subject)).to_contain_text("Unread")
    walk.shot("the-officers-inbox")

    page.get_by_role("link", name=subject).click()
    expect(page.get_by_role("heading", name="Weekend v1", level=1)).to_be_visible()
    walk.shot("the-paytable-from-the-link")

    walk.open("/notifications/")
    page.get_by_role("button", name="Mark as read").click()
    expect(page.get_by_role("main")).to_contain_text("Nothing unread.")
    walk.shot("marked-read")

    [email] = mail.outbox
    assert email.to == ["officer@example.com"] and email.subject == subject
    html = email.alternatives[0][0]
    assert f"{walk.base_url}/compliance/paytables/{paytable.pk}/" not in html  # the site's URL
    assert f"http://127.0.0.1:8000/compliance/paytables/{paytable.pk}/" in html
    walk.folder.mkdir(parents=True, exist_ok=True)
    (walk.folder / "email.html").write_text(html, encoding="utf-8")
    page.goto("about:blank")  # away from the portal's pages and their policy: an email's own
    page.set_content(html)
    expect(page.get_by_role("link", name="Open it in the back office")).to_be_visible()
    walk.shot("the-email")
