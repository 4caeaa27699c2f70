"""A certificate holder's terms and conditions for players (§ 811a.3) are a versioned record
built like a paytable: the holder's manager drafts, edits and submits a version, a compliance
officer who wrote none of it decides it, an approved version never changes, a change is an
amendment that supersedes the approved version when approved, and a holder keeps one series.
The approved version is the one in force, which players acknowledge (§ 812a.5)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from portal.access.roles import Role
from portal.accounts.models import CertificateHolder
from portal.audit.labels import action_label
from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.models import RecordStatus, TermsAndConditions
from portal.compliance.selectors import impacts_of, terms_in_force
from portal.compliance.services import step_service
from portal.compliance.services.terms import (
    terms_amend,
    terms_approve,
    terms_create,
    terms_reject,
    terms_request_changes,
    terms_submit,
    terms_update,
    terms_withdraw,
)
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from portal.notifications.models import Notification
from portal.notifications.services import notifications_dispatch
from tests.portal.factories import events_written, make_user
from tests.portal.page_helpers import field_errors, text

pytestmark = pytest.mark.django_db

S = RecordStatus
BODY = (
    "You must be 21 or older to play.\n\n"
    "You may hold one account with us.\n\n"
    "Complaints go to customer service, then to the Pennsylvania Gaming Control Board."
)
PAGES = "/compliance/terms/"
API = "/api/terms/"


def _draft(manager, holder, *, title="House terms", body=BODY) -> TermsAndConditions:
    return terms_create(actor=manager, holder=holder, title=title, body=body)


def _submitted(manager, holder, **kwargs) -> TermsAndConditions:
    return terms_submit(actor=manager, terms=_draft(manager, holder, **kwargs))


def _approved(manager, officer, holder, **kwargs) -> TermsAndConditions:
    return terms_approve(actor=officer, terms=_submitted(manager, holder, **kwargs))


def _refused(error_type, call) -> Exception:
    """Run ``call``, which must be refused with ``error_type`` having written nothing."""
    events, rows = events_written(), _rows()
    with pytest.raises(error_type) as caught:
        call()
    assert (events_written(), _rows()) == (events, rows)
    return caught.value


def _rows() -> list[dict]:
    return list(TermsAndConditions.objects.order_by("pk").values())


def _actions(terms) -> list[str]:
    events = AuditEvent.objects.filter(object_type="terms", object_id=str(terms.pk))
    return list(events.order_by("sequence").values_list("action", flat=True))


# --- Through the services -------------------------------------------------------------------


def test_811a3_a_holders_terms_are_drafted_by_a_manager_and_approved_by_another_person(
    manager_a, officer, holder_a
):
    terms = _draft(manager_a, holder_a)
    assert (terms.holder, terms.status, terms.version, terms.created_by) == (
        holder_a,
        S.DRAFT,
        1,
        manager_a,
    )
    terms = terms_update(actor=manager_a, terms=terms, title="Keystone terms")
    terms = terms_submit(actor=manager_a, terms=terms)
    assert (terms.status, terms.submitted_by) == (S.SUBMITTED, manager_a)

    terms = terms_approve(actor=officer, terms=terms, reason="Reads plainly")

    terms.refresh_from_db()
    assert (terms.status, terms.decided_by, terms.decision_reason) == (
        S.APPROVED,
        officer,
        "Reads plainly",
    )
    assert (terms.title, terms.body) == ("Keystone terms", BODY)
    assert _actions(terms) == ["terms.create", "terms.update", "terms.submit", "terms.approve"]
    approval = AuditEvent.objects.get(action="terms.approve")
    assert (approval.actor, approval.object_version) == (officer, 1)
    assert approval.before["status"] == S.SUBMITTED and approval.after["status"] == S.APPROVED
    assert action_label("terms.approve") == "Approved"


def test_811a3_four_eyes_whoever_wrote_the_terms_may_not_decide_them(superuser, officer, holder_a):
    terms = _submitted(superuser, holder_a)  # a superuser drafts for a holder, and decides

    for decide in (
        lambda: terms_approve(actor=superuser, terms=terms),
        lambda: terms_reject(actor=superuser, terms=terms, reason="No"),
        lambda: terms_request_changes(actor=superuser, terms=terms, reason="Fix"),
    ):
        refusal = _refused(NotPermitted, decide)
        assert refusal.message == msg.FOUR_EYES_OWN_WORK.format(kind="terms and conditions")

    assert terms_approve(actor=officer, terms=terms).status == S.APPROVED


def test_811a3_a_manager_may_not_decide_and_an_officer_may_not_draft(manager_a, officer, holder_a):
    terms = _submitted(manager_a, holder_a)

    _refused(NotPermitted, lambda: terms_approve(actor=manager_a, terms=terms))
    _refused(NotPermitted, lambda: _draft(officer, holder_a))


def test_811a3_another_holders_manager_may_not_touch_the_terms(manager_a, manager_b, holder_a):
    terms = _draft(manager_a, holder_a)

    _refused(NotPermitted, lambda: terms_update(actor=manager_b, terms=terms, title="Mine"))
    _refused(NotPermitted, lambda: terms_submit(actor=manager_b, terms=terms))
    _refused(NotPermitted, lambda: _draft(manager_b, holder_a))


def test_811a3_an_approved_version_never_changes(manager_a, officer, holder_a):
    terms = _approved(manager_a, officer, holder_a)

    refusal = _refused(Conflict, lambda: terms_update(actor=manager_a, terms=terms, body="New"))
    assert "only a draft terms and conditions can be edited" in refusal.message
    _refused(Conflict, lambda: terms_submit(actor=manager_a, terms=terms))
    _refused(Conflict, lambda: terms_approve(actor=officer, terms=terms))


def test_811a3_an_amendment_approved_supersedes_the_approved_version(
    manager_a, officer, officer2, holder_a
):
    first = _approved(manager_a, officer, holder_a)

    second = terms_amend(actor=manager_a, terms=first)
    assert (second.series, second.version, second.status) == (first.series, 2, S.DRAFT)
    assert (second.title, second.body) == (first.title, first.body)  # its content carried on
    second = terms_update(actor=manager_a, terms=second, body=BODY + "\n\nA new paragraph.")
    second = terms_submit(actor=manager_a, terms=second)
    # Until the amendment is approved, the approved version stays in force.
    assert terms_in_force(holder_a.pk) == first

    second = terms_approve(actor=officer2, terms=second)

    first.refresh_from_db()
    assert (first.status, second.status) == (S.SUPERSEDED, S.APPROVED)
    assert _actions(first)[-1] == "terms.supersede"
    assert _actions(second)[0] == "terms.amend"
    # Only the latest version, with none open, is amended.
    _refused(Conflict, lambda: terms_amend(actor=manager_a, terms=first))
    third = terms_amend(actor=manager_a, terms=second)
    _refused(Conflict, lambda: terms_amend(actor=manager_a, terms=second))
    assert third.version == 3


def test_811a3_a_holder_keeps_one_series_of_terms_a_second_is_refused(
    manager_a, manager_b, officer, holder_a, holder_b
):
    first = _approved(manager_a, officer, holder_a, title="Keystone terms")

    refusal = _refused(Conflict, lambda: _draft(manager_a, holder_a, title="Other terms"))

    assert refusal.message == msg.TERMS_ONE_SERIES.format(
        holder="Keystone Casino", title="Keystone terms", version=1
    )
    assert refusal.message.startswith("§ 811a.3") and "amend" in refusal.message
    # Even when its only version was rejected, the holder amends it rather than start anew.
    other = terms_reject(actor=officer, terms=_submitted(manager_b, holder_b), reason="Unclear")
    _refused(Conflict, lambda: _draft(manager_b, holder_b))
    assert terms_amend(actor=manager_b, terms=other).version == 2
    assert TermsAndConditions.objects.filter(holder=holder_a).get() == first


def test_811a3_the_database_keeps_one_series_per_holder(manager_a, holder_a):
    first = _draft(manager_a, holder_a)

    with pytest.raises(IntegrityError), transaction.atomic():
        TermsAndConditions.objects.create(
            holder=holder_a, title="Sneaked in", body=BODY, created_by=manager_a
        )
    assert list(TermsAndConditions.objects.all()) == [first]


@pytest.mark.parametrize(
    ("title", "body", "field", "message"),
    [
        ("", BODY, "title", msg.TERMS_TITLE_REQUIRED),
        ("   ", BODY, "title", msg.TERMS_TITLE_REQUIRED),
        ("x" * 201, BODY, "title", msg.TERMS_TITLE_TOO_LONG.format(limit=200, length=201)),
        ("Terms", "", "body", msg.TERMS_BODY_REQUIRED),
        ("Terms", " \n\n ", "body", msg.TERMS_BODY_REQUIRED),
        (
            "Terms",
            "x" * 50_001,
            "body",
            msg.TERMS_BODY_TOO_LONG.format(limit=50_000, length=50_001),
        ),
        ("Terms", "a\x00b", "body", msg.TERMS_NUL.format(what="text of the terms and conditions")),
        ("Terms", 42, "body", msg.TERMS_NOT_TEXT.format(what="text of the terms and conditions")),
    ],
)
def test_811a3_title_and_text_are_required_within_their_lengths(
    manager_a, holder_a, title, body, field, message
):
    refusal = _refused(
        ValidationFailed, lambda: _draft(manager_a, holder_a, title=title, body=body)
    )

    assert refusal.field_errors == {field: [message]}


def test_811a3_the_longest_title_and_text_are_kept_exactly(manager_a, holder_a):
    # 50,000 characters once each line break is one, however the browser sent it.
    body = "\r\n".join(["x" * 99] * 500) + "x"
    assert len(body) > 50_000

    terms = _draft(manager_a, holder_a, title="t" * 200, body=body)

    terms.refresh_from_db()
    assert len(terms.title) == 200
    assert terms.body == body.replace("\r\n", "\n") and len(terms.body) == 50_000


def test_811a3_both_fields_refused_at_once_and_an_edit_is_judged_alike(manager_a, holder_a):
    refusal = _refused(ValidationFailed, lambda: _draft(manager_a, holder_a, title="", body=""))
    assert set(refusal.field_errors) == {"title", "body"}

    terms = _draft(manager_a, holder_a)
    refusal = _refused(
        ValidationFailed, lambda: terms_update(actor=manager_a, terms=terms, body="y" * 50_001)
    )
    assert list(refusal.field_errors) == ["body"]


def test_811a3_withdrawn_terms_leave_none_in_force_until_an_amendment_is_approved(
    manager_a, officer, holder_a
):
    terms = _approved(manager_a, officer, holder_a)

    terms_withdraw(actor=officer, terms=terms, reason="Out of date")

    assert terms_in_force(holder_a.pk) is None
    again = terms_submit(actor=manager_a, terms=terms_amend(actor=manager_a, terms=terms))
    assert terms_in_force(holder_a.pk) is None
    assert terms_approve(actor=officer, terms=again) == terms_in_force(holder_a.pk)


def test_811a3_terms_take_no_table_live_or_dark(manager_a, officer, holder_a, live_offering):
    terms = _submitted(manager_a, holder_a)

    assert impacts_of(terms) == {}
    step_service(terms, "approve")(actor=officer)
    assert impacts_of(TermsAndConditions.objects.get()) == {}


# --- terms_in_force: what the players' side reads (§ 812a.5) ------------------------------


def test_812a5_terms_in_force_is_the_holders_one_approved_version(
    manager_a, manager_b, officer, holder_a, holder_b
):
    assert terms_in_force(holder_a.pk) is None  # none yet
    terms = _draft(manager_a, holder_a)
    assert terms_in_force(holder_a.pk) is None  # a draft is not in force
    terms = terms_submit(actor=manager_a, terms=terms)
    assert terms_in_force(holder_a.pk) is None  # nor a submitted version

    terms = terms_approve(actor=officer, terms=terms)

    assert terms_in_force(holder_a.pk) == terms
    assert terms_in_force(holder_b.pk) is None  # another holder's are its own
    other = _approved(manager_b, officer, holder_b, title="Allegheny terms")
    assert (terms_in_force(holder_a.pk), terms_in_force(holder_b.pk)) == (terms, other)


def test_812a5_after_supersession_the_new_version_is_in_force(manager_a, officer, holder_a):
    first = _approved(manager_a, officer, holder_a)
    second = terms_update(
        actor=manager_a, terms=terms_amend(actor=manager_a, terms=first), title="Second"
    )
    second = terms_approve(actor=officer, terms=terms_submit(actor=manager_a, terms=second))

    in_force = terms_in_force(holder_a.pk)

    assert (in_force, in_force.version, in_force.title) == (second, 2, "Second")
    assert TermsAndConditions.objects.filter(holder=holder_a, status=S.APPROVED).count() == 1


# --- Through the pages ----------------------------------------------------------------------


def _post_step(client, terms, step: str, **data):
    return client.post(f"{PAGES}{terms.pk}/", {"step": step, **data})


def test_811a3_a_manager_drafts_and_submits_on_the_pages_and_an_officer_approves(
    client, manager_a, officer, holder_a
):
    client.force_login(manager_a)
    form = text(client.get(f"{PAGES}new/"))
    assert 'name="title"' in form and 'name="body"' in form and "§ 811a.3" in form

    created = client.post(f"{PAGES}new/", {"title": "Keystone terms", "body": "Line one\r\nTwo"})

    terms = TermsAndConditions.objects.get()
    assert created.status_code == 302 and created["Location"] == f"{PAGES}{terms.pk}/"
    assert (terms.holder, terms.body, terms.created_by) == (holder_a, "Line one\nTwo", manager_a)
    edited = client.post(f"{PAGES}{terms.pk}/edit/", {"title": "Keystone terms", "body": BODY})
    assert edited.status_code == 302
    assert _post_step(client, terms, "submit").status_code == 302
    client.force_login(officer)
    page = text(client.get(f"{PAGES}{terms.pk}/"))
    assert "Decide this terms and conditions" in page and 'value="approve"' in page
    assert "No table changes" not in page  # terms run no table: no impact shown

    approved = _post_step(client, terms, "approve", reason="Plain and complete")

    terms.refresh_from_db()
    assert approved.status_code == 302
    assert (terms.status, terms.decided_by, terms.decision_reason) == (
        S.APPROVED,
        officer,
        "Plain and complete",
    )
    page = text(client.get(f"{PAGES}{terms.pk}/"))
    assert "Yes, since its approval" in page and "§ 812a.5" in page


def test_811a3_the_text_is_shown_as_plain_text_with_its_line_breaks_never_as_html(
    login, manager_a, holder_a
):
    terms = _draft(manager_a, holder_a, body="<script>alert(1)</script>\nSecond line\n\nNext")

    page = text(login(manager_a).get(f"{PAGES}{terms.pk}/"))

    assert "<script>alert(1)</script>" not in page
    assert "<p>&lt;script&gt;alert(1)&lt;/script&gt;<br>Second line</p>\n\n<p>Next</p>" in page


def test_811a3_the_list_and_dashboard_and_my_submissions_show_terms(
    login, manager_a, manager_b, holder_a, holder_b, officer
):
    _submitted(manager_a, holder_a, title="Keystone terms")
    _draft(manager_b, holder_b, title="Allegheny terms")

    listed = text(login(officer).get(PAGES))
    assert "Keystone terms" in listed and "Allegheny terms" in listed
    assert "Keystone terms" not in text(login(manager_b).get(PAGES))
    dashboard = text(login(officer).get("/compliance/"))
    assert re.search(
        r'<th scope="row">Terms and conditions</th><td[^>]*><a href="'
        r'/compliance/terms/\?status=submitted">1<',
        dashboard,
    )
    assert "Keystone terms v1" in dashboard  # awaiting the officer's review
    mine = text(login(manager_a).get("/compliance/mine/"))
    assert "Terms and conditions" in mine and "Keystone terms" in mine
    csv = login(officer).get(PAGES, {"format": "csv"})
    assert csv.status_code == 200 and "Keystone terms" in csv.content.decode()


def test_811a3_another_holders_manager_gets_404(client, manager_a, manager_b, holder_a):
    terms = _draft(manager_a, holder_a)
    client.force_login(manager_b)

    for answer in (
        client.get(f"{PAGES}{terms.pk}/"),
        client.get(f"{PAGES}{terms.pk}/edit/"),
        client.post(f"{PAGES}{terms.pk}/edit/", {"title": "Mine", "body": BODY}),
        _post_step(client, terms, "submit"),
    ):
        assert answer.status_code == 404
    terms.refresh_from_db()
    assert (terms.status, terms.title) == (S.DRAFT, "House terms")


def test_811a3_a_role_that_may_not_take_the_step_gets_403(
    client, manager_a, officer, auditor, holder_a
):
    terms = _submitted(manager_a, holder_a)
    events = events_written()

    client.force_login(officer)  # compliance decides, never drafts
    assert client.get(f"{PAGES}new/").status_code == 403
    assert client.post(f"{PAGES}new/", {"title": "T", "body": BODY}).status_code == 403
    client.force_login(manager_a)  # a manager drafts, never decides
    assert _post_step(client, terms, "approve").status_code == 403
    client.force_login(auditor)  # an auditor reads
    assert client.get(f"{PAGES}{terms.pk}/").status_code == 200
    assert _post_step(client, terms, "reject", reason="No").status_code == 403

    terms.refresh_from_db()
    assert terms.status == S.SUBMITTED and events_written() == events
    assert TermsAndConditions.objects.count() == 1


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"title": "", "body": BODY}, "id_title", msg.TERMS_TITLE_REQUIRED),
        ({"title": "T", "body": ""}, "id_body", msg.TERMS_BODY_REQUIRED),
        (
            {"title": "x" * 201, "body": BODY},
            "id_title",
            msg.TERMS_TITLE_TOO_LONG.format(limit=200, length=201),
        ),
        (
            {"title": "T", "body": "y" * 50_001},
            "id_body",
            msg.TERMS_BODY_TOO_LONG.format(limit=50_000, length=50_001),
        ),
    ],
)
def test_811a3_bad_input_on_the_form_is_400_and_nothing_is_stored(
    login, manager_a, data, field, message
):
    events = events_written()

    answer = login(manager_a).post(f"{PAGES}new/", data)

    assert answer.status_code == 400
    assert message in field_errors(answer, field)
    assert TermsAndConditions.objects.count() == 0 and events_written() == events


def test_811a3_a_second_series_on_the_page_is_refused_naming_the_way_to_amend(
    login, manager_a, holder_a
):
    terms = _draft(manager_a, holder_a, title="Keystone terms")
    client = login(manager_a)
    assert f'href="{PAGES}{terms.pk}/"' in text(client.get(f"{PAGES}new/"))
    events = events_written()

    answer = client.post(f"{PAGES}new/", {"title": "Other", "body": BODY})

    assert answer.status_code == 409
    expected = msg.TERMS_ONE_SERIES.format(
        holder="Keystone Casino", title="Keystone terms", version=1
    )
    assert expected.replace("'", "&#x27;") in text(answer)
    assert TermsAndConditions.objects.count() == 1 and events_written() == events


def test_811a3_four_eyes_on_the_page_says_why_the_author_may_not_decide(login, superuser, holder_a):
    terms = _submitted(superuser, holder_a)
    client = login(superuser)

    page = text(client.get(f"{PAGES}{terms.pk}/"))
    refused = _post_step(client, terms, "approve")

    assert "No decision here." in page and "four-eyes" in page
    assert refused.status_code == 403
    terms.refresh_from_db()
    assert terms.status == S.SUBMITTED


def test_811a3_an_amendment_shows_its_changes_paragraph_by_paragraph(
    login, manager_a, officer, holder_a
):
    first = _approved(manager_a, officer, holder_a)
    second = terms_amend(actor=manager_a, terms=first)
    changed = BODY.replace("21 or older", "21 or older, in Pennsylvania,")
    terms_update(actor=manager_a, terms=second, body=changed + "\n\nA new last paragraph.")

    page = text(login(officer).get(f"{PAGES}{second.pk}/"))

    diff = page[page.index('<section class="diff"') : page.index("</section>")]
    assert "is the version players acknowledge" in diff
    rows = re.findall(r'<tr class="(changed|same)">\s*<th scope="row">([^<]+)</th>', diff)
    assert rows == [
        ("same", "Title"),
        ("changed", "Paragraph 1"),
        ("same", "Paragraph 2"),
        ("same", "Paragraph 3"),
        ("changed", "Paragraph 4"),
    ]


def test_811a3_the_history_names_each_step_and_the_text_changed(
    login, manager_a, officer, holder_a
):
    terms = _draft(manager_a, holder_a)
    terms_update(actor=manager_a, terms=terms, body="Only this now.")
    terms_approve(actor=officer, terms=terms_submit(actor=manager_a, terms=terms))

    page = text(login(officer).get(f"{PAGES}{terms.pk}/?tab=history"))

    history = page[page.index('<h2 id="history-heading">') :]
    for label in ("Created", "Edited", "Submitted for review", "Approved"):
        assert label in history
    assert "Text players read and accept" in history and "Only this now." in history


@pytest.mark.clause("811a.3", kind="related")
def test_811a3_the_regulation_page_links_the_terms_it_governs(login, officer):
    page = text(login(officer).get("/regulation/"))

    assert 'id="clause-811a3"' in page and 'href="/compliance/terms/"' in page


# --- Through the API ------------------------------------------------------------------------


def test_811a3_the_api_drafts_submits_and_approves_under_four_eyes(
    api_as, manager_a, officer, superuser, holder_a
):
    created = api_as(manager_a).post(API, {"title": "API terms", "body": BODY}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["holder"], body["status"], body["version"], body["body"]) == (
        holder_a.pk,
        "draft",
        1,
        BODY,
    )
    pk = body["id"]
    patched = api_as(manager_a).patch(f"{API}{pk}/", {"title": "Renamed"}, format="json")
    assert patched.status_code == 200 and patched.json()["title"] == "Renamed"
    assert api_as(manager_a).post(f"{API}{pk}/submit/", format="json").status_code == 200
    assert api_as(manager_a).post(f"{API}{pk}/approve/", {}, format="json").status_code == 403
    assert api_as(officer).get(f"{API}{pk}/impact/").json() == {
        "id": pk,
        "steps": {},
        "zero_edges": None,
    }

    approved = api_as(officer).post(f"{API}{pk}/approve/", {"reason": "Fine"}, format="json")

    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    amended = api_as(manager_a).post(f"{API}{pk}/amend/", format="json")
    assert amended.status_code == 201 and amended.json()["version"] == 2
    # four-eyes holds over the API too
    own = api_as(superuser).post(
        f"{API}{amended.json()['id']}/submit/", format="json"
    )  # the superuser now an author of v2
    assert own.status_code == 200
    refused = api_as(superuser).post(f"{API}{amended.json()['id']}/approve/", {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == msg.FOUR_EYES_OWN_WORK.format(kind="terms and conditions")


def test_811a3_the_api_refuses_bad_input_another_holder_and_a_second_series(
    api_as, manager_a, manager_b, holder_a
):
    events = events_written()
    empty = api_as(manager_a).post(API, {"title": " ", "body": ""}, format="json")
    long = api_as(manager_a).post(API, {"title": "T", "body": "z" * 50_001}, format="json")
    unknown = api_as(manager_a).post(API, {"title": "T", "body": BODY, "html": 1}, format="json")
    assert (empty.status_code, long.status_code, unknown.status_code) == (400, 400, 400)
    assert empty.json()["errors"] == {
        "title": [msg.TERMS_TITLE_REQUIRED],
        "body": [msg.TERMS_BODY_REQUIRED],
    }
    assert long.json()["errors"]["body"] == [
        msg.TERMS_BODY_TOO_LONG.format(limit=50_000, length=50_001)
    ]
    assert TermsAndConditions.objects.count() == 0 and events_written() == events

    terms = _draft(manager_a, holder_a)
    assert api_as(manager_b).get(f"{API}{terms.pk}/").status_code == 404
    assert api_as(manager_b).post(f"{API}{terms.pk}/submit/", format="json").status_code == 404
    second = api_as(manager_a).post(API, {"title": "Again", "body": BODY}, format="json")
    assert second.status_code == 409
    assert second.json()["detail"].startswith("§ 811a.3")
    assert TermsAndConditions.objects.count() == 1


# --- The admin, the notifications, the demo ---------------------------------------------------


def test_811a3_the_admin_shows_terms_read_only_and_takes_workflow_steps(
    client, superuser, manager_a, officer, holder_a
):
    terms = _submitted(manager_a, holder_a)
    client.force_login(superuser)

    listing = client.get("/admin/compliance/termsandconditions/")
    change = client.get(f"/admin/compliance/termsandconditions/{terms.pk}/change/")
    approved = client.post(
        "/admin/compliance/termsandconditions/",
        {"action": "workflow_approve", "_selected_action": [terms.pk], "apply": "1"},
        follow=True,
    )

    assert listing.status_code == 200 and "House terms v1" in text(listing)
    assert change.status_code == 200 and 'name="_save"' not in text(change)
    assert approved.status_code == 200
    terms.refresh_from_db()
    assert (terms.status, terms.decided_by) == (S.APPROVED, superuser)


def test_811a3_submitting_tells_the_officers_and_a_decision_tells_the_holders_managers(
    manager_a, officer, officer2, holder_a
):
    manager_a2 = make_user("manager_a2", Role.MANAGER, holder_a)
    terms = _submitted(manager_a, holder_a, title="Keystone terms")
    notifications_dispatch()

    submitted = Notification.objects.filter(kind="record_submitted")
    assert {n.recipient.username for n in submitted} == {"officer", "officer2"}
    assert submitted[0].subject == (
        "Keystone Casino submitted the terms and conditions 'Keystone terms' v1 for review"
    )
    assert submitted[0].link == f"{PAGES}{terms.pk}/"

    terms_reject(actor=officer, terms=terms, reason="Name the helpline")
    notifications_dispatch()

    decided = Notification.objects.filter(kind="record_decided")
    assert {n.recipient.username for n in decided} == {"manager_a", manager_a2.username}
    assert decided[0].subject == "The terms and conditions 'Keystone terms' v1 was rejected"


def test_811a3_the_demo_seeds_each_holders_terms_approved_by_an_officer():
    call_command("seed_demo")

    for holder in CertificateHolder.objects.all():
        terms = terms_in_force(holder.pk)
        assert terms is not None, holder.name
        assert holder.name in terms.body and "21 or older" in terms.body
        assert "Pennsylvania Gaming Control Board" in terms.body
        # Drafted by the holder's manager, approved by an officer.
        assert terms.created_by.profile.holder_id == holder.pk
        assert terms.created_by.username in ("manager", "manager2")
        assert terms.decided_by.username in ("officer", "officer2")
