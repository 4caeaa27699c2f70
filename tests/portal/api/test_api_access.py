"""Who may use which endpoint at all, and the shape of every refusal."""

import pytest

from portal.access import policy
from portal.access.roles import Role
from portal.audit.models import AuditEvent
from tests.portal.api.helpers import layout_body, nothing_written, paytable_body
from tests.portal.factories import make_layout, make_paytable, make_user

pytestmark = pytest.mark.django_db

LISTS = [
    "/api/holders/",
    "/api/layouts/",
    "/api/paytables/",
    "/api/rules-submissions/",
    "/api/offerings/",
    "/api/audit-events/",
    "/api/audit-events/export/",
    "/api/audit-events/verify/",
]
COMPLIANCE_LISTS = LISTS[:5]
NOT_SIGNED_IN = "Authentication credentials were not provided."


@pytest.mark.parametrize("path", LISTS)
def test_anonymous_callers_are_refused_everywhere_with_403(anonymous, path):
    response = anonymous.get(path)

    assert response.status_code == 403
    assert response.json() == {"detail": NOT_SIGNED_IN, "errors": {}}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/layouts/", layout_body()),
        ("/api/paytables/", paytable_body()),
        ("/api/holders/", {"name": "x", "licence_number": "y"}),
    ],
)
def test_anonymous_writes_are_refused_with_403_and_write_nothing(anonymous, path, body):
    with nothing_written():
        response = anonymous.post(path, body, format="json")

    assert response.status_code == 403


@pytest.mark.parametrize("path", [p for p in COMPLIANCE_LISTS if p != "/api/offerings/"])
def test_players_may_not_use_the_compliance_api(api_as, player, path):
    response = api_as(player).get(path)

    assert response.status_code == 403
    assert response.json()["detail"] == policy.WRONG_ROLE.format(action="view compliance records")


def test_a_manager_without_a_holder_is_told_so(api_as, holder_a):
    loose = make_user("loose", Role.MANAGER, holder_a)
    loose.profile.holder = None
    loose.profile.save()

    response = api_as(loose).get("/api/paytables/")

    assert response.status_code == 403
    assert response.json()["detail"] == policy.NO_HOLDER


@pytest.mark.parametrize("kind", ["layouts", "paytables"])
def test_records_are_never_replaced_or_deleted(api_as, manager_a, holder_a, kind):
    record = (make_layout if kind == "layouts" else make_paytable)(manager_a, holder_a)
    client = api_as(manager_a)
    path = f"/api/{kind}/{record.pk}/"

    with nothing_written(record):
        put = client.put(path, paytable_body(), format="json")
        delete = client.delete(path)

    assert (put.status_code, delete.status_code) == (405, 405)
    assert put.json()["detail"] == 'Method "PUT" not allowed.'


@pytest.mark.parametrize(
    "path", ["/api/rules-submissions/{pk}/", "/api/offerings/{pk}/", "/api/layouts/{pk}/"]
)
def test_unknown_ids_are_404(api_as, officer, path):
    response = api_as(officer).get(path.format(pk=424242))

    assert response.status_code == 404
    assert response.json()["errors"] == {}


def test_malformed_json_is_a_400_that_writes_nothing(api_as, manager_a):
    client = api_as(manager_a)  # signing in is itself an event; count after it
    events = AuditEvent.objects.count()

    response = client.post(
        "/api/paytables/", '{"name": "x", "odds": {', content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["detail"].startswith("JSON parse error")
    assert AuditEvent.objects.count() == events


def test_a_form_post_is_refused_where_only_json_is_read(api_as, manager_a):
    response = api_as(manager_a).post("/api/paytables/", {"name": "x"}, format="multipart")

    assert response.status_code == 415


def test_a_body_that_is_not_an_object_is_refused(api_as, manager_a):
    response = api_as(manager_a).post("/api/paytables/", [1, 2], format="json")

    assert response.status_code == 400
    assert "non_field_errors" in response.json()["errors"]


def test_options_offers_only_what_the_user_may_do(api_as, manager_a, officer, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    approve = f"/api/paytables/{paytable.pk}/approve/"

    manager_list = api_as(manager_a).options("/api/paytables/").json()
    officer_list = api_as(officer).options("/api/paytables/").json()
    manager_approve = api_as(manager_a).options(approve).json()
    officer_approve = api_as(officer).options(approve).json()

    assert "POST" in manager_list["actions"] and "actions" not in officer_list
    assert "actions" not in manager_approve and "POST" in officer_approve["actions"]


def test_players_see_active_tables_and_whether_they_are_live_but_change_nothing(
    api_as, player, live_offering
):
    client = api_as(player)

    listed = client.get("/api/offerings/").json()["results"]
    detail = client.get(f"/api/offerings/{live_offering.pk}/").json()

    assert [o["id"] for o in listed] == [live_offering.pk]
    assert (detail["live"], detail["not_live_reasons"]) == (True, [])
    retire = client.post(
        f"/api/offerings/{live_offering.pk}/retire/", {"reason": "x"}, format="json"
    )
    assert retire.status_code == 403
