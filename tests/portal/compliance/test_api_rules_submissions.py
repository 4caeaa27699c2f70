import pytest

from portal.api import errors as api_msg
from portal.compliance import messages as msg
from portal.compliance.models import ListedGame, RulesSubmission
from portal.compliance.services.rules import MAX_MINOR_UNITS, rules_submission_submit
from tests.portal.api.helpers import game_body, last_event, nothing_written, rules_body
from tests.portal.factories import (
    approved_layout,
    approved_paytable,
    approved_rules,
    make_layout,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db

URL = "/api/rules-submissions/"


@pytest.fixture
def parts(manager_a, holder_a):
    """A draft paytable and layout of holder A, to list."""
    return make_paytable(manager_a, holder_a), make_layout(manager_a, holder_a)


@pytest.fixture
def approved_parts(manager_a, officer, holder_a):
    return (
        approved_paytable(manager_a, officer, holder_a),
        approved_layout(manager_a, officer, holder_a),
    )


def test_it_creates_a_submission_listing_its_games(api_as, manager_a, holder_a, parts):
    paytable, layout = parts

    response = api_as(manager_a).post(URL, rules_body(paytable, layout), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["games"] == [game_body(paytable, layout)]  # the listing, as it was sent
    assert (body["effective_date"], body["expiry_date"]) == ("2026-01-01", "2028-01-01")
    assert (body["holder"], body["status"]) == (holder_a.pk, "draft")
    event = last_event("rules_submission.create")
    assert event.after["games"][0]["paytable_id"] == paytable.pk


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
@pytest.mark.clause("reading:even-stakes", kind="proves")
def test_617b8_g_api_refuses_odd_chip_unit(api_as, manager_a, parts):
    paytable, layout = parts
    body = rules_body(paytable, layout, game={"chip_unit": 5, "min_wager": 5, "max_wager": 55})

    with nothing_written():
        response = api_as(manager_a).post(URL, body, format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["games.0.chip_unit"] == [msg.CHIP_UNIT_ODD.format(value=5)]
    assert "§ 617b.8(g)" in response.json()["detail"]
    assert RulesSubmission.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("chip_unit", 100.0, "must be a whole number"),
        ("chip_unit", "100", "must be a whole number"),
        ("chip_unit", True, "must be a whole number"),
        ("chip_unit", None, "may not be null"),
        ("min_wager", -100, "must be at least 1"),
        ("min_wager", 0, "must be at least 1"),
        ("max_wager", MAX_MINOR_UNITS + 2, f"must be at most {MAX_MINOR_UNITS}"),
        ("max_round_stake", 10**30, f"must be at most {MAX_MINOR_UNITS}"),
        ("paytable", 1.0, "must be a whole number"),
        ("layout", "1", "must be a whole number"),
    ],
)
def test_numbers_must_be_json_integers_in_range(api_as, manager_a, parts, field, value, message):
    paytable, layout = parts

    with nothing_written():
        response = api_as(manager_a).post(
            URL, rules_body(paytable, layout, game={field: value}), format="json"
        )

    assert response.status_code == 400
    [error] = response.json()["errors"][f"games.0.{field}"]
    assert message in error


def test_limits_must_be_multiples_of_the_chip_unit_and_ordered(api_as, manager_a, parts):
    paytable, layout = parts
    game = {"chip_unit": 100, "min_wager": 150, "max_wager": 100}

    response = api_as(manager_a).post(URL, rules_body(paytable, layout, game=game), format="json")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors["games.0.min_wager"] == [
        msg.LIMIT_NOT_MULTIPLE.format(field="min_wager", chip=100, value=150)
    ]
    assert msg.LIMITS_ORDER in errors["games.0.max_wager"]


def test_another_holders_paytable_cannot_be_listed_and_is_not_revealed(
    api_as, manager_a, manager_b, holder_b, parts
):
    _, layout = parts
    theirs = make_paytable(manager_b, holder_b)

    with nothing_written():
        response = api_as(manager_a).post(URL, rules_body(theirs, layout), format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "games.0.paytable": [api_msg.RECORD_NOT_VISIBLE.format(kind="paytable", id=theirs.pk)]
    }


def test_a_missing_layout_id_is_named(api_as, manager_a, parts):
    paytable, layout = parts

    response = api_as(manager_a).post(
        URL, rules_body(paytable, layout, game={"layout": 987_654}), format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"]["games.0.layout"] == [
        api_msg.RECORD_NOT_VISIBLE.format(kind="layout", id=987_654)
    ]


def test_a_superuser_listing_another_holders_records_is_refused_by_the_service(
    api_as, superuser, holder_a, manager_b, holder_b, parts
):
    paytable, layout = parts  # holder A's
    body = rules_body(paytable, layout, holder=holder_b.pk)

    with nothing_written():
        response = api_as(superuser).post(URL, body, format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["games.0.paytable"] == [
        msg.OTHER_HOLDERS_RECORD.format(kind="paytable")
    ]


def test_601a2_api_refuses_rules_submission_without_games(api_as, manager_a, parts):
    paytable, layout = parts

    with nothing_written():
        missing = api_as(manager_a).post(
            URL, {"title": "No games", "effective_date": None}, format="json"
        )
        empty = api_as(manager_a).post(URL, rules_body(paytable, layout, games=[]), format="json")

    assert missing.status_code == empty.status_code == 400
    assert missing.json()["errors"] == empty.json()["errors"] == {"games": [msg.NO_GAMES]}


def test_601a2_api_refuses_listing_the_same_game_twice(api_as, manager_a, parts):
    paytable, layout = parts
    body = rules_body(paytable, layout)
    body["games"] *= 2

    response = api_as(manager_a).post(URL, body, format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {"games": [msg.GAME_TWICE.format(game="jinzi_roulette")]}


@pytest.mark.parametrize(
    ("game", "field"),
    [
        ({"game": "baccarat"}, "games.0.game"),
        ({"colour": "red"}, "games.0.colour"),
    ],
)
def test_unknown_games_and_game_fields_are_refused(api_as, manager_a, parts, game, field):
    paytable, layout = parts

    response = api_as(manager_a).post(URL, rules_body(paytable, layout, game=game), format="json")

    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_617b8_sunset_api_refuses_rules_expiring_after_2028_06_14(api_as, manager_a, parts):
    paytable, layout = parts

    with nothing_written():
        response = api_as(manager_a).post(
            URL, rules_body(paytable, layout, expiry_date="2028-06-15"), format="json"
        )

    assert response.status_code == 400
    assert response.json()["errors"]["expiry_date"] == [
        msg.EXPIRY_AFTER_SUNSET.format(expiry="2028-06-15")
    ]


def test_dates_must_be_iso(api_as, manager_a, parts):
    paytable, layout = parts

    response = api_as(manager_a).post(
        URL, rules_body(paytable, layout, effective_date="1/1/2026"), format="json"
    )

    assert response.status_code == 400
    assert "YYYY-MM-DD" in response.json()["errors"]["effective_date"][0]


def test_a_draft_is_updated_with_patch_including_its_games(api_as, manager_a, holder_a, parts):
    paytable, layout = parts
    submission = make_rules(manager_a, holder_a, paytable, layout)
    game = game_body(paytable, layout, chip_unit=50, min_wager=50)

    response = api_as(manager_a).patch(
        f"{URL}{submission.pk}/",
        {"title": "Rules v1.1", "expiry_date": None, "games": [game]},
        format="json",
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["title"], body["expiry_date"], body["games"][0]["chip_unit"]) == (
        "Rules v1.1",
        None,
        50,
    )
    assert ListedGame.objects.get(submission=submission).chip_unit == 50
    assert last_event("rules_submission.update").after["games"][0]["chip_unit"] == 50


@pytest.mark.parametrize(
    "body",
    [
        {"status": "approved"},
        {"holder": 2},
        {"games": [{"chip_unit": 3}]},
        {"expiry_date": "2028-06-15"},
        {"decided_by": "officer"},
    ],
)
def test_forged_or_illegal_rules_patches_change_nothing(api_as, manager_a, holder_a, parts, body):
    paytable, layout = parts
    submission = make_rules(manager_a, holder_a, paytable, layout)
    listed = ListedGame.objects.get(submission=submission)

    with nothing_written(submission, listed):
        response = api_as(manager_a).patch(f"{URL}{submission.pk}/", body, format="json")

    assert response.status_code == 400


def test_the_whole_workflow_over_http(api_as, manager_a, officer, holder_a, approved_parts):
    paytable, layout = approved_parts
    manager, compliance = api_as(manager_a), api_as(officer)

    created = manager.post(URL, rules_body(paytable, layout), format="json").json()
    submitted = manager.post(f"{URL}{created['id']}/submit/")
    approved = compliance.post(f"{URL}{created['id']}/approve/", {"reason": "ok"}, format="json")
    amended = manager.post(f"{URL}{created['id']}/amend/")
    withdrawn = compliance.post(
        f"{URL}{created['id']}/withdraw/", {"reason": "superseded by filing"}, format="json"
    )

    assert submitted.status_code == approved.status_code == withdrawn.status_code == 200
    assert approved.json()["status"] == "approved"
    assert approved.json()["decided_by"] == "officer"
    assert amended.status_code == 201
    assert amended.json()["version"] == 2 and amended.json()["games"] == created["games"]
    assert last_event("rules_submission.amend").object_version == 2
    assert withdrawn.json()["status"] == "withdrawn"
    for verb in ("submit", "approve", "withdraw"):
        assert last_event(f"rules_submission.{verb}").object_id == str(created["id"])


def test_601a2_api_approval_needs_every_listed_record_approved(
    api_as, manager_a, officer, holder_a, parts
):
    paytable, layout = parts  # drafts
    submission = rules_submission_submit(
        actor=manager_a, submission=make_rules(manager_a, holder_a, paytable, layout)
    )

    with nothing_written(submission):
        response = api_as(officer).post(f"{URL}{submission.pk}/approve/", {}, format="json")

    assert response.status_code == 400
    assert len(response.json()["errors"]["games"]) == 2
    assert "§ 601a.2" in response.json()["detail"]


@pytest.mark.parametrize(
    ("step", "status"), [("reject", "rejected"), ("request-changes", "changes_requested")]
)
def test_an_officer_rejects_or_sends_back(
    api_as, manager_a, officer, holder_a, parts, step, status
):
    paytable, layout = parts
    submission = rules_submission_submit(
        actor=manager_a, submission=make_rules(manager_a, holder_a, paytable, layout)
    )

    response = api_as(officer).post(
        f"{URL}{submission.pk}/{step}/", {"reason": "limits too high"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["status"] == status
    assert last_event(f"rules_submission.{step.replace('-', '_')}").reason == "limits too high"


def test_withdrawing_a_draft_is_a_conflict(api_as, manager_a, holder_a, parts):
    paytable, layout = parts
    submission = make_rules(manager_a, holder_a, paytable, layout)

    with nothing_written(submission):
        response = api_as(manager_a).post(
            f"{URL}{submission.pk}/withdraw/", {"reason": "x"}, format="json"
        )

    assert response.status_code == 409


def test_another_holders_submission_is_not_found(
    api_as, manager_a, manager_b, officer, holder_a, approved_parts
):
    paytable, layout = approved_parts
    submission = approved_rules(manager_a, officer, holder_a, paytable, layout)
    client = api_as(manager_b)

    with nothing_written(submission):
        responses = [
            client.get(f"{URL}{submission.pk}/"),
            client.post(f"{URL}{submission.pk}/amend/"),
            client.post(f"{URL}{submission.pk}/withdraw/", {"reason": "x"}, format="json"),
        ]

    assert [r.status_code for r in responses] == [404, 404, 404]


def test_games_must_be_a_short_list_of_objects(api_as, manager_a, parts):
    paytable, layout = parts
    too_many = rules_body(paytable, layout)
    too_many["games"] *= 21
    client = api_as(manager_a)

    with nothing_written():
        not_a_list = client.post(URL, rules_body(paytable, layout, games="all"), format="json")
        long_list = client.post(URL, too_many, format="json")
        not_objects = client.post(URL, rules_body(paytable, layout, games=[7]), format="json")

    assert not_a_list.status_code == long_list.status_code == not_objects.status_code == 400
    assert list(not_a_list.json()["errors"]) == ["games"]
    assert "no more than 20" in long_list.json()["errors"]["games"][0]
    assert list(not_objects.json()["errors"]) == ["games.0"]
