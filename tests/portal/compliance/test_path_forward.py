"""The way forward to a new paytable or layout version: amend the rules submission that lists
the older one so that it lists the new one (§ 601a.2, § 617b.8(a)), from one button."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.template import Context, Template
from django.test import RequestFactory

from portal.audit.models import AuditEvent
from portal.compliance.models import ListedGame, Paytable, RecordStatus, RulesSubmission
from portal.compliance.services.forward import rules_submission_amend_to_use
from portal.compliance.services.layouts import layout_amend, layout_approve, layout_submit
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_submit,
    paytable_update,
)
from portal.compliance.services.rules import rules_submission_amend, rules_submission_submit
from portal.compliance.unlisted import ways_forward
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from tests.portal.factories import (
    EFFECTIVE,
    EXPIRY,
    MINIMUM_ODDS,
    approved_offering,
    events_written,
    make_layout,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db


def paytable_v2(manager, officer, paytable) -> Paytable:
    """The paytable's amendment, its name kept, approved."""
    draft = paytable_amend(actor=manager, paytable=paytable)
    draft = paytable_update(actor=manager, paytable=draft, odds={**MINIMUM_ODDS, "column": 2})
    draft = paytable_submit(actor=manager, paytable=draft)
    return paytable_approve(actor=officer, paytable=draft)


def layout_v2(manager, officer, layout):
    draft = layout_submit(actor=manager, layout=layout_amend(actor=manager, layout=layout))
    return layout_approve(
        actor=officer,
        layout=draft,
        reference_number="BGO-2026-0002",
        effective_date=EFFECTIVE,
        expiry_date=EXPIRY,
    )


@pytest.fixture
def table(manager_a, officer, holder_a):
    return approved_offering(manager_a, officer, holder_a)


@pytest.fixture
def v2(table, manager_a, officer):
    return paytable_v2(manager_a, officer, table.paytable)


def _unchanged():
    """What a refusal must leave as it found it."""
    return (
        events_written(),
        list(RulesSubmission.objects.values_list("pk", "version", "status").order_by("pk")),
        list(ListedGame.objects.values_list("pk", "submission_id", "paytable_id", "layout_id")),
    )


# The service


@pytest.mark.clause("601a.2", kind="related")
def test_601a2_the_amendment_lists_the_new_paytable_and_keeps_everything_else(table, v2, manager_a):
    rules = table.rules_submission
    before = ListedGame.objects.get(submission=rules)

    draft = rules_submission_amend_to_use(actor=manager_a, rules_submission=rules, record=v2)

    assert (draft.series, draft.version, draft.status) == (rules.series, 2, RecordStatus.DRAFT)
    assert (draft.title, draft.effective_date, draft.expiry_date) == (
        rules.title,
        rules.effective_date,
        rules.expiry_date,
    )
    listed = ListedGame.objects.get(submission=draft)
    assert listed.paytable_id == v2.pk
    assert listed.layout_id == before.layout_id
    limits = ("chip_unit", "min_wager", "max_wager", "max_round_stake", "game")
    assert [getattr(listed, name) for name in limits] == [getattr(before, name) for name in limits]
    # The approved version is untouched, still listing v1, until the amendment is approved.
    rules.refresh_from_db()
    assert rules.status == RecordStatus.APPROVED
    assert ListedGame.objects.get(submission=rules).paytable_id == table.paytable_id


def test_the_amendment_is_audited_and_its_author_is_the_manager(table, v2, manager_a):
    draft = rules_submission_amend_to_use(
        actor=manager_a, rules_submission=table.rules_submission, record=v2
    )

    events = AuditEvent.objects.filter(object_type="rules_submission", object_id=str(draft.pk))
    assert list(events.order_by("sequence").values_list("action", flat=True)) == [
        "rules_submission.amend",
        "rules_submission.update",
    ]
    assert all(event.actor_id == manager_a.pk for event in events)
    update = events.get(action="rules_submission.update")
    assert update.after["games"][0]["paytable_id"] == v2.pk
    # Four-eyes: the manager wrote it, so only someone else may decide it.
    assert draft.created_by_id == manager_a.pk and manager_a.pk in draft.author_ids


def test_a_layout_version_is_listed_the_same_way(table, manager_a, officer):
    new_layout = layout_v2(manager_a, officer, table.layout)

    draft = rules_submission_amend_to_use(
        actor=manager_a, rules_submission=table.rules_submission, record=new_layout
    )

    listed = ListedGame.objects.get(submission=draft)
    assert (listed.layout_id, listed.paytable_id) == (new_layout.pk, table.paytable_id)


def test_an_open_version_is_named_and_nothing_changes(table, v2, manager_a):
    open_draft = rules_submission_amend(actor=manager_a, submission=table.rules_submission)
    before = _unchanged()

    with pytest.raises(Conflict) as refused:
        rules_submission_amend_to_use(
            actor=manager_a, rules_submission=table.rules_submission, record=v2
        )

    assert f"v{open_draft.version} (draft)" in refused.value.message
    assert "edit that version" in refused.value.message
    assert _unchanged() == before


def test_a_submitted_amendment_is_waited_for(table, v2, manager_a):
    open_draft = rules_submission_amend(actor=manager_a, submission=table.rules_submission)
    rules_submission_submit(actor=manager_a, submission=open_draft)
    before = _unchanged()

    with pytest.raises(Conflict, match=r"v2 \(submitted\): wait for the decision"):
        rules_submission_amend_to_use(
            actor=manager_a, rules_submission=table.rules_submission, record=v2
        )

    assert _unchanged() == before


def test_a_paytable_not_approved_is_refused(table, manager_a):
    draft = paytable_amend(actor=manager_a, paytable=table.paytable)
    before = _unchanged()

    with pytest.raises(Conflict, match="is draft; only an approved paytable"):
        rules_submission_amend_to_use(
            actor=manager_a, rules_submission=table.rules_submission, record=draft
        )

    assert _unchanged() == before


def test_a_rules_submission_not_approved_is_refused(manager_a, officer, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    rules = make_rules(manager_a, holder_a, paytable, make_layout(manager_a, holder_a))
    paytable = paytable_approve(
        actor=officer, paytable=paytable_submit(actor=manager_a, paytable=paytable)
    )
    newer = paytable_v2(manager_a, officer, paytable)
    before = _unchanged()

    with pytest.raises(Conflict, match="is draft; only an approved rules submission"):
        rules_submission_amend_to_use(actor=manager_a, rules_submission=rules, record=newer)

    assert _unchanged() == before


def test_the_version_already_listed_is_refused(table, manager_a):
    before = _unchanged()

    with pytest.raises(Conflict, match="already lists paytable 'Standard' v1"):
        rules_submission_amend_to_use(
            actor=manager_a, rules_submission=table.rules_submission, record=table.paytable
        )

    assert _unchanged() == before


def test_a_paytable_of_another_series_is_refused(table, manager_a, officer, holder_a):
    other = paytable_approve(
        actor=officer,
        paytable=paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a)),
    )
    before = _unchanged()

    with pytest.raises(Conflict, match="does not list Jinzi Roulette with any version"):
        rules_submission_amend_to_use(
            actor=manager_a, rules_submission=table.rules_submission, record=other
        )

    assert _unchanged() == before


def test_another_holders_manager_and_an_officer_are_refused(table, v2, manager_b, officer):
    before = _unchanged()

    for actor in (manager_b, officer):
        with pytest.raises(NotPermitted):
            rules_submission_amend_to_use(
                actor=actor, rules_submission=table.rules_submission, record=v2
            )

    assert _unchanged() == before


def test_another_holders_paytable_is_refused(table, manager_a, manager_b, officer, holder_b):
    theirs = approved_offering(manager_b, officer, holder_b, name="Their table")
    their_v2 = paytable_v2(manager_b, officer, theirs.paytable)
    before = _unchanged()

    with pytest.raises(ValidationFailed, match="belongs to another certificate holder"):
        rules_submission_amend_to_use(
            actor=manager_a, rules_submission=table.rules_submission, record=their_v2
        )

    assert _unchanged() == before


# What the record's page offers


def test_ways_forward_name_the_rules_submission_listing_the_older_version(
    table, v2, manager_a, manager_b, officer
):
    ways = ways_forward(manager_a, v2)

    assert [(way.rules.pk, way.listed.pk, way.blocked) for way in ways] == [
        (table.rules_submission_id, table.paytable_id, "")
    ]
    assert (
        ways[0].label
        == "Amend rules submission 'Jinzi Roulette rules' v1 (it runs Table 1) to use v2"
    )
    assert ways[0].tables == ("Table 1",)
    # Nothing for whoever does not draft for the holder, nor for the version already listed.
    assert ways_forward(officer, v2) == [] and ways_forward(manager_b, v2) == []
    assert ways_forward(manager_a, Paytable.objects.get(pk=table.paytable_id)) == []


def _tag(user, record) -> str:
    request = RequestFactory().get("/")
    request.user = user
    template = Template("{% load path_forward %}{% path_forward record %}")
    return template.render(Context({"request": request, "record": record}))


def test_the_page_part_offers_the_button_to_its_manager_only(table, v2, manager_a, officer):
    html = _tag(manager_a, v2)

    url = f"/compliance/rules/{table.rules_submission_id}/use/paytable/{v2.pk}/"
    assert f'action="{url}"' in html
    assert (
        "Amend rules submission &#x27;Jinzi Roulette rules&#x27; v1 (it runs Table 1) to use v2"
        in html
    )
    assert _tag(officer, v2).strip() == ""


def test_the_page_part_says_where_an_open_version_is(table, v2, manager_a):
    open_draft = rules_submission_amend(actor=manager_a, submission=table.rules_submission)

    html = _tag(manager_a, v2)

    assert "already has v2 (draft)" in html
    assert f"/compliance/rules/{open_draft.pk}/" in html
    assert "/use/paytable/" not in html


# The page


def _url(table, record, kind="paytable"):
    return f"/compliance/rules/{table.rules_submission_id}/use/{kind}/{record.pk}/"


def test_the_button_lands_the_manager_on_the_prefilled_draft(login, table, v2, manager_a):
    client = login(manager_a)

    response = client.post(_url(table, v2))

    draft = RulesSubmission.objects.get(series=table.rules_submission.series, version=2)
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/rules/{draft.pk}/edit/"
    [flash] = [str(message) for message in get_messages(response.wsgi_request)]
    assert "paytable 'Standard' v2 for Jinzi Roulette in place of v1" in flash
    assert "submit it for review" in flash
    edit = client.get(response["Location"]).content.decode()
    assert f'<option value="{v2.pk}" selected>' in edit


def test_the_page_refuses_with_its_status_and_changes_nothing(
    login, table, v2, manager_a, manager_b, officer
):
    rules_submission_amend(actor=manager_a, submission=table.rules_submission)
    before = _unchanged()

    open_version = login(manager_a).post(_url(table, v2))
    assert open_version.status_code == 409
    assert "already has a later version, v2 (draft)" in open_version.content.decode()
    assert login(officer).post(_url(table, v2)).status_code == 403
    assert login(manager_b).post(_url(table, v2)).status_code == 404  # not theirs to see
    assert login(manager_a).post(_url(table, v2, kind="wheel")).status_code == 404
    assert login(manager_a).get(_url(table, v2)).status_code == 405
    assert _unchanged() == before
