import pytest

from jinzi.paytable import BELOW_MINIMUM, MISSING_KINDS
from portal.access import policy
from portal.api import errors as api_msg
from portal.compliance import messages as msg
from portal.compliance.api import fields as compliance_fields
from portal.compliance.api import workflow
from portal.compliance.models import Paytable
from portal.compliance.presenters.edge import edge_report
from portal.compliance.services.paytables import paytable_approve, paytable_submit
from tests.portal.api.helpers import last_event, nothing_written, paytable_body
from tests.portal.factories import MINIMUM_ODDS, events_written, make_paytable

pytestmark = pytest.mark.django_db

URL = "/api/paytables/"


def _submitted(manager, holder, **kwargs) -> Paytable:
    return paytable_submit(actor=manager, paytable=make_paytable(manager, holder, **kwargs))


def test_it_creates_a_draft_for_the_managers_own_holder(api_as, manager_a, holder_a):
    odds = dict(MINIMUM_ODDS, split="11/2")

    response = api_as(manager_a).post(URL, paytable_body(odds=odds), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    paytable = Paytable.objects.get(pk=body["id"])
    assert (paytable.holder, paytable.status, paytable.version) == (holder_a, "draft", 1)
    assert body["odds"]["split"] == "11/2" and body["odds"]["straight"] == "11"
    assert (body["holder"], body["status"], body["created_by"]) == (
        holder_a.pk,
        "draft",
        "manager_a",
    )
    assert body["series"] == str(paytable.series)
    event = last_event("paytable.create")
    assert (event.actor, event.object_id) == (manager_a, str(paytable.pk))


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_api_shows_the_exact_house_edge_per_kind_and_the_range_of_hold(
    api_as, manager_a, holder_a
):
    paytable = make_paytable(manager_a, holder_a)

    body = api_as(manager_a).get(f"{URL}{paytable.pk}/").json()

    assert body["house_edge"] == edge_report(paytable).as_json()
    street = next(row for row in body["house_edge"]["per_kind"] if row["kind"] == "street")
    assert (street["odds"], street["house_edge"]) == ("3 to 1", "1/26")
    # reading:expected-win: replaces theoretical_hold, a mean over the 52 spots.
    assert body["house_edge"]["hold_range"] == {
        "not_covering_zero": {
            "label": "Wagers not covering 0",
            "spots": 46,
            "house_edge": "1/26",
            "house_edge_percent": "3.846 %",
            "lowest": "1/26",
            "highest": "1/26",
        },
        "covering_zero": {
            "label": "Wagers covering 0",
            "spots": 6,
            "house_edge": "1/13",
            "house_edge_percent": "7.692 %",
            "lowest": "1/13",
            "highest": "1/13",
        },
    }
    assert "theoretical_hold" not in body["house_edge"]
    assert body["house_edge"]["flagged"] is False


def test_617b8_f_api_refuses_paytable_below_minimum_naming_kind_given_and_minimum(
    api_as, manager_a
):
    with nothing_written():
        response = api_as(manager_a).post(
            URL, paytable_body(odds=dict(MINIMUM_ODDS, straight=10)), format="json"
        )

    assert response.status_code == 400
    [message] = response.json()["errors"]["odds"]
    assert message == BELOW_MINIMUM.format(label="Straight up", given="10 to 1", minimum="11 to 1")
    assert message.startswith("§ 617b.8(f)")
    assert all(part in message for part in ("Straight up", "10 to 1", "11 to 1"))
    assert Paytable.objects.count() == 0


def test_617b8_f_api_refuses_paytable_missing_kinds(api_as, manager_a):
    odds = {kind: value for kind, value in MINIMUM_ODDS.items() if kind not in ("red", "big")}

    with nothing_written():
        response = api_as(manager_a).post(URL, paytable_body(odds=odds), format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["odds"] == [MISSING_KINDS.format(labels="Red, Big")]


def test_617b8_f_api_refuses_unknown_wager_kinds(api_as, manager_a):
    response = api_as(manager_a).post(
        URL, paytable_body(odds=dict(MINIMUM_ODDS, dozen=2)), format="json"
    )

    assert response.status_code == 400
    assert "unknown wager kinds 'dozen'" in response.json()["errors"]["odds"][0]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (11.0, "11.0 (float)"),
        (True, "True (bool)"),
        (-11, "-11"),
        (10**12, str(10**12)),
        (None, "None (NoneType)"),
        ([11], "[11] (list)"),
    ],
)
def test_malformed_odds_values_are_refused_naming_the_kind(api_as, manager_a, value, shown):
    with nothing_written():
        response = api_as(manager_a).post(
            URL, paytable_body(odds=dict(MINIMUM_ODDS, straight=value)), format="json"
        )

    assert response.status_code == 400
    assert response.json()["errors"]["odds.straight"] == [
        compliance_fields.ODDS_VALUE.format(kind="straight", maximum=999_999_999, got=shown)
    ]


@pytest.mark.parametrize("text", ["11.5", "eleven", "11/0", " 11", "1234567890"])
def test_malformed_odds_text_is_refused_by_the_game_rules(api_as, manager_a, text):
    response = api_as(manager_a).post(
        URL, paytable_body(odds=dict(MINIMUM_ODDS, straight=text)), format="json"
    )

    assert response.status_code == 400
    assert "odds for Straight up must be a whole number" in response.json()["errors"]["odds"][0]


@pytest.mark.parametrize("odds", [[11, 5], "straight=11", 11])
def test_odds_that_are_not_an_object_are_refused(api_as, manager_a, odds):
    response = api_as(manager_a).post(URL, paytable_body(odds=odds), format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["odds"][0].startswith("odds must be an object")


@pytest.mark.parametrize(
    ("field", "value"),
    [("status", "approved"), ("version", 9), ("series", "x"), ("house_edge", {})],
)
def test_forged_read_only_fields_are_refused_by_name(api_as, manager_a, field, value):
    with nothing_written():
        response = api_as(manager_a).post(URL, paytable_body(**{field: value}), format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {field: [api_msg.READ_ONLY_FIELD.format(field=field)]}
    assert Paytable.objects.count() == 0


def test_unknown_fields_are_refused_by_name(api_as, manager_a):
    response = api_as(manager_a).post(URL, paytable_body(colour="red"), format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["colour"][0].startswith("unknown field colour")


def test_a_manager_cannot_create_for_another_holder(api_as, manager_a, holder_a, holder_b):
    with nothing_written():
        response = api_as(manager_a).post(URL, paytable_body(holder=holder_b.pk), format="json")

    assert response.status_code == 403
    assert response.json()["detail"] == workflow.HOLDER_NOT_YOURS.format(
        own=holder_a.pk, given=holder_b.pk
    )


def test_a_manager_may_name_their_own_holder(api_as, manager_a, holder_a):
    response = api_as(manager_a).post(URL, paytable_body(holder=holder_a.pk), format="json")

    assert response.status_code == 201
    assert response.json()["holder"] == holder_a.pk


def test_a_superuser_must_say_which_holder(api_as, superuser, holder_b):
    client = api_as(superuser)

    with nothing_written():
        missing = client.post(URL, paytable_body(), format="json")
        unknown = client.post(URL, paytable_body(holder=999_999), format="json")
        text = client.post(URL, paytable_body(holder=str(holder_b.pk)), format="json")
    created = client.post(URL, paytable_body(holder=holder_b.pk), format="json")

    assert missing.status_code == unknown.status_code == text.status_code == 400
    assert missing.json()["errors"] == {"holder": [workflow.HOLDER_REQUIRED]}
    assert unknown.json()["errors"] == {"holder": [workflow.HOLDER_UNKNOWN.format(id=999_999)]}
    assert "must be a whole number" in text.json()["errors"]["holder"][0]
    assert created.status_code == 201
    assert created.json()["holder"] == holder_b.pk


@pytest.mark.parametrize("who", ["officer", "auditor", "player"])
def test_roles_that_may_not_draft_are_refused_with_the_policys_message(
    api_as, request, holder_a, who
):
    user = request.getfixturevalue(who)

    with nothing_written():
        response = api_as(user).post(URL, paytable_body(holder=holder_a.pk), format="json")

    assert response.status_code == 403
    expected = {
        "officer": policy.WRONG_ROLE.format(action="draft or change a holder's records"),
        "auditor": policy.WRONG_ROLE.format(action="draft or change a holder's records"),
        "player": policy.WRONG_ROLE.format(action="view compliance records"),
    }[who]
    assert response.json() == {"detail": expected, "errors": {}}


def test_a_draft_is_updated_with_patch(api_as, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    response = api_as(manager_a).patch(
        f"{URL}{paytable.pk}/",
        {"name": "Generous split", "odds": dict(MINIMUM_ODDS, split=6)},
        format="json",
    )

    assert response.status_code == 200, response.json()
    paytable.refresh_from_db()
    assert (paytable.name, paytable.odds["split"]) == ("Generous split", "6")
    assert last_event("paytable.update").after["name"] == "Generous split"


def test_an_empty_patch_changes_nothing_and_says_so(api_as, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    with nothing_written(paytable):
        response = api_as(manager_a).patch(f"{URL}{paytable.pk}/", {}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["non_field_errors"][0].startswith("nothing to change")


@pytest.mark.parametrize(
    "body",
    [
        {"status": "approved"},
        {"version": 9},
        {"holder": 1},
        {"name": "x", "status": "approved"},
        {"odds": dict(MINIMUM_ODDS, corner=1)},
    ],
)
def test_forged_or_illegal_patches_change_nothing(api_as, manager_a, holder_a, body):
    paytable = make_paytable(manager_a, holder_a)

    with nothing_written(paytable):
        response = api_as(manager_a).patch(f"{URL}{paytable.pk}/", body, format="json")

    assert response.status_code == 400


def test_put_is_not_offered(api_as, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    response = api_as(manager_a).put(f"{URL}{paytable.pk}/", paytable_body(), format="json")

    assert response.status_code == 405


def test_submit_sends_a_draft_for_review(api_as, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    response = api_as(manager_a).post(f"{URL}{paytable.pk}/submit/")

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["submitted_by"]) == (
        "submitted",
        "manager_a",
    )
    assert last_event("paytable.submit").object_id == str(paytable.pk)


def test_submit_takes_no_fields(api_as, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    with nothing_written(paytable):
        response = api_as(manager_a).post(
            f"{URL}{paytable.pk}/submit/", {"status": "approved"}, format="json"
        )

    assert response.status_code == 400
    assert response.json()["errors"] == {"status": [api_msg.NO_FIELDS.format(field="status")]}


def test_an_officer_approves_a_submitted_paytable(api_as, manager_a, officer, holder_a):
    paytable = _submitted(manager_a, holder_a)

    response = api_as(officer).post(
        f"{URL}{paytable.pk}/approve/", {"reason": "meets (f)"}, format="json"
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["decided_by"], body["decision_reason"]) == (
        "approved",
        "officer",
        "meets (f)",
    )
    assert last_event("paytable.approve").actor == officer


@pytest.mark.clause("617b.8(f)", kind="related")
@pytest.mark.clause("reading:edge-acknowledgement", kind="proves")
def test_617b8_f_api_approval_of_a_flagged_paytable_needs_the_list_acknowledged(
    api_as, manager_a, officer, holder_a
):
    paytable = _submitted(manager_a, holder_a, odds=dict(MINIMUM_ODDS, straight=12))
    client = api_as(officer)
    approve = f"{URL}{paytable.pk}/approve/"
    reason = {"override_reason": "promotional table, board informed"}

    assert client.get(f"{URL}{paytable.pk}/").json()["house_edge"]["flagged"] is True
    shown = client.get(f"{URL}{paytable.pk}/impact/").json()["zero_edges"]
    assert shown["wagers"] == [
        "Straight up: in the player's favour (house edge -3.846 %) on all 13 spots, lowest "
        "at a stake of 2 cents"
    ]
    with nothing_written(paytable):
        alone = client.post(approve, reason, format="json")
        stale = client.post(approve, {**reason, "edge_acknowledged": "0" * 64}, format="json")
        no_reason = client.post(approve, {"edge_acknowledged": shown["fingerprint"]}, format="json")
    approved = client.post(
        approve, {**reason, "edge_acknowledged": shown["fingerprint"]}, format="json"
    )

    assert alone.status_code == 400
    assert "reading:edge-acknowledgement" in alone.json()["errors"]["edge_acknowledged"][0]
    assert stale.status_code == 409
    assert no_reason.status_code == 400
    assert "§ 617b.8(f)" in no_reason.json()["errors"]["override_reason"][0]
    assert approved.status_code == 200
    assert approved.json()["edge_override_reason"] == "promotional table, board informed"


@pytest.mark.parametrize(
    ("step", "status"), [("reject", "rejected"), ("request-changes", "changes_requested")]
)
def test_an_officer_rejects_or_sends_back_with_a_reason(
    api_as, manager_a, officer, holder_a, step, status
):
    paytable = _submitted(manager_a, holder_a)
    client = api_as(officer)

    with nothing_written(paytable):
        no_reason = client.post(f"{URL}{paytable.pk}/{step}/", {}, format="json")
    response = client.post(f"{URL}{paytable.pk}/{step}/", {"reason": "odds typo"}, format="json")

    assert no_reason.status_code == 400
    assert no_reason.json()["errors"] == {"reason": [msg.REASON_REQUIRED]}
    assert response.status_code == 200
    assert response.json()["status"] == status
    verb = step.replace("-", "_")
    assert last_event(f"paytable.{verb}").reason == "odds typo"


def test_an_approval_is_withdrawn_and_then_amended_as_a_new_version(
    api_as, manager_a, officer, holder_a
):
    paytable = paytable_approve(actor=officer, paytable=_submitted(manager_a, holder_a))
    client = api_as(manager_a)

    amended = client.post(f"{URL}{paytable.pk}/amend/")
    withdrawn = client.post(f"{URL}{paytable.pk}/withdraw/", {"reason": "replaced"}, format="json")

    assert amended.status_code == 201
    assert (amended.json()["version"], amended.json()["series"], amended.json()["status"]) == (
        2,
        str(paytable.series),
        "draft",
    )
    assert withdrawn.status_code == 200
    assert withdrawn.json()["status"] == "withdrawn"
    assert last_event("paytable.amend").object_version == 2  # the next version, as an amendment
    assert last_event("paytable.withdraw").reason == "replaced"


def test_four_eyes_the_submitter_cannot_approve_over_http(api_as, superuser, holder_a):
    paytable = _submitted(superuser, holder_a)

    with nothing_written(paytable):
        response = api_as(superuser).post(f"{URL}{paytable.pk}/approve/", {}, format="json")

    assert response.status_code == 403
    assert response.json()["detail"] == msg.FOUR_EYES_OWN_WORK.format(kind="paytable")


def test_a_manager_may_not_decide(api_as, manager_a, holder_a):
    paytable = _submitted(manager_a, holder_a)

    with nothing_written(paytable):
        response = api_as(manager_a).post(f"{URL}{paytable.pk}/approve/", {}, format="json")

    assert response.status_code == 403
    assert response.json()["detail"] == policy.WRONG_ROLE.format(action="approve or reject records")


def test_approving_a_draft_is_a_conflict(api_as, manager_a, officer, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    with nothing_written(paytable):
        response = api_as(officer).post(f"{URL}{paytable.pk}/approve/", {}, format="json")

    assert response.status_code == 409
    assert "only a submitted paytable can be approved" in response.json()["detail"]


def test_another_holders_paytable_is_not_found(api_as, manager_a, manager_b, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    client = api_as(manager_b)

    with nothing_written(paytable):
        responses = [
            client.get(f"{URL}{paytable.pk}/"),
            client.patch(f"{URL}{paytable.pk}/", {"name": "mine now"}, format="json"),
            client.post(f"{URL}{paytable.pk}/submit/"),
        ]

    assert [r.status_code for r in responses] == [404, 404, 404]
    assert client.get(URL).json()["count"] == 0


def test_the_list_filters_by_status_and_version(api_as, manager_a, officer, holder_a):
    make_paytable(manager_a, holder_a, name="Draft one")
    submitted = _submitted(manager_a, holder_a, name="Submitted one")
    client = api_as(officer)

    by_status = client.get(URL, {"status": "submitted"}).json()
    by_version = client.get(URL, {"version": 2}).json()
    bad = client.get(URL, {"status": "golden"})

    assert [row["id"] for row in by_status["results"]] == [submitted.pk]
    assert by_version["count"] == 0
    assert bad.status_code == 400
    assert "status" in bad.json()["errors"]


def test_no_audit_event_is_written_by_reads(api_as, manager_a, holder_a):
    make_paytable(manager_a, holder_a)
    events = events_written()

    api_as(manager_a).get(URL)

    assert events_written() == events
