import re

import pytest
from django.core.management import call_command
from django.urls import include, path
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from portal.api.routers import ApiRouter
from portal.compliance.api import urls as compliance_api
from portal.urls import api_router
from tests.portal.factories import PASSWORD
from tests.portal.page_helpers import addresses_off_site

pytestmark = pytest.mark.django_db

RESOURCES = ["holders", "layouts", "paytables", "rules-submissions", "offerings", "audit-events"]
ROOT_RESOURCES = [*RESOURCES, "availability", "tokens", "reports", "rounds", "wallet", "regulation"]
ROOT_RESOURCES += ["accounts", "withdrawals"]  # the player's accounts (§ 812a.4, § 812a.10)
ROOT_RESOURCES += ["corrections"]  # voids and adjustments of rounds (§ 617a.6, § 812a.7(a)(9))
ROOT_RESOURCES += ["terms"]  # each holder's terms and conditions (§ 811a.3)
ROOT_RESOURCES += ["sessions"]  # a player's sessions (§ 812a.3(a)(6))
ROOT_RESOURCES += ["complaints"]  # complaints and disputes (reading:complaint-number)
ROOT_RESOURCES += ["software-approvals"]  # the game software's approvals (§ 461a.4)
ROOT_RESOURCES += ["software/installations"]  # the software installation log (§ 811a.7(e))
ROOT_RESOURCES += ["software/identity"]  # the game software running (§ 461a.4)
ACTIONS = ["submit", "approve", "reject", "request-changes", "withdraw", "amend"]


def test_the_openapi_schema_describes_every_route(api_as, officer):
    response = api_as(officer).get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Jinzi Roulette back office API"
    paths = schema["paths"]
    for resource in RESOURCES:
        assert f"/api/{resource}/" in paths
        assert f"/api/{resource}/{{id}}/" in paths
    for resource in ["layouts", "paytables", "rules-submissions"]:
        for step in ACTIONS:
            assert "post" in paths[f"/api/{resource}/{{id}}/{step}/"]
    assert "post" in paths["/api/offerings/{id}/retire/"]
    assert "get" in paths["/api/audit-events/export/"]
    assert "get" in paths["/api/audit-events/verify/"]
    assert "put" not in paths["/api/paytables/{id}/"]
    assert "delete" not in paths["/api/paytables/{id}/"]
    assert {"get", "post"} <= set(paths["/api/tokens/"])
    assert "delete" in paths["/api/tokens/{id}/"]
    assert "bearerToken" in schema["components"]["securitySchemes"]
    # The player's accounts with the holders (Chapter 812a): read, and acted on by route.
    assert {"get"} == set(paths["/api/accounts/"]) - {"head", "options"}
    assert "get" in paths["/api/accounts/{id}/"]
    assert "get" in paths["/api/accounts/{id}/entries/"]
    assert "get" in paths["/api/withdrawals/"] and "get" in paths["/api/withdrawals/{id}/"]
    for route in ("deposit", "{id}/deposits", "{id}/withdraw", "{id}/limits"):
        assert set(paths[f"/api/accounts/{route}/"]) == {"post"}
    for route in ("{id}/limits/confirm", "{id}/pause", "{id}/status"):
        assert set(paths[f"/api/accounts/{route}/"]) == {"post"}
    for step in ("cancel", "pay", "refuse"):
        assert set(paths[f"/api/withdrawals/{{id}}/{step}/"]) == {"post"}
    assert "put" not in paths["/api/accounts/{id}/"]
    assert "delete" not in paths["/api/withdrawals/{id}/"]
    # Voids and adjustments of rounds (§ 617a.6, § 812a.7(a)(9)): proposed, then decided
    # by the workflow's steps, never edited nor deleted.
    assert {"get", "post"} == set(paths["/api/corrections/"])
    assert {"get"} == set(paths["/api/corrections/{id}/"])
    for step in ("approve", "reject"):
        assert set(paths[f"/api/corrections/{{id}}/{step}/"]) == {"post"}


def test_action_bodies_are_documented():
    generator = SchemaGenerator(patterns=[path("api/", include(api_router.urls))])
    paths = generator.get_schema(request=None, public=True)["paths"]

    def body(path: str) -> str:
        content = paths[path]["post"]["requestBody"]["content"]
        return content["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]

    assert body("/api/layouts/{id}/approve/") == "LayoutApproveInput"
    assert body("/api/paytables/{id}/approve/") == "PaytableApproveInput"
    assert body("/api/rules-submissions/{id}/approve/") == "RulesSubmissionApproveInput"
    assert body("/api/paytables/{id}/reject/") == "ReasonInput"
    assert "requestBody" not in paths["/api/layouts/{id}/submit/"]["post"]
    assert body("/api/accounts/deposit/") == "DepositIn"
    assert body("/api/accounts/{id}/deposits/") == "DepositRecordIn"
    assert body("/api/accounts/{id}/withdraw/") == "WithdrawIn"
    assert body("/api/accounts/{id}/limits/") == "LimitIn"
    assert body("/api/accounts/{id}/limits/confirm/") == "LimitConfirmIn"
    assert body("/api/accounts/{id}/pause/") == "PauseIn"
    assert body("/api/accounts/{id}/status/") == "StatusIn"
    assert body("/api/withdrawals/{id}/pay/") == "PayIn"
    assert body("/api/withdrawals/{id}/refuse/") == "ReasonIn"
    assert body("/api/corrections/") == "CorrectionIn"
    assert body("/api/corrections/{id}/approve/") == "DecisionIn"
    assert body("/api/corrections/{id}/reject/") == "DecisionIn"
    corrections = paths["/api/corrections/"]["get"]
    assert {"page", "status", "kind", "round"} <= {p["name"] for p in corrections["parameters"]}
    entries = paths["/api/accounts/{id}/entries/"]["get"]
    assert "page" in {p["name"] for p in entries["parameters"]}  # a paginated list
    withdrawals = paths["/api/withdrawals/"]["get"]
    assert "status" in {p["name"] for p in withdrawals["parameters"]}
    export = paths["/api/audit-events/export/"]["get"]
    assert {"since", "until", "action"} <= {p["name"] for p in export["parameters"]}


def test_the_compliance_api_schema_generates_without_warnings():
    GENERATOR_STATS.reset()
    compliance = ApiRouter(compliance_api.routes)
    generator = SchemaGenerator(patterns=[path("api/", include(compliance.urls))])

    schema = generator.get_schema(request=None, public=True)

    validate_schema(schema)
    assert not GENERATOR_STATS, (
        dict(GENERATOR_STATS._warn_cache),
        dict(GENERATOR_STATS._error_cache),
    )
    assert "/api/layouts/{id}/approve/" in schema["paths"]


def test_the_project_schema_generates_without_warnings(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )

    assert (tmp_path / "schema.yml").read_text().startswith("openapi:")


def test_the_docs_page_is_served_from_local_static_assets(api_as, officer):
    response = api_as(officer).get("/api/docs/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assets = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    local = ("/static/drf_spectacular_sidecar/", "/static/core/", "/api/docs/?script")
    assert assets and all(a.startswith(local) for a in assets)
    assert addresses_off_site(html) == []


def test_the_schema_needs_a_signed_in_user(anonymous):
    assert anonymous.get("/api/schema/").status_code == 403


def test_the_docs_send_a_signed_out_visitor_to_sign_in_and_back(client, officer):
    sent = client.get("/api/docs/")
    assert sent.status_code == 302
    assert sent["Location"] == "/accounts/login/?next=/api/docs/"

    back = client.post(
        sent["Location"], {"username": "officer", "password": PASSWORD, "next": "/api/docs/"}
    )
    assert back.status_code == 302 and back["Location"] == "/api/docs/"
    assert client.get("/api/docs/").status_code == 200


def test_the_api_root_lists_the_resources(api_as, officer):
    response = api_as(officer).get("/api/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    assert set(response.json()) == set(ROOT_RESOURCES)
