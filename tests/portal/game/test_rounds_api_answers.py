"""The game API answers what its schema documents: a round is sent through ``RoundOut``'s
declared fields, the wallet through ``WalletOut``'s, as the game page's round data and the
ledger give them (amounts in minor units, instants in UTC)."""

import pytest
from rest_framework.test import APIClient

from portal.game import rounds
from portal.game.models import LedgerEntry, Round
from tests.portal.factories import signed_in_api

pytestmark = pytest.mark.django_db

BET = {"wagers": [{"kind": "red", "stake": 1000}], "idempotency_key": "answer-round-0001"}


@pytest.fixture
def api(funded_player):
    client = signed_in_api(funded_player)
    return client


@pytest.fixture
def schema(officer) -> dict:
    client = APIClient()
    client.force_authenticate(officer)
    return client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]


def test_a_round_is_answered_with_exactly_its_documented_fields(api, live_offering, schema):
    created = api.post("/api/rounds/", {"offering": live_offering.pk, **BET}, format="json")
    round_id = created.json()["id"]

    for answer in (created, api.get(f"/api/rounds/{round_id}/")):
        body = answer.json()
        assert list(body) == list(schema["RoundOut"]["properties"])
        assert [list(wager) for wager in body["wagers"]] == [list(schema["WagerOut"]["properties"])]
        stored = Round.objects.select_related("offering").get(pk=round_id)
        assert body == rounds.round_data(stored) | {
            "holder": stored.offering.holder_id,
            "state": "complete",  # never voided nor adjusted (§ 617a.6, § 812a.7(a)(9))
            "corrections": [],
        }
        assert body["started_at"].endswith("+00:00")
    assert api.get("/api/rounds/").json()["results"] == [created.json()]


def test_a_key_the_page_shows_but_the_schema_does_not_is_not_sent(api, live_offering, monkeypatch):
    shown = rounds.round_data
    monkeypatch.setattr(rounds, "round_data", lambda *args: shown(*args) | {"seed": 7})

    created = api.post("/api/rounds/", {"offering": live_offering.pk, **BET}, format="json")

    assert created.status_code == 201
    assert "seed" not in created.json()
    assert "seed" not in api.get(f"/api/rounds/{created.json()['id']}/").json()


def test_the_wallet_is_answered_with_its_documented_fields_in_utc(api, schema):
    wallet = api.get("/api/wallet/").json()

    assert list(wallet) == list(schema["Wallet"]["properties"])
    [entry] = wallet["entries"]
    assert list(entry) == list(schema["LedgerEntryOut"]["properties"])
    stored = LedgerEntry.objects.get()
    assert entry == {
        "id": stored.pk,
        "kind": stored.kind,
        "account": stored.account_id,
        "amount": stored.amount,
        "balance_after": stored.balance_after,
        "round": None,
        "at": stored.created_at.isoformat(),
    }
    assert entry["at"].endswith("+00:00")


def test_the_round_list_filters_by_table_id(api, live_offering):
    api.post("/api/rounds/", {"offering": live_offering.pk, **BET}, format="json")

    assert api.get("/api/rounds/", {"offering": str(live_offering.pk)}).json()["count"] == 1
    for other in (0, live_offering.pk + 1, 10**18 - 1):
        assert api.get("/api/rounds/", {"offering": str(other)}).json()["count"] == 0


@pytest.mark.parametrize("offering", ["", " 5", "+5", "5.0", "٣", "1234567890123456789"])
def test_the_round_list_refuses_an_offering_that_is_not_ascii_digits(api, offering):
    answer = api.get("/api/rounds/", {"offering": offering})

    assert answer.status_code == 400
    assert answer.json()["errors"] == {"offering": ["offering filter must be a table id"]}
