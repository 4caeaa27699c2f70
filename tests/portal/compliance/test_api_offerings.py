import pytest

from portal.access import policy
from portal.api import errors as api_msg
from portal.compliance import messages as msg
from portal.compliance.models import Offering
from portal.compliance.services.offerings import NAME_TAKEN, offering_retire
from tests.portal.api.helpers import last_event, nothing_written
from tests.portal.factories import (
    approved_layout,
    approved_paytable,
    approved_rules,
    make_layout,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db

URL = "/api/offerings/"


@pytest.fixture
def approved_parts(manager_a, officer, holder_a):
    layout = approved_layout(manager_a, officer, holder_a)
    paytable = approved_paytable(manager_a, officer, holder_a)
    rules = approved_rules(manager_a, officer, holder_a, paytable, layout)
    return rules, layout, paytable


def _body(rules, layout, paytable, **overrides) -> dict:
    body = {
        "name": "Table 7",
        "rules_submission": rules.pk,
        "layout": layout.pk,
        "paytable": paytable.pk,
    }
    body.update(overrides)
    return body


def test_617b8_a_api_an_offering_on_approved_parts_is_live(
    api_as, manager_a, holder_a, approved_parts
):
    response = api_as(manager_a).post(URL, _body(*approved_parts), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["live"], body["not_live_reasons"], body["status"]) == (True, [], "active")
    assert (body["holder"], body["name"], body["created_by"]) == (
        holder_a.pk,
        "Table 7",
        "manager_a",
    )
    assert last_event("offering.create").object_id == str(body["id"])


def test_617b8_a_api_an_offering_on_drafts_says_why_it_is_not_live(api_as, manager_a, holder_a):
    layout, paytable = make_layout(manager_a, holder_a), make_paytable(manager_a, holder_a)
    rules = make_rules(manager_a, holder_a, paytable, layout)

    response = api_as(manager_a).post(URL, _body(rules, layout, paytable), format="json")

    assert response.status_code == 201
    body = response.json()
    assert body["live"] is False
    assert "the rules submission v1 is not approved (it is draft)" in body["not_live_reasons"]
    assert "the layout v1 is not approved (it is draft)" in body["not_live_reasons"]


def test_617b8_a_api_refuses_parts_the_rules_submission_does_not_list(
    api_as, manager_a, officer, holder_a, approved_parts
):
    rules, _, paytable = approved_parts
    other_layout = make_layout(manager_a, holder_a, title="Other floor")

    with nothing_written():
        response = api_as(manager_a).post(URL, _body(rules, other_layout, paytable), format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {"layout": [msg.OFFERING_MISMATCH.format(what="layout")]}
    assert Offering.objects.count() == 0


def test_another_holders_parts_are_refused_by_name(api_as, manager_b, holder_b, approved_parts):
    rules, layout, paytable = approved_parts  # holder A's

    with nothing_written():
        response = api_as(manager_b).post(URL, _body(rules, layout, paytable), format="json")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"rules_submission", "layout", "paytable"}
    assert errors["layout"] == [api_msg.RECORD_NOT_VISIBLE.format(kind="layout", id=layout.pk)]


def test_a_duplicate_name_is_refused(api_as, manager_a, live_offering, approved_parts):
    with nothing_written(live_offering):
        response = api_as(manager_a).post(
            URL, _body(*approved_parts, name=live_offering.name), format="json"
        )

    assert response.status_code == 400
    assert response.json()["errors"] == {"name": [NAME_TAKEN.format(name=live_offering.name)]}


def test_an_offering_is_renamed_with_patch(api_as, manager_a, live_offering):
    response = api_as(manager_a).patch(
        f"{URL}{live_offering.pk}/", {"name": "High limit 1"}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert (response.json()["name"], response.json()["live"]) == ("High limit 1", True)
    event = last_event("offering.update")
    assert (event.before["name"], event.after["name"]) == ("Table 1", "High limit 1")


@pytest.mark.parametrize(
    "body",
    [
        {"status": "retired"},
        {"live": True},
        {"holder": 2},
        {"layout": 1.0},
        {"layout": 999_999},
        {"name": ""},
    ],
)
def test_forged_or_illegal_offering_patches_change_nothing(api_as, manager_a, live_offering, body):
    with nothing_written(live_offering):
        response = api_as(manager_a).patch(f"{URL}{live_offering.pk}/", body, format="json")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == set(body)


def test_retire_takes_a_table_out_of_play_for_good(api_as, manager_a, live_offering):
    client = api_as(manager_a)

    with nothing_written(live_offering):
        no_reason = client.post(f"{URL}{live_offering.pk}/retire/", {}, format="json")
    retired = client.post(
        f"{URL}{live_offering.pk}/retire/", {"reason": "floor refit"}, format="json"
    )
    again = client.post(f"{URL}{live_offering.pk}/retire/", {"reason": "again"}, format="json")

    assert no_reason.status_code == 400
    assert no_reason.json()["errors"] == {"reason": [msg.REASON_REQUIRED]}
    assert retired.status_code == 200
    body = retired.json()
    assert (body["status"], body["live"]) == ("retired", False)
    assert "the offering is retired" in body["not_live_reasons"]
    assert last_event("offering.retire").reason == "floor refit"
    assert again.status_code == 409
    assert again.json()["detail"] == msg.OFFERING_RETIRED.format(name="Table 1")


@pytest.mark.parametrize("who", ["officer", "auditor"])
def test_roles_that_may_not_draft_cannot_retire(api_as, request, live_offering, who):
    user = request.getfixturevalue(who)

    with nothing_written(live_offering):
        response = api_as(user).post(
            f"{URL}{live_offering.pk}/retire/", {"reason": "x"}, format="json"
        )

    assert response.status_code == 403
    assert response.json()["detail"] == policy.WRONG_ROLE.format(
        action="draft or change a holder's records"
    )


def test_another_holders_offering_is_not_found(api_as, manager_b, live_offering):
    client = api_as(manager_b)

    with nothing_written(live_offering):
        responses = [
            client.get(f"{URL}{live_offering.pk}/"),
            client.patch(f"{URL}{live_offering.pk}/", {"name": "x"}, format="json"),
            client.post(f"{URL}{live_offering.pk}/retire/", {"reason": "x"}, format="json"),
        ]

    assert [r.status_code for r in responses] == [404, 404, 404]


def test_the_list_filters_by_status_and_parts(api_as, officer, manager_a, live_offering):
    offering_retire(actor=manager_a, offering=live_offering, reason="refit")
    client = api_as(officer)

    retired = client.get(URL, {"status": "retired"}).json()
    by_layout = client.get(URL, {"layout": live_offering.layout_id}).json()
    active = client.get(URL, {"status": "active"}).json()

    assert [row["id"] for row in retired["results"]] == [live_offering.pk]
    assert by_layout["count"] == 1
    assert active["count"] == 0
