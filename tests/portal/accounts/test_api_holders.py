import pytest

from portal.access import policy
from portal.accounts.models import CertificateHolder
from portal.accounts.services import HOLDER_TAKEN
from portal.api import errors as api_msg
from tests.portal.api.helpers import last_event, nothing_written

pytestmark = pytest.mark.django_db

URL = "/api/holders/"


def test_a_manager_sees_only_their_own_holder(api_as, manager_a, holder_a, holder_b):
    client = api_as(manager_a)

    listed = client.get(URL).json()
    own = client.get(f"{URL}{holder_a.pk}/")
    other = client.get(f"{URL}{holder_b.pk}/")

    assert [row["id"] for row in listed["results"]] == [holder_a.pk]
    assert own.json() == {
        "id": holder_a.pk,
        "name": "Keystone Casino",
        "licence_number": "PA-001",
        "gaming_day_start_hour": 0,
        "created_at": own.json()["created_at"],
    }
    assert other.status_code == 404


@pytest.mark.parametrize("who", ["officer", "auditor", "superuser"])
def test_compliance_auditors_and_superusers_see_every_holder(
    api_as, request, holder_a, holder_b, who
):
    listed = api_as(request.getfixturevalue(who)).get(URL).json()

    assert {row["id"] for row in listed["results"]} == {holder_a.pk, holder_b.pk}


def test_the_list_filters_by_name_and_licence(api_as, officer, holder_a, holder_b):
    client = api_as(officer)

    assert client.get(URL, {"name": "susque"}).json()["results"][0]["id"] == holder_b.pk
    assert client.get(URL, {"licence_number": "pa-001"}).json()["results"][0]["id"] == holder_a.pk


def test_a_superuser_registers_a_holder(api_as, superuser):
    response = api_as(superuser).post(
        URL, {"name": "Erie Gaming", "licence_number": "PA-009"}, format="json"
    )

    assert response.status_code == 201
    holder = CertificateHolder.objects.get(pk=response.json()["id"])
    assert (holder.name, holder.licence_number) == ("Erie Gaming", "PA-009")
    assert last_event("holder.create").actor == superuser


@pytest.mark.parametrize("who", ["officer", "manager_a", "auditor"])
def test_nobody_else_registers_holders(api_as, request, who):
    user = request.getfixturevalue(who)

    with nothing_written():
        response = api_as(user).post(
            URL, {"name": "Erie Gaming", "licence_number": "PA-009"}, format="json"
        )

    assert response.status_code == 403
    assert response.json()["detail"] == policy.WRONG_ROLE.format(
        action="manage certificate holders"
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Keystone Casino", "licence_number": "PA-777"}, None),
        ({"name": "Erie", "licence_number": "PA-9", "id": 5}, "id"),
        ({"name": "Erie", "licence_number": "PA-9", "status": "active"}, "status"),
        ({"name": "Erie", "licence_number": "x" * 65}, "licence_number"),
        ({"name": "Erie"}, "licence_number"),
    ],
)
def test_bad_holder_bodies_write_nothing(api_as, superuser, holder_a, body, field):
    with nothing_written():
        response = api_as(superuser).post(URL, body, format="json")

    assert response.status_code == 400
    if field is None:
        assert response.json() == {"detail": HOLDER_TAKEN, "errors": {}}
    else:
        assert field in response.json()["errors"]


def test_a_forged_id_is_named_as_read_only(api_as, superuser):
    response = api_as(superuser).post(
        URL, {"name": "Erie", "licence_number": "PA-9", "id": 5}, format="json"
    )

    assert response.json()["errors"] == {"id": [api_msg.READ_ONLY_FIELD.format(field="id")]}


def test_a_holders_name_is_never_edited_nor_a_holder_deleted_through_the_api(
    api_as, superuser, holder_a
):
    client = api_as(superuser)

    with nothing_written(holder_a):
        responses = [
            client.patch(f"{URL}{holder_a.pk}/", {"name": "x"}, format="json"),
            client.put(f"{URL}{holder_a.pk}/", {"name": "x"}, format="json"),
            client.delete(f"{URL}{holder_a.pk}/"),
        ]

    # Only the gaming day's start hour may be PATCHed; a name is refused as unknown.
    assert [r.status_code for r in responses] == [400, 405, 405]


def test_a_superuser_sets_the_hour_the_gaming_day_starts(api_as, superuser, holder_a):
    client = api_as(superuser)

    answer = client.patch(f"{URL}{holder_a.pk}/", {"gaming_day_start_hour": 6}, format="json")

    assert answer.status_code == 200
    assert answer.json()["gaming_day_start_hour"] == 6
    holder_a.refresh_from_db()
    assert holder_a.gaming_day_start_hour == 6
    event = last_event("holder.update")
    assert (event.before["gaming_day_start_hour"], event.after["gaming_day_start_hour"]) == (0, 6)


@pytest.mark.parametrize("hour", [24, -1, 6.0, "6", None])
def test_a_gaming_day_hour_outside_0_to_23_is_refused_and_changes_nothing(
    api_as, superuser, holder_a, hour
):
    with nothing_written():
        answer = api_as(superuser).patch(
            f"{URL}{holder_a.pk}/", {"gaming_day_start_hour": hour}, format="json"
        )

    assert answer.status_code == 400
    assert "gaming_day_start_hour" in answer.json()["errors"]
    holder_a.refresh_from_db()
    assert holder_a.gaming_day_start_hour == 0


def test_a_holder_is_registered_with_its_gaming_day_hour(api_as, superuser):
    answer = api_as(superuser).post(
        URL,
        {"name": "Night Owl Casino", "licence_number": "PA-077", "gaming_day_start_hour": 6},
        format="json",
    )

    assert answer.status_code == 201
    assert CertificateHolder.objects.get(licence_number="PA-077").gaming_day_start_hour == 6


@pytest.mark.parametrize("who", ["officer", "manager_a", "auditor"])
def test_only_a_superuser_sets_the_gaming_day_hour(api_as, request, holder_a, who):
    answer = api_as(request.getfixturevalue(who)).patch(
        f"{URL}{holder_a.pk}/", {"gaming_day_start_hour": 6}, format="json"
    )

    assert answer.status_code == 403
    holder_a.refresh_from_db()
    assert holder_a.gaming_day_start_hour == 0
