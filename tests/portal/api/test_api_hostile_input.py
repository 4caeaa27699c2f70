"""Hostile input that once reached a 500: now each is a clear 4xx and changes nothing."""

import json

import pytest

from portal.game.models import Round
from tests.portal.factories import events_written

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/api/layouts/?holder=99999999999999999999999",
        "/api/paytables/?holder=-99999999999999999999999",
        "/api/rules-submissions/?holder=99999999999999999999999",
        "/api/offerings/?layout=99999999999999999999999",
    ],
)
def test_ids_beyond_any_column_are_refused(api_as, officer, path):
    response = api_as(officer).get(path)

    assert response.status_code == 400


@pytest.mark.parametrize("offering", ["²", "99999999999999999999999", "1e3"])
def test_round_list_refuses_odd_offering_filters(api_as, player, offering):
    response = api_as(player).get("/api/rounds/", {"offering": offering})

    assert response.status_code == 400
    assert "table id" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/api/rounds/", "/api/paytables/", "/api/wallet/top-up/"])
def test_a_pathologically_nested_body_is_a_400(api_as, player, manager_a, path):
    user = manager_a if path == "/api/paytables/" else player
    events = events_written()

    response = api_as(user).generic("POST", path, "[" * 100_000, content_type="application/json")

    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]
    assert events_written() == events


def test_a_key_with_a_lone_surrogate_is_refused_cleanly(api_as, player, live_offering):
    body = json.dumps({"\ud800": 1, "offering": live_offering.pk, "wagers": []})

    response = api_as(player).generic("POST", "/api/rounds/", body, content_type="application/json")

    assert response.status_code == 400
    assert "unknown field" in response.json()["detail"]
    assert Round.objects.count() == 0
