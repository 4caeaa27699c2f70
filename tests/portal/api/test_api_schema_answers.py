"""The schema describes the answers the API really gives: its errors, the wallet, a report
asked for twice, and an id that is not a number (found by test_schema_fuzz)."""

from __future__ import annotations

import pytest

from tests.portal.factories import approved_layout
from tests.portal.funding import wallet_top_up

pytestmark = pytest.mark.django_db

ERROR = "#/components/schemas/Error"


@pytest.fixture
def schema(api_as, officer) -> dict:
    return api_as(officer).get("/api/schema/", {"format": "json"}).json()


def answers(schema: dict, path: str, method: str) -> dict:
    return schema["paths"][path][method]["responses"]


def error_ref(answer: dict) -> str:
    return answer["content"]["application/json"]["schema"]["$ref"]


def test_every_operation_documents_the_error_body_it_can_answer_with(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = operation["responses"]
            for status in ("401", "403", "503"):
                assert error_ref(codes[status]) == ERROR, (method, path, status)
            if method in ("post", "patch", "delete"):
                assert {"400", "409", "413", "415"} <= set(codes), (method, path)
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["detail", "errors"]
    assert error["properties"]["errors"]["additionalProperties"]["type"] == "array"


def test_errors_are_documented_where_they_happen(schema):
    assert "409" in answers(schema, "/api/layouts/{id}/submit/", "post")
    assert "404" in answers(schema, "/api/layouts/{id}/", "get")
    # A list is paginated: ?page=99 of a short list is a 404.
    assert "404" in answers(schema, "/api/layouts/", "get")
    assert "400" in answers(schema, "/api/layouts/", "get")  # a bad filter
    # The wallet takes no id, no page and no filter.
    assert not {"400", "404"} & set(answers(schema, "/api/wallet/", "get"))


def test_a_refused_request_answers_with_the_documented_error_body(api_as, player, schema):
    response = api_as(player).get("/api/layouts/")

    assert response.status_code == 403
    assert "403" in answers(schema, "/api/layouts/", "get")
    assert set(response.json()) == {"detail", "errors"}


def test_a_refused_export_may_answer_in_csv_as_documented(schema):
    refused = answers(schema, "/api/audit-events/export/", "get")["400"]

    assert set(refused["content"]) == {"application/json", "text/csv"}


def test_the_wallet_is_documented_as_one_object_as_it_is_answered(api_as, player, holder_a, schema):
    wallet_top_up(player=player, amount=1_000, holder=holder_a)

    answer = api_as(player).get("/api/wallet/").json()

    documented = answers(schema, "/api/wallet/", "get")["200"]["content"]["application/json"]
    assert documented["schema"] == {"$ref": "#/components/schemas/Wallet"}
    wallet = schema["components"]["schemas"]["Wallet"]
    assert set(answer) == set(wallet["properties"])
    entry = schema["components"]["schemas"][
        wallet["properties"]["entries"]["items"]["$ref"].rsplit("/", 1)[-1]
    ]
    assert answer["entries"] and set(answer["entries"][0]) == set(entry["properties"])


def test_a_report_asked_for_again_answers_200_as_documented(api_as, auditor, schema):
    body = {"kind": "expiry", "parameters": {"as_of": "2026-11-30"}}

    first = api_as(auditor).post("/api/reports/", body, format="json")
    again = api_as(auditor).post("/api/reports/", body, format="json")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert {"200", "201"} <= set(answers(schema, "/api/reports/", "post"))


@pytest.mark.parametrize(
    ("role", "method", "path"),
    [
        ("manager_a", "get", "/api/layouts/{id}.5/"),
        ("manager_a", "patch", "/api/layouts/{id}.0/"),
        ("officer", "post", "/api/layouts/{id}.5/approve/"),
        ("officer", "get", "/api/rounds/1.5/"),
        ("officer", "get", "/api/audit-events/1.0e-07/"),
        ("officer", "get", "/api/reports/1.5/files/pdf/"),
        ("officer", "delete", "/api/tokens/1.5/"),
    ],
)
def test_an_id_with_a_dot_is_the_apis_own_404(request, api_as, role, method, path):
    user = request.getfixturevalue(role)
    layout = approved_layout(
        request.getfixturevalue("manager_a"),
        request.getfixturevalue("officer"),
        request.getfixturevalue("holder_a"),
    )

    response = getattr(api_as(user), method)(path.format(id=layout.pk), {}, format="json")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == {"detail", "errors"}


@pytest.mark.clause("811a.7(f)", kind="related")
def test_811a7_f_an_availability_filter_it_cannot_read_is_a_400_not_ignored(api_as, auditor):
    client = api_as(auditor)

    unreadable = client.get("/api/availability/", {"opened": "1.96"})
    opened = client.get("/api/availability/", {"opened": "true"})

    assert unreadable.status_code == 400 and "opened" in unreadable.json()["errors"]
    assert opened.status_code == 200
