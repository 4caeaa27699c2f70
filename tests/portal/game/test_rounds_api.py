import pytest
from django.db import connection
from rest_framework.test import APIClient

from portal.game.models import GamingAccount, LedgerEntry, Round
from portal.game.play import messages as msg
from tests.portal.factories import signed_in_api

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(funded_player):
    client = signed_in_api(funded_player)
    return client


def _round(offering, wagers, key="api-round-0001"):
    return {"offering": offering.pk, "wagers": wagers, "idempotency_key": key}


def _nothing_moved(player, rounds=0):
    assert GamingAccount.objects.get(player=player).balance == 100_000
    assert Round.objects.count() == rounds
    assert LedgerEntry.objects.count() == 1 + 2 * rounds  # the deposit (+ stake/return)


def test_post_round_returns_the_settled_round_with_its_record(api, live_offering):
    response = api.post(
        "/api/rounds/", _round(live_offering, [{"kind": "red", "stake": 1000}]), format="json"
    )

    assert response.status_code == 201
    body = response.json()
    stored = Round.objects.get(pk=body["id"])
    assert body["outcome"] == stored.outcome
    account = GamingAccount.objects.get()
    assert body["balance_after"] == stored.balance_after == account.balance
    assert body["holder"] == account.holder_id == live_offering.holder_id  # § 812a.4
    assert body["wagers"] == [
        {
            "kind": "red",
            "numbers": [],
            "spot": "red",
            "label": "Red",
            "stake": 1000,
            "returned": stored.bets.get().returned,
        }
    ]
    assert body["paytable"]["version"] == 1
    assert body["rng"]["method"].startswith("secrets.randbits(4)")
    assert f"straight:{stored.outcome}" in body["winning_spots"]


def test_a_retried_post_returns_the_same_round(api, live_offering):
    payload = _round(live_offering, [{"kind": "black", "stake": 1000}], key="same-key-twice")
    first = api.post("/api/rounds/", payload, format="json")
    second = api.post("/api/rounds/", payload, format="json")

    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["id"] == second.json()["id"]
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    ("wagers", "status", "text"),
    [
        ([{"kind": "dozen", "stake": 200}], 400, "unknown wager kind"),
        ([{"kind": "split", "numbers": [1, 5], "stake": 200}], 400, "617b.8(d)"),
        ([{"kind": "red", "stake": 201}], 400, "617b.8(g)"),
        ([{"kind": "red", "stake": 200.5}], 400, "whole number"),
        ([{"kind": "red", "stake": 60_000}], 400, "table maximum"),
        (
            [{"kind": k, "stake": 50_000} for k in ("red", "small", "big")],
            400,
            "more than your balance",
        ),
        ([], 400, "at least one wager"),
        (
            [{"kind": "straight", "numbers": [n % 13], "stake": 200} for n in range(60)],
            400,
            "at most",
        ),
    ],
)
def test_bad_rounds_get_a_clear_4xx_and_move_no_money(
    api, funded_player, live_offering, wagers, status, text
):
    response = api.post("/api/rounds/", _round(live_offering, wagers), format="json")

    assert response.status_code == status
    assert text in response.json()["detail"]
    _nothing_moved(funded_player)


@pytest.mark.parametrize(
    "payload",
    [
        {"offering": 1, "wagers": [], "idempotency_key": "k" * 10, "balance": 10**9},
        {"wagers": [], "idempotency_key": "k" * 10},
        ["not", "an", "object"],
        {"offering": "1", "wagers": [{"kind": "red", "stake": 200}], "idempotency_key": "k" * 10},
        {"offering": 1, "wagers": [{"kind": "red", "stake": 200}], "idempotency_key": "short"},
    ],
)
def test_malformed_or_forged_bodies_are_refused(api, funded_player, live_offering, payload):
    response = api.post("/api/rounds/", payload, format="json")

    assert response.status_code == 400
    assert response.json()["detail"]
    _nothing_moved(funded_player)


@pytest.mark.parametrize("offering", [0, -1, 999_999, 2**63 - 1, 2**63, 10**30])
def test_an_offering_id_that_is_no_table_is_a_404(api, funded_player, offering):
    payload = {
        "offering": offering,
        "wagers": [{"kind": "red", "stake": 200}],
        "idempotency_key": "no-such-table-1",
    }

    response = api.post("/api/rounds/", payload, format="json")

    assert response.status_code == 404
    assert response.json()["detail"] == msg.NO_SUCH_OFFERING.format(id=offering)
    _nothing_moved(funded_player)


def test_a_closed_offering_answers_409_with_the_reasons(api, funded_player, live_offering, officer):
    from portal.compliance.services.paytables import paytable_withdraw

    paytable_withdraw(actor=officer, paytable=live_offering.paytable, reason="Recall")

    response = api.post(
        "/api/rounds/", _round(live_offering, [{"kind": "red", "stake": 200}]), format="json"
    )

    assert response.status_code == 409
    body = response.json()
    # The player reads one plain sentence; the records' reasons stay in the answer, for staff.
    assert body["detail"] == "This table is closed for a rules change."
    assert any("paytable v1 is not approved" in reason for reason in body["errors"]["offering"])
    _nothing_moved(funded_player)


def test_players_see_only_their_own_rounds_and_auditors_see_all(
    api, funded_player, live_offering, auditor, django_user_model
):
    from portal.access.roles import Role
    from tests.portal.factories import make_user
    from tests.portal.funding import wallet_top_up

    api.post("/api/rounds/", _round(live_offering, [{"kind": "red", "stake": 200}]), format="json")
    other = make_user("other_player", Role.PLAYER)
    wallet_top_up(player=other, amount=1000)
    other_client = signed_in_api(other)
    theirs = other_client.post(
        "/api/rounds/", _round(live_offering, [{"kind": "red", "stake": 200}]), format="json"
    ).json()

    mine = api.get("/api/rounds/").json()
    assert [r["player"] for r in mine["results"]] == ["player"]
    assert api.get(f"/api/rounds/{theirs['id']}/").status_code == 404
    auditor_client = APIClient()
    auditor_client.force_authenticate(auditor)
    assert auditor_client.get("/api/rounds/").json()["count"] == 2
    assert auditor_client.get(f"/api/rounds/{theirs['id']}/").status_code == 200


def test_only_players_may_post_rounds(auditor, live_offering):
    client = APIClient()
    client.force_authenticate(auditor)

    response = client.post(
        "/api/rounds/", _round(live_offering, [{"kind": "red", "stake": 200}]), format="json"
    )

    assert response.status_code == 403
    assert Round.objects.count() == 0


def test_anonymous_users_get_403(live_offering):
    client = APIClient()

    assert client.get("/api/rounds/").status_code == 403
    assert client.get("/api/wallet/").status_code == 403


def test_wallet_shows_balance_and_ledger_and_tops_up(api):
    wallet = api.get("/api/wallet/").json()
    assert wallet["balance"] == 100_000
    assert wallet["entries"][0]["kind"] == "deposit"

    topped = api.post("/api/wallet/top-up/", {"amount": 5000}, format="json")
    assert topped.status_code == 200
    assert topped.json()["balance"] == 105_000
    for bad in ({"amount": 5000.0}, {"amount": -1}, {"amount": 5000, "balance": 1}, {}):
        assert api.post("/api/wallet/top-up/", bad, format="json").status_code == 400
    assert api.get("/api/wallet/").json()["balance"] == 105_000


def test_round_list_queries_do_not_grow_with_rounds(api, live_offering, django_assert_num_queries):
    def play(n):
        api.post(
            "/api/rounds/",
            _round(live_offering, [{"kind": "red", "stake": 200}], key=f"list-round-{n:04d}"),
            format="json",
        )

    play(0)
    # The bearer token's sign-in (the token with its user, the roles, the API session), then
    # the count, the page, its bets, and its rounds' voids and adjustments (one query for
    # the page, § 617a.6, § 812a.7(a)(9)).
    with django_assert_num_queries(7) as one:
        api.get("/api/rounds/")
    for n in range(1, 8):
        play(n)
    with django_assert_num_queries(7) as many:
        assert api.get("/api/rounds/").json()["count"] == 8
    assert len(one.captured_queries) == len(many.captured_queries)


def test_812a4_a_rounds_answer_names_its_holder_without_a_query_of_its_own(
    api, live_offering, django_assert_num_queries
):
    """The played round's answer says whose account paid (§ 812a.4) from the offering the
    round read: the request sends its sign-in's statements and the round's, no more."""
    api.post("/api/rounds/", _round(live_offering, [{"kind": "red", "stake": 200}]), format="json")
    # The bearer token's sign-in: the token with its user, the user's roles, the player's
    # API session that runs (§ 812a.3(a)(6)); then the round's statements as
    # test_round_service pins them (SQLite's ORM reads the holder's terms, the session and
    # the software's approval in statements of their own; PostgreSQL's one read joins them).
    statements = 3 + {"postgresql": 4, "sqlite": 16}[connection.vendor]
    with django_assert_num_queries(statements):
        answer = api.post(
            "/api/rounds/",
            _round(live_offering, [{"kind": "red", "stake": 200}], key="api-round-0002"),
            format="json",
        )
    assert answer.status_code == 201
    assert answer.json()["holder"] == live_offering.holder_id
