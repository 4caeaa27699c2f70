"""``/api/accounts/``: the player's interactive gaming accounts, one per certificate holder
(§ 812a.4); deposits (§ 812a.7), withdrawal requests (§ 812a.10), responsible-gaming limits
and the player's own pause (§ 814a.2), and the holder's restrictions (§ 812a.6,
§ 812a.12), for each role; and hostile input, refused with a 4xx and nothing moved."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.game.models import Deposit, GamingAccount, LedgerEntry, Withdrawal
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.account_helpers import nothing_moved

pytestmark = pytest.mark.django_db

ACCOUNT_KEYS = [
    *("id", "holder", "holder_name", "player", "balance", "held", "available", "status"),
    *("status_reason", "status_changed_at", "paused_until", "limits", "pending_limits"),
    "opened_at",
]
HOSTILE_AMOUNTS = ["100", 100.0, 100.5, -100, 0, 10**30, True, None, [100], {"cents": 100}]
HOSTILE_BODIES = [[], "100", 100, None, {"amount": 100, "balance": 10**9}]


def accounts_of(client) -> list[dict]:
    answer = client.get("/api/accounts/")
    assert answer.status_code == 200
    return answer.json()["results"]


# Reading ------------------------------------------------------------------------------


def test_812a4_a_player_lists_and_reads_only_their_own_accounts(
    api_as, funded_player, account_a, holder_a, other_player
):
    client = api_as(funded_player)

    [shown] = accounts_of(client)
    assert list(shown) == ACCOUNT_KEYS
    assert shown == client.get(f"/api/accounts/{account_a.pk}/").json()
    assert shown["id"] == account_a.pk
    assert (shown["holder"], shown["holder_name"]) == (holder_a.pk, holder_a.name)
    assert (shown["player"], shown["status"], shown["status_reason"]) == ("player", "open", "")
    assert (shown["balance"], shown["held"], shown["available"]) == (100_000, 0, 100_000)
    assert (shown["limits"], shown["pending_limits"], shown["paused_until"]) == ({}, {}, None)
    assert shown["opened_at"].endswith("+00:00")
    for theirs in GamingAccount.objects.filter(player=other_player):
        assert client.get(f"/api/accounts/{theirs.pk}/").status_code == 404
        assert client.get(f"/api/accounts/{theirs.pk}/entries/").status_code == 404


@pytest.mark.parametrize(
    ("role", "sees"),
    [
        ("payments_a", {"a"}),
        ("manager_a", {"a"}),
        ("payments_b", {"b"}),
        ("manager_b", {"b"}),
        ("officer", {"a", "b"}),
        ("auditor", {"a", "b"}),
        ("superuser", {"a", "b"}),
    ],
)
def test_812a4_staff_see_only_the_accounts_of_the_holders_the_policy_shows_them(
    request, api_as, role, sees, funded_player, other_player, holder_a, holder_b
):
    client = api_as(request.getfixturevalue(role))
    by_holder = {"a": holder_a.pk, "b": holder_b.pk}

    shown = accounts_of(client)
    assert {row["holder"] for row in shown} == {by_holder[h] for h in sees}
    for account in GamingAccount.objects.all():
        status = 200 if account.holder_id in {by_holder[h] for h in sees} else 404
        assert client.get(f"/api/accounts/{account.pk}/").status_code == status
        assert client.get(f"/api/accounts/{account.pk}/entries/").status_code == status


def test_a_user_with_no_role_and_anonymous_visitors_are_refused(
    api_as, anonymous, no_role, account_a
):
    for client in (api_as(no_role), anonymous):
        for path in ("/api/accounts/", f"/api/accounts/{account_a.pk}/", "/api/withdrawals/"):
            assert client.get(path).status_code == 403


@pytest.mark.parametrize("account_id", ["abc", "1.5", "-1", "0", "99999999999999999999999"])
def test_an_account_id_that_names_no_account_is_a_404(api_as, funded_player, account_id):
    client = api_as(funded_player)

    assert client.get(f"/api/accounts/{account_id}/").status_code == 404
    with nothing_moved():
        answer = client.post(f"/api/accounts/{account_id}/withdraw/", {"amount": 100}, "json")
    assert answer.status_code == 404


def test_812a11_the_entries_of_an_account_are_paged_newest_first(
    api_as, funded_player, account_a, holder_a, holder_b, payments_a
):
    wallet_top_up(player=funded_player, amount=500, holder=holder_a)
    wallet_top_up(player=funded_player, amount=900, holder=holder_b)  # another account's
    wallet_top_up(player=funded_player, amount=700, holder=holder_a)
    path = f"/api/accounts/{account_a.pk}/entries/"

    for client in (api_as(funded_player), api_as(payments_a)):
        page = client.get(path).json()
        assert (page["count"], page["next"], page["previous"]) == (3, None, None)
        assert [e["amount"] for e in page["results"]] == [700, 500, 100_000]
        assert [e["balance_after"] for e in page["results"]] == [101_200, 100_500, 100_000]
        assert {(e["kind"], e["account"], e["round"]) for e in page["results"]} == {
            ("deposit", account_a.pk, None)
        }
        assert client.get(path, {"page": 9}).status_code == 404


def test_the_accounts_list_answers_in_a_fixed_number_of_queries(
    api_as, funded_player, payments_a, officer, holder_a, holder_b, django_assert_num_queries
):
    """Signed in with the login cookie: the session, the user, the roles and holder; then
    the list's count and its page (holder and player joined): five, however many rows."""
    clients = [api_as(user) for user in (funded_player, payments_a, officer)]

    def listed() -> list[int]:
        rows = []
        for client in clients:
            with django_assert_num_queries(5):
                rows.append(len(accounts_of(client)))
        return rows

    assert listed() == [1, 1, 1]
    wallet_top_up(player=funded_player, amount=100, holder=holder_b)
    for n in range(4):
        more = make_user(f"player{n}", Role.PLAYER)
        wallet_top_up(player=more, amount=100, holder=holder_a)
        wallet_top_up(player=more, amount=100, holder=holder_b)
    assert listed() == [2, 5, 10]


def test_accounts_are_never_replaced_or_deleted(api_as, funded_player, account_a, officer):
    for client in (api_as(funded_player), api_as(officer)):
        with nothing_moved():
            assert client.put(f"/api/accounts/{account_a.pk}/", {}, "json").status_code == 405
            assert client.delete(f"/api/accounts/{account_a.pk}/").status_code == 405
            assert client.post("/api/accounts/", {}, "json").status_code == 405


# Deposits (§ 812a.7) -------------------------------------------------------------------


def test_812a7_a_players_deposit_opens_their_account_with_the_holder_and_is_recorded(
    api_as, funded_player, holder_b
):
    answer = api_as(funded_player).post(
        "/api/accounts/deposit/",
        {"holder": holder_b.pk, "amount": 25_000, "method": "card", "reference": "VISA 4242"},
        "json",
    )

    assert answer.status_code == 201
    body = answer.json()
    account = GamingAccount.objects.get(player=funded_player, holder=holder_b)
    deposit = Deposit.objects.get(pk=body["id"])
    assert body == {
        "id": deposit.pk,
        "account": account.pk,
        "amount": 25_000,
        "method": "card",
        "reference": "VISA 4242",
        "made_by": "player",
        "made_at": deposit.made_at.isoformat(),
        "ledger_entry": deposit.entry_id,
        "balance_after": 25_000,
    }
    assert account.balance == 25_000 and deposit.entry.account_id == account.pk
    event = AuditEvent.objects.filter(action="account.deposit").latest("sequence")
    assert (event.object_id, event.after["deposit"]) == (str(account.pk), deposit.pk)


def test_812a7_the_demo_method_deposits_on_the_demo_portal(api_as, funded_player, holder_a):
    answer = api_as(funded_player).post(
        "/api/accounts/deposit/", {"holder": holder_a.pk, "amount": 500, "method": "demo"}, "json"
    )

    assert answer.status_code == 201
    assert answer.json()["reference"] == "" and answer.json()["balance_after"] == 100_500


@pytest.mark.parametrize(
    ("method", "says"),
    [
        ("credit", "§ 812a.7(b)"),
        ("marker", "§ 812a.7(b)"),
        ("cash", "payments staff"),
        ("promotional", "payments staff"),
        ("bitcoin", "§ 812a.7(a)"),
        (7, "§ 812a.7(a)"),
        (["card"], "§ 812a.7(a)"),
    ],
)
def test_812a7b_credit_and_methods_not_offered_to_the_player_are_refused_and_move_nothing(
    api_as, funded_player, holder_a, method, says
):
    with nothing_moved():
        answer = api_as(funded_player).post(
            "/api/accounts/deposit/",
            {"holder": holder_a.pk, "amount": 500, "method": method, "reference": "r-1"},
            "json",
        )

    assert answer.status_code == 400
    assert says in answer.json()["detail"]


@pytest.mark.parametrize("amount", HOSTILE_AMOUNTS)
def test_812a7_a_deposit_of_an_odd_amount_is_refused_and_moves_nothing(
    api_as, funded_player, holder_a, amount
):
    with nothing_moved():
        answer = api_as(funded_player).post(
            "/api/accounts/deposit/",
            {"holder": holder_a.pk, "amount": amount, "method": "card", "reference": "r-1"},
            "json",
        )

    assert answer.status_code == 400
    assert "amount" in answer.json()["errors"]


@pytest.mark.parametrize(
    ("holder", "status"),
    [("1", 400), (1.5, 400), (-1, 400), (10**30, 400), (None, 400), (999_999, 404)],
)
def test_812a4_a_deposit_to_no_holder_is_refused_and_moves_nothing(
    api_as, funded_player, holder, status
):
    with nothing_moved():
        answer = api_as(funded_player).post(
            "/api/accounts/deposit/",
            {"holder": holder, "amount": 500, "method": "card", "reference": "r-1"},
            "json",
        )

    assert answer.status_code == status


@pytest.mark.parametrize(
    "body",
    [
        *HOSTILE_BODIES,
        {"holder": 1, "amount": 500, "method": "card", "reference": "r", "balance_after": 1},
        {"amount": 500, "method": "card", "reference": "r"},
        {"holder": 1, "amount": 500, "method": "card", "reference": "x" * 101},
        {"holder": 1, "amount": 500, "method": "card", "reference": "   "},
        {"holder": 1, "amount": 500, "method": "card"},
        {"holder": 1, "amount": 500, "method": "card", "reference": {"a": 1}},
    ],
)
def test_812a7_an_odd_deposit_body_is_refused_and_moves_nothing(
    api_as, funded_player, holder_a, body
):
    if isinstance(body, dict) and "holder" in body:
        body = {**body, "holder": holder_a.pk}
    with nothing_moved():
        answer = api_as(funded_player).post("/api/accounts/deposit/", body, "json")

    assert answer.status_code == 400
    assert answer.json()["detail"]


@pytest.mark.parametrize("role", ["officer", "manager_a", "auditor", "payments_a", "superuser"])
def test_only_players_make_their_own_deposits(request, api_as, role, holder_a, account_a):
    client = api_as(request.getfixturevalue(role))
    with nothing_moved():
        answer = client.post(
            "/api/accounts/deposit/",
            {"holder": holder_a.pk, "amount": 500, "method": "card", "reference": "r"},
            "json",
        )

    assert answer.status_code == 403


def test_812a7_payments_staff_record_a_deposit_made_at_their_holder(api_as, payments_a, account_a):
    answer = api_as(payments_a).post(
        f"/api/accounts/{account_a.pk}/deposits/",
        {"amount": 20_000, "method": "cash", "reference": "Cage receipt 0042"},
        "json",
    )

    assert answer.status_code == 201
    body = answer.json()
    assert (body["account"], body["method"], body["made_by"]) == (
        account_a.pk,
        "cash",
        "payments_a",
    )
    assert body["balance_after"] == 120_000
    account_a.refresh_from_db()
    assert account_a.balance == 120_000


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("payments_b", 404),  # another holder's account is not there to them
        ("manager_b", 403),
        ("manager_a", 403),
        ("officer", 403),
        ("auditor", 403),
        ("funded_player", 403),
    ],
)
def test_812a7_only_the_holders_payments_staff_record_deposits_at_it(
    request, api_as, role, status, account_a
):
    client = api_as(request.getfixturevalue(role))
    with nothing_moved():
        answer = client.post(
            f"/api/accounts/{account_a.pk}/deposits/",
            {"amount": 20_000, "method": "cash", "reference": "Cage receipt 0042"},
            "json",
        )

    assert answer.status_code == status


@pytest.mark.parametrize(
    "body",
    [
        {"amount": 20_000, "method": "card", "reference": "r"},  # the player's own method
        {"amount": 20_000, "method": "credit", "reference": "r"},  # § 812a.7(b)
        {"amount": 20_000, "method": "demo", "reference": "r"},
        {"amount": 20_000, "method": "cash", "reference": ""},
        {"amount": 20_000, "method": "cash"},
        {"amount": "20000", "method": "cash", "reference": "r"},
        {"amount": 20_000.0, "method": "cash", "reference": "r"},
        {"amount": -20_000, "method": "cash", "reference": "r"},
        {"amount": 10**12, "method": "cash", "reference": "r"},
        {"amount": 20_000, "method": "cash", "reference": "r", "made_by": 1},
        [],
    ],
)
def test_812a7_an_odd_recorded_deposit_is_refused_and_moves_nothing(
    api_as, payments_a, account_a, body
):
    with nothing_moved():
        answer = api_as(payments_a).post(f"/api/accounts/{account_a.pk}/deposits/", body, "json")

    assert answer.status_code == 400


# Withdrawal requests (§ 812a.10) -------------------------------------------------------


def test_812a10_a_withdrawal_request_holds_the_amount_from_play_at_once(
    api_as, funded_player, account_a
):
    client = api_as(funded_player)

    answer = client.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 30_000}, "json")

    assert answer.status_code == 201
    body = answer.json()
    assert (body["status"], body["amount"], body["account"]) == ("pending", 30_000, account_a.pk)
    assert body["age_seconds"] == 0 and body["ledger_entry"] is None
    shown = client.get(f"/api/accounts/{account_a.pk}/").json()
    assert (shown["balance"], shown["held"], shown["available"]) == (100_000, 30_000, 70_000)


def test_812a10_a_withdrawal_over_the_available_balance_is_refused_and_moves_nothing(
    api_as, funded_player, account_a
):
    client = api_as(funded_player)
    first = client.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 60_000}, "json")
    assert first.status_code == 201

    with nothing_moved():
        # Together with the first, a second request would overdraw the account.
        second = client.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 40_001}, "json")
        over = client.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 100_001}, "json")

    for answer in (second, over):
        assert answer.status_code == 400
        assert "§ 812a.10" in answer.json()["detail"]
        assert "amount" in answer.json()["errors"]


@pytest.mark.parametrize("body", [*({"amount": a} for a in HOSTILE_AMOUNTS), *HOSTILE_BODIES, {}])
def test_812a10_an_odd_withdrawal_request_is_refused_and_moves_nothing(
    api_as, funded_player, account_a, body
):
    with nothing_moved():
        answer = api_as(funded_player).post(f"/api/accounts/{account_a.pk}/withdraw/", body, "json")

    assert answer.status_code == 400


def test_812a10_a_player_cannot_withdraw_from_another_players_account(
    api_as, funded_player, other_player
):
    theirs = GamingAccount.objects.filter(player=other_player).first()

    with nothing_moved():
        answer = api_as(funded_player).post(
            f"/api/accounts/{theirs.pk}/withdraw/", {"amount": 100}, "json"
        )

    assert answer.status_code == 404


@pytest.mark.parametrize("role", ["payments_a", "manager_a", "officer", "auditor", "superuser"])
def test_812a10_only_the_player_asks_to_withdraw(request, api_as, role, account_a):
    client = api_as(request.getfixturevalue(role))
    with nothing_moved():
        answer = client.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 100}, "json")

    assert answer.status_code == 403


# Limits and the player's own pause (§ 814a.2) -----------------------------------------


def test_814a2_a_lower_limit_applies_at_once_and_a_higher_one_after_the_period_and_confirmation(
    api_as, funded_player, account_a
):
    client = api_as(funded_player)
    limits = f"/api/accounts/{account_a.pk}/limits/"

    lower = client.post(limits, {"kind": "deposit_day", "value": 5_000}, "json")
    assert lower.status_code == 200
    body = lower.json()
    assert (body["kind"], body["value"], body["applied"]) == ("deposit_day", 5_000, True)
    assert body["account"]["limits"] == {"deposit_day": 5_000}

    higher = client.post(limits, {"kind": "deposit_day", "value": None}, "json").json()
    assert (higher["value"], higher["applied"]) == (None, False)
    assert higher["account"]["limits"] == {"deposit_day": 5_000}
    pending = higher["account"]["pending_limits"]["deposit_day"]
    assert pending == {"value": None, "effective_from": higher["effective_from"]}
    assert higher["effective_from"].endswith("+00:00")

    with nothing_moved():
        early = client.post(f"{limits}confirm/", {"kind": "deposit_day"}, "json")
    assert early.status_code == 409 and "§ 814a.2" in early.json()["detail"]

    after = datetime.datetime.fromisoformat(higher["effective_from"]) + datetime.timedelta(
        minutes=1
    )
    with time_machine.travel(after, tick=False):
        client.force_login(funded_player)  # the next day: a new session (§ 812a.3(a)(6))
        confirmed = client.post(f"{limits}confirm/", {"kind": "deposit_day"}, "json")
    assert confirmed.status_code == 200
    assert confirmed.json()["applied"] is True
    assert confirmed.json()["account"]["limits"] == {}
    assert confirmed.json()["account"]["pending_limits"] == {}


def test_814a2_a_deposit_over_a_limit_is_refused_naming_it(api_as, funded_player, account_a):
    client = api_as(funded_player)
    client.post(
        f"/api/accounts/{account_a.pk}/limits/", {"kind": "deposit_day", "value": 1_000}, "json"
    )

    with nothing_moved():
        answer = client.post(
            "/api/accounts/deposit/",
            {"holder": account_a.holder_id, "amount": 1_500, "method": "card", "reference": "r"},
            "json",
        )

    assert answer.status_code == 400
    assert "daily deposit limit" in answer.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "deposit_year", "value": 100},
        {"kind": "wager", "value": "100"},
        {"kind": "wager", "value": 100.0},
        {"kind": "wager", "value": -1},
        {"kind": "wager", "value": 0},
        {"kind": "wager", "value": 10**30},
        {"kind": "time_day", "value": 24 * 60 + 1},
        {"kind": "wager"},
        {"value": 100},
        {"kind": ["wager"], "value": 100},
        {"kind": "wager", "value": 100, "applied": True},
        *HOSTILE_BODIES,
    ],
)
def test_814a2_an_odd_limit_is_refused_and_changes_nothing(api_as, funded_player, account_a, body):
    with nothing_moved():
        answer = api_as(funded_player).post(f"/api/accounts/{account_a.pk}/limits/", body, "json")

    assert answer.status_code == 400


@pytest.mark.parametrize(
    "body", [{"kind": "wager"}, {"kind": "nope"}, {"kind": 1}, {}, {"kind": "wager", "x": 1}]
)
def test_814a2_confirming_what_is_not_waiting_is_refused(api_as, funded_player, account_a, body):
    with nothing_moved():
        answer = api_as(funded_player).post(
            f"/api/accounts/{account_a.pk}/limits/confirm/", body, "json"
        )

    assert answer.status_code in (400, 409)


def test_814a2_a_player_pauses_their_play_and_deposits_with_the_holder(
    api_as, funded_player, account_a
):
    client = api_as(funded_player)

    answer = client.post(f"/api/accounts/{account_a.pk}/pause/", {"hours": 24}, "json")

    assert answer.status_code == 200
    until = datetime.datetime.fromisoformat(answer.json()["paused_until"])
    assert abs(until - timezone.now() - datetime.timedelta(hours=24)) < datetime.timedelta(
        minutes=1
    )
    with nothing_moved():
        refused = client.post(
            "/api/accounts/deposit/",
            {"holder": account_a.holder_id, "amount": 500, "method": "card", "reference": "r"},
            "json",
        )
        shorter = client.post(f"/api/accounts/{account_a.pk}/pause/", {"hours": 1}, "json")
    assert refused.status_code == 409 and "§ 814a.2" in refused.json()["detail"]
    assert shorter.status_code == 409
    # The money can still be taken out.
    assert (
        client.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 500}, "json").status_code
        == 201
    )


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"hours": 1, "days": 1},
        {"hours": 0},
        {"hours": 721},
        {"days": 366},
        {"days": "2"},
        {"days": 1.5},
        {"hours": None},
        {"weeks": 1},
        *HOSTILE_BODIES,
    ],
)
def test_814a2_an_odd_pause_is_refused_and_changes_nothing(api_as, funded_player, account_a, body):
    with nothing_moved():
        answer = api_as(funded_player).post(f"/api/accounts/{account_a.pk}/pause/", body, "json")

    assert answer.status_code == 400


@pytest.mark.parametrize("role", ["payments_a", "manager_a", "officer", "auditor"])
def test_814a2_only_the_player_sets_their_limits_and_pauses(request, api_as, role, account_a):
    client = api_as(request.getfixturevalue(role))
    base = f"/api/accounts/{account_a.pk}"

    with nothing_moved():
        answers = [
            client.post(f"{base}/limits/", {"kind": "wager", "value": 100}, "json"),
            client.post(f"{base}/limits/confirm/", {"kind": "wager"}, "json"),
            client.post(f"{base}/pause/", {"days": 1}, "json"),
        ]

    assert [a.status_code for a in answers] == [403, 403, 403]


def test_814a2_a_player_cannot_limit_or_pause_another_players_account(
    api_as, funded_player, other_player
):
    theirs = GamingAccount.objects.filter(player=other_player).first()
    client = api_as(funded_player)

    with nothing_moved():
        answers = [
            client.post(
                f"/api/accounts/{theirs.pk}/limits/", {"kind": "wager", "value": 100}, "json"
            ),
            client.post(f"/api/accounts/{theirs.pk}/limits/confirm/", {"kind": "wager"}, "json"),
            client.post(f"/api/accounts/{theirs.pk}/pause/", {"days": 1}, "json"),
        ]

    assert [a.status_code for a in answers] == [404, 404, 404]


# The holder's restrictions (§ 812a.6, § 812a.12) ---------------------------------------


@pytest.mark.parametrize(
    ("role", "status", "clause"),
    [
        ("payments_a", "suspended", "§ 812a.12"),
        ("manager_a", "suspended", "§ 812a.12"),
        ("officer", "self_excluded", "§ 812a.6"),
        ("superuser", "self_excluded", "§ 812a.6"),
    ],
)
def test_812a6_812a12_staff_restrict_an_account_and_it_neither_plays_nor_takes_deposits(
    request, api_as, role, status, clause, funded_player, account_a
):
    staff = request.getfixturevalue(role)

    answer = api_as(staff).post(
        f"/api/accounts/{account_a.pk}/status/",
        {"status": status, "reason": "On the Board's list" if status != "suspended" else "KYC"},
        "json",
    )

    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["status_changed_at"] is not None) == (
        status,
        True,
    )
    event = AuditEvent.objects.filter(action="account.status").latest("sequence")
    assert (event.actor_id, event.object_id) == (staff.pk, str(account_a.pk))
    player = api_as(funded_player)
    with nothing_moved():
        refused = player.post(
            "/api/accounts/deposit/",
            {"holder": account_a.holder_id, "amount": 500, "method": "card", "reference": "r"},
            "json",
        )
    assert refused.status_code == 409 and clause in refused.json()["detail"]
    # Withdrawal of the balance stays possible.
    asked = player.post(f"/api/accounts/{account_a.pk}/withdraw/", {"amount": 100_000}, "json")
    assert asked.status_code == 201
    reopened = api_as(staff).post(
        f"/api/accounts/{account_a.pk}/status/", {"status": "open", "reason": "Cleared"}, "json"
    )
    assert reopened.json()["status"] == "open"


@pytest.mark.parametrize(
    ("role", "status"),
    [("payments_b", 404), ("manager_b", 404), ("auditor", 403), ("funded_player", 403)],
)
def test_812a12_only_staff_of_the_holder_or_compliance_restrict_an_account(
    request, api_as, role, status, account_a
):
    client = api_as(request.getfixturevalue(role))
    with nothing_moved():
        answer = client.post(
            f"/api/accounts/{account_a.pk}/status/", {"status": "suspended", "reason": "x"}, "json"
        )

    assert answer.status_code == status


@pytest.mark.parametrize(
    "body",
    [
        {"status": "closed", "reason": "x"},
        {"status": "suspended", "reason": ""},
        {"status": "suspended", "reason": "   "},
        {"status": "suspended"},
        {"status": "suspended", "reason": 5},
        {"status": "suspended", "reason": "x" * 2001},
        {"status": ["suspended"], "reason": "x"},
        {"status": "suspended", "reason": "x", "balance": 0},
        *HOSTILE_BODIES,
    ],
)
def test_812a12_an_odd_restriction_is_refused_and_changes_nothing(
    api_as, payments_a, account_a, body
):
    with nothing_moved():
        answer = api_as(payments_a).post(f"/api/accounts/{account_a.pk}/status/", body, "json")

    assert answer.status_code == 400


def test_812a4_a_round_answer_names_the_account_it_was_played_from(
    api_as, funded_player, account_a, live_offering
):
    answer = api_as(funded_player).post(
        "/api/rounds/",
        {
            "offering": live_offering.pk,
            "wagers": [{"kind": "red", "stake": 1_000}],
            "idempotency_key": "account-round-1",
        },
        "json",
    )

    assert answer.status_code == 201
    body = answer.json()
    account_a.refresh_from_db()
    assert body["holder"] == account_a.holder_id
    assert (body["balance_before"], body["balance_after"]) == (100_000, account_a.balance)
    stake = LedgerEntry.objects.get(round_id=body["id"], kind="stake")
    assert stake.account_id == account_a.pk
    assert not Withdrawal.objects.exists()
