"""``verify_records``: the rows beside the chains say what the trail says (§ 811a.7, § 810a.11,
§ 812a.4, § 812a.7, § 812a.10).

Each tampering test plays an attacker with database rights: plain SQL, with the append-only
triggers lifted where the table has them, then the check must name what was changed.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, Offering, Paytable, RecordStatus
from portal.compliance.services.layouts import layout_reject, layout_submit, layout_update
from portal.compliance.services.offerings import offering_retire
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_submit,
    paytable_update,
)
from portal.core import append_only
from portal.game.models import (
    Deposit,
    GamingAccount,
    LedgerEntry,
    Wallet,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from portal.integrity.records import verify_records
from tests.portal.factories import (
    MINIMUM_ODDS,
    acknowledged,
    approved_offering,
    make_layout,
    make_paytable,
    make_user,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round
from tests.portal.integrity.legacy_money import carry_over, legacy_top_up

pytestmark = pytest.mark.django_db


def _sql(statement: str, params: list, *, lift: tuple[str, ...] = ()) -> None:
    """Change rows as someone with database rights would, lifting the named tables'
    append-only triggers for the moment."""
    for table in lift:
        append_only.drop(connection, table)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
    for table in lift:
        append_only.install(connection, table)


@pytest.fixture
def world(manager_a, officer, holder_a, funded_player, payments_a):
    """A live table with rounds played on it, an amended and superseded paytable, a
    rejected layout, a draft, a retired table, deposits, a paid and a pending withdrawal,
    and a player from before accounts per holder whose single wallet's top-up was carried
    over into their account."""
    earlier = make_user("earlier", Role.PLAYER)
    legacy_top_up(earlier, 20_000)
    carry_over()  # the upgrade, before anyone played
    offering = approved_offering(manager_a, officer, holder_a)
    for n in range(3):
        play_round(funded_player, offering, f"world-round-{n}", outcome=n)
    account = wallet_top_up(player=funded_player, amount=5_000)
    paid = withdrawal_request(player=funded_player, account_id=account.pk, amount=3_000)
    withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH 1001")
    withdrawal_request(player=funded_player, account_id=account.pk, amount=2_000)
    draft = paytable_amend(actor=manager_a, paytable=offering.paytable)
    draft = paytable_update(
        actor=manager_a, paytable=draft, odds={**MINIMUM_ODDS, "split": "51/10"}
    )
    draft = paytable_submit(actor=manager_a, paytable=draft)
    paytable_approve(
        actor=officer,
        paytable=draft,
        override_reason="$1 chips only",
        edge_acknowledged=acknowledged(draft),
    )
    rejected = layout_submit(
        actor=manager_a, layout=make_layout(manager_a, holder_a, title="Rejected")
    )
    layout_reject(actor=officer, layout=rejected, reason="artwork unreadable")
    second = approved_offering(manager_a, officer, holder_a, name="Table 2")
    offering_retire(actor=manager_a, offering=second, reason="closing the room")
    return {
        "offering": offering,
        "player": funded_player,
        "account": account,
        "earlier": earlier,
        "draft": make_layout(manager_a, holder_a, title="Draft"),
        "rejected": rejected,
    }


def _problems(report) -> list[str]:
    return [str(problem) for problem in report.problems]


def test_811a7_a_world_written_by_the_services_verifies(world):
    report = verify_records()

    assert report.ok, _problems(report)
    assert report.checked["layouts"] == Layout.objects.count() == 4
    assert report.checked["paytables"] == Paytable.objects.count() == 3
    assert report.checked["rules submissions"] == 2
    assert report.checked["offerings"] == 2
    assert report.checked["rounds"] == 3
    assert report.checked["top-ups"] == 1  # the single wallet's, before accounts
    assert report.checked["deposits"] == 2  # the fixture's and the world's
    assert report.checked["withdrawals paid"] == 1
    assert report.checked["accounts"] == GamingAccount.objects.count() == 2
    assert report.checked["wallets"] == 2
    assert LedgerEntry.objects.filter(kind="carried_out").count() == 1
    assert LedgerEntry.objects.filter(kind="carried_in").count() == 1
    assert report.checked["ledger entries"] == LedgerEntry.objects.count()
    assert report.checked["record events replayed"] > 20


def test_811a7_raw_sql_status_change_is_caught(world):
    draft = world["draft"]
    _sql("UPDATE compliance_layout SET status = 'approved' WHERE id = %s", [draft.pk])

    report = verify_records()

    assert not report.ok
    (problem,) = report.problems
    assert problem.subject == f"layout #{draft.pk} v1"
    assert 'status is "approved" but its audit events leave it "draft"' in problem.detail
    assert "§ 811a.7" in problem.detail and "layout.create" in problem.detail


def test_811a7_raw_sql_decision_fields_are_caught(world):
    rejected = world["rejected"]
    _sql(
        "UPDATE compliance_layout SET decision_reason = %s, decided_by_id = NULL WHERE id = %s",
        ["looks fine", rejected.pk],
    )

    details = " ".join(_problems(verify_records()))

    assert f"layout #{rejected.pk} v1: § 811a.7: decided_by_id is null" in details
    assert 'decision_reason is "looks fine"' in details


def test_811a7_a_change_overwritten_by_a_later_service_call_is_still_caught(
    manager_a, officer, holder_a
):
    """A paytable's odds lowered in the database while it waits, then approved through the
    service: the approval's 'before' shows what the submission's 'after' did not."""
    paytable = paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a))
    _sql("UPDATE compliance_paytable SET name = %s WHERE id = %s", ["Generous", paytable.pk])
    paytable_approve(actor=officer, paytable=paytable)

    (problem,) = verify_records().problems

    assert problem.subject == f"paytable #{paytable.pk} v1"
    assert 'name was "Standard" after event' in problem.detail
    assert '(paytable.submit) but "Generous" when event' in problem.detail
    assert "(paytable.approve) found it: changed outside the services in between" in (
        problem.detail
    )


def test_811a7_a_rules_submissions_listed_games_are_checked(world):
    rules = world["offering"].rules_submission
    _sql(
        "UPDATE compliance_listedgame SET max_wager = 100000 WHERE submission_id = %s",
        [rules.pk],
    )

    (problem,) = verify_records().problems

    assert problem.subject == f"rules submission #{rules.pk} v1"
    assert "games.jinzi_roulette.max_wager is 100000 but its audit events leave it 50000" in (
        problem.detail
    )


def test_811a7_an_offering_moved_in_the_database_is_caught(world):
    retired = Offering.objects.get(name="Table 2")
    _sql("UPDATE compliance_offering SET status = 'active' WHERE id = %s", [retired.pk])

    (problem,) = verify_records().problems

    assert problem.subject == f"offering #{retired.pk}"
    assert 'status is "active" but its audit events leave it "retired"' in problem.detail
    assert "offering.retire" in problem.detail


def test_811a7_authors_may_grow_without_an_event_but_never_shrink(world, superuser, manager_a):
    draft = world["draft"]
    # An edit that changes nothing writes no event but makes its editor an author.
    layout_update(actor=superuser, layout=draft, title=draft.title)
    draft.refresh_from_db()
    assert superuser.pk in draft.author_ids
    assert verify_records().ok

    _sql("UPDATE compliance_layout SET author_ids = '[]' WHERE id = %s", [draft.pk])

    (problem,) = verify_records().problems
    assert problem.subject == f"layout #{draft.pk} v1"
    assert f"author_ids is [] but its audit events leave it [{manager_a.pk}]" in problem.detail


def test_811a7_a_record_written_without_any_event_is_caught(world, manager_a, holder_a):
    forged = Paytable.objects.create(
        holder=holder_a,
        name="Side door",
        odds=MINIMUM_ODDS,
        created_by=manager_a,
        status=RecordStatus.APPROVED,
    )

    (problem,) = verify_records().problems

    assert problem.subject == f"paytable #{forged.pk} v1"
    assert "no audit event records it: it was written outside the services" in problem.detail


def test_811a7_events_of_a_deleted_record_are_caught(world):
    draft = world["draft"]
    _sql("DELETE FROM compliance_layout WHERE id = %s", [draft.pk])

    (problem,) = verify_records().problems

    assert problem.subject == f"layout #{draft.pk}"
    assert "name a record that is no longer stored" in problem.detail


def _forge_top_up(wallet: Wallet, amount: int) -> int:
    """A top-up row added in SQL, with the wallet's balance moved to match: the ledger and
    the wallet agree, only the audit trail knows nothing of it."""
    _sql(
        "INSERT INTO game_ledgerentry (wallet_id, kind, amount, balance_after, created_at) "
        "VALUES (%s, 'top_up', %s, %s, CURRENT_TIMESTAMP)",
        [wallet.pk, amount, wallet.balance + amount],
    )
    _sql("UPDATE game_wallet SET balance = balance + %s WHERE id = %s", [amount, wallet.pk])
    return LedgerEntry.objects.filter(wallet=wallet).latest("pk").pk


def test_811a7_forged_top_up_is_caught(world):
    wallet = Wallet.objects.get(player=world["earlier"])
    entry = _forge_top_up(wallet, 90_000)

    (problem,) = verify_records().problems

    assert problem.area == "top-up"
    assert problem.subject == f"ledger entry #{entry} (wallet #{wallet.pk}, top-up +90000)"
    assert "no wallet.top_up audit event records this top-up" in problem.detail
    assert problem.detail == (
        "§ 811a.7: no wallet.top_up audit event records this top-up: it was written outside "
        "the services (forged credit)"
    )


def test_811a7_a_top_up_event_that_disagrees_with_its_entry_is_caught(world):
    """An entry whose audit event says another amount (the event written first, honestly,
    then the entry swapped in SQL): the amount and balance are named."""
    wallet = Wallet.objects.get(player=world["earlier"])
    entry = LedgerEntry.objects.filter(wallet=wallet, kind="top_up").latest("pk")
    _sql(
        "UPDATE game_ledgerentry SET amount = amount * 2, balance_after = balance_after + "
        "amount WHERE id = %s",
        [entry.pk],
        lift=("game_ledgerentry",),
    )
    _sql("UPDATE game_wallet SET balance = balance + %s WHERE id = %s", [entry.amount, wallet.pk])

    details = _problems(verify_records())

    assert any(
        f"ledger entry #{entry.pk}" in d and "records another amount, balance" in d for d in details
    ), details


def test_810a11_wallet_not_equal_to_its_ledger_is_caught(world):
    wallet = Wallet.objects.get(player=world["player"])
    _sql("UPDATE game_wallet SET balance = balance + 500 WHERE id = %s", [wallet.pk])

    (problem,) = verify_records().problems

    assert problem.subject == f"wallet #{wallet.pk} (player {world['player'].pk})"
    assert f"it holds {wallet.balance + 500}, its ledger adds up to {wallet.balance}" in (
        problem.detail
    )


def test_810a11_an_entry_off_its_running_balance_is_caught(world):
    account = world["account"]
    first = LedgerEntry.objects.filter(account=account).earliest("pk")
    _sql(
        "UPDATE game_ledgerentry SET balance_after = balance_after + 2 WHERE id = %s",
        [first.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert f"account #{account.pk}: § 810a.11: ledger entry #{first.pk} says the balance is" in (
        details
    )


def test_810a11_an_entry_of_the_single_wallet_off_its_running_balance_is_caught(world):
    wallet = Wallet.objects.get(player=world["earlier"])
    first = LedgerEntry.objects.filter(wallet=wallet, account=None).earliest("pk")
    _sql(
        "UPDATE game_ledgerentry SET balance_after = balance_after + 2 WHERE id = %s",
        [first.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert f"wallet #{wallet.pk}: § 810a.11: ledger entry #{first.pk} says the balance is" in (
        details
    )


def test_810a11_an_account_not_equal_to_its_ledger_is_caught(world):
    account = world["account"]
    account.refresh_from_db()
    _sql("UPDATE game_gamingaccount SET balance = balance + 500 WHERE id = %s", [account.pk])

    (problem,) = verify_records().problems

    assert problem.area == "account"
    assert problem.subject == (
        f"account #{account.pk} (player {world['player'].pk}, holder #{account.holder_id})"
    )
    assert problem.detail == (
        f"§ 810a.11: it holds {account.balance + 500}, its ledger adds up to {account.balance}"
    )


def test_810a11_stake_that_does_not_match_its_round_is_caught(world):
    stake = LedgerEntry.objects.filter(kind="stake").earliest("pk")
    _sql(
        "UPDATE game_ledgerentry SET amount = amount + 200 WHERE id = %s",
        [stake.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert f"ledger entry #{stake.pk}" in details
    assert f"it moves {stake.amount + 200:+d}, its round #{stake.round_id} recorded" in details


def test_810a11_return_entry_with_no_round_is_caught(world):
    wallet = Wallet.objects.get(player=world["player"])
    _sql(
        "INSERT INTO game_ledgerentry (wallet_id, kind, amount, balance_after, created_at) "
        "VALUES (%s, 'return', 700, %s, CURRENT_TIMESTAMP)",
        [wallet.pk, wallet.balance + 700],
    )

    details = " ".join(_problems(verify_records()))

    assert "a return entry that names no round: no round backs it" in details
    assert f"wallet #{wallet.pk} (player" in details  # and the wallet no longer adds up


def test_810a11_round_whose_bets_were_changed_is_caught(world):
    round_obj = world["player"].rounds.earliest("pk")
    _sql(
        "UPDATE game_bet SET stake = stake + 200 WHERE round_id = %s AND position = 0",
        [round_obj.pk],
        lift=("game_bet",),
    )

    (problem,) = verify_records().problems

    assert problem.subject == f"round #{round_obj.pk}"
    assert f"its bets add up to {round_obj.total_staked + 200}" in problem.detail


def test_810a11_round_whose_stake_entry_is_gone_is_caught(world):
    round_obj = world["player"].rounds.earliest("pk")
    _sql(
        "DELETE FROM game_ledgerentry WHERE round_id = %s AND kind = 'stake'",
        [round_obj.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert f"round #{round_obj.pk}: § 810a.11: the ledger has 0 stake and" in details


def test_811a7_the_checks_take_the_same_queries_whatever_the_data(
    world, manager_a, officer, holder_a, payments_a
):
    table = approved_offering(manager_a, officer, holder_a, name="Table 3")
    with CaptureQueriesContext(connection) as small:
        assert verify_records().ok
    for n in range(5):
        play_round(world["player"], table, f"more-round-{n}")
        account = wallet_top_up(player=world["player"], amount=1_000)
        asked = withdrawal_request(player=world["player"], account_id=account.pk, amount=100)
        if n % 2:
            withdrawal_pay(actor=payments_a, withdrawal_id=asked.pk, payout_reference=f"P{n}")
        legacy_top_up(make_user(f"earlier{n}", Role.PLAYER), 1_000)
        make_paytable(manager_a, holder_a, name=f"More {n}")

    with CaptureQueriesContext(connection) as large:
        report = verify_records()

    assert report.ok and report.checked["rounds"] == 8
    # 30 reads: 9 for the records, 21 for the money (entries against rounds 1, rounds 3,
    # top-ups 2, deposits 2, payouts 2, voids and adjustments 4 (the void rounds whose
    # adjustments a void left in place, reading:corrections-compose), running balances 1,
    # counts 3, accounts 1, wallets 1, carry-overs 1).
    assert len(large) == len(small) == 30


def test_811a7_the_command_passes_on_a_clean_world(world, capsys):
    call_command("verify_records")

    out = capsys.readouterr().out
    assert "records intact: layouts: 4" in out and "rounds: 3" in out


def test_811a7_the_command_exits_non_zero_naming_every_problem(world):
    draft = world["draft"]
    _sql("UPDATE compliance_layout SET status = 'approved' WHERE id = %s", [draft.pk])
    wallet = Wallet.objects.get(player=world["player"])
    entry = _forge_top_up(wallet, 1_000)

    with pytest.raises(CommandError) as raised:
        call_command("verify_records")

    text = str(raised.value)
    assert "2 problem(s)" in text
    assert f"layout #{draft.pk} v1: § 811a.7: status is" in text
    assert f"ledger entry #{entry} (wallet #{wallet.pk}, top-up +1000)" in text


def test_811a7_the_page_shows_problems_to_auditors(world, auditor):
    draft = world["draft"]
    _sql("UPDATE compliance_layout SET status = 'approved' WHERE id = %s", [draft.pk])
    client = Client()
    client.force_login(auditor)

    response = client.get("/audit/records/")

    assert response.status_code == 200
    body = response.content.decode()
    assert "1 problem</strong>" in body and f"layout #{draft.pk} v1" in body
    assert "status is &quot;approved&quot;" in body


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("auditor", 200),
        ("officer", 200),
        ("superuser", 200),
        ("player", 403),
        ("manager_a", 403),
    ],
)
def test_811a7_the_page_is_for_auditors_and_compliance(request, role, status):
    client = Client()
    client.force_login(request.getfixturevalue(role))

    response = client.get("/audit/records/")

    assert response.status_code == status
    if status == 200:
        assert "Intact." in response.content.decode()


def test_the_page_asks_a_visitor_to_sign_in(db):
    assert Client().get("/audit/records/").status_code == 302


def test_the_chain_page_links_to_the_records_page(auditor):
    client = Client()
    client.force_login(auditor)

    assert 'href="/audit/records/"' in client.get("/audit/verify/").content.decode()


def test_811a7_every_top_up_event_is_matched_once(world):
    events = AuditEvent.objects.filter(action="wallet.top_up")

    assert events.count() == LedgerEntry.objects.filter(kind="top_up").count() == 1


def test_812a7_every_deposit_and_payout_has_one_event(world):
    deposits = AuditEvent.objects.filter(action="account.deposit")
    payouts = AuditEvent.objects.filter(action="withdrawal.pay")

    assert deposits.count() == LedgerEntry.objects.filter(kind="deposit").count() == 2
    assert deposits.count() == Deposit.objects.count()
    assert payouts.count() == LedgerEntry.objects.filter(kind="withdrawal").count() == 1


# Deposits (§ 812a.7) ------------------------------------------------------------------------


def _forge_entry(account: GamingAccount, kind: str, amount: int) -> LedgerEntry:
    """A ledger entry of ``account`` added in SQL, with the account's balance moved to
    match: the ledger and the account agree, only the records beside them know nothing."""
    account.refresh_from_db()
    _sql(
        "INSERT INTO game_ledgerentry (wallet_id, account_id, kind, amount, balance_after, "
        "created_at) VALUES (%s, %s, %s, %s, %s, CURRENT_TIMESTAMP)",
        [account.player.wallet.pk, account.pk, kind, amount, account.balance + amount],
    )
    _sql("UPDATE game_gamingaccount SET balance = balance + %s WHERE id = %s", [amount, account.pk])
    return LedgerEntry.objects.filter(account=account).latest("pk")


def _forge_deposit(account: GamingAccount, amount: int) -> tuple[LedgerEntry, int]:
    entry = _forge_entry(account, "deposit", amount)
    _sql(
        "INSERT INTO game_deposit (account_id, amount, method, reference, made_by_id, made_at, "
        "entry_id) VALUES (%s, %s, 'cash', 'cage 3', %s, CURRENT_TIMESTAMP, %s)",
        [account.pk, amount, account.player_id, entry.pk],
    )
    return entry, Deposit.objects.get(entry=entry).pk


def test_812a7_a_deposit_without_its_event_is_reported(world):
    account = world["account"]
    entry, _ = _forge_deposit(account, 40_000)

    (problem,) = verify_records().problems

    assert problem.area == "deposit"
    assert problem.subject == f"ledger entry #{entry.pk} (account #{account.pk}, deposit +40000)"
    assert problem.detail.startswith("§ 812a.7: no account.deposit audit event records it")


def test_812a7_a_deposit_entry_without_its_deposit_is_reported(world):
    account = world["account"]
    entry = _forge_entry(account, "deposit", 40_000)

    details = _problems(verify_records())

    subject = f"ledger entry #{entry.pk} (account #{account.pk}, deposit +40000)"
    assert f"{subject}: § 812a.7: no deposit record backs it" in " ".join(details)
    assert f"{subject}: § 812a.7: no account.deposit audit event" in " ".join(details)
    assert len(details) == 2


def test_812a7_a_deposit_whose_event_disagrees_is_reported(world):
    """A deposit made through the service, then its entry and record doubled in SQL: the
    event written with it still says the amount and balance it made."""
    deposit = Deposit.objects.select_related("entry").latest("pk")
    _sql(
        "UPDATE game_ledgerentry SET amount = amount * 2, balance_after = balance_after + "
        "amount WHERE id = %s",
        [deposit.entry_id],
        lift=("game_ledgerentry",),
    )
    _sql("UPDATE game_deposit SET amount = amount * 2 WHERE id = %s", [deposit.pk])

    details = _problems(verify_records())

    assert any(
        f"ledger entry #{deposit.entry_id}" in d
        and "§ 812a.7: its audit event" in d
        and "records another amount, balance" in d
        for d in details
    ), details


def test_812a7_a_deposit_record_on_another_entry_is_reported(world):
    """A deposit record pointed at a stake: it is no deposit entry's."""
    deposit = Deposit.objects.latest("pk")
    stake = LedgerEntry.objects.filter(kind="stake").earliest("pk")
    _sql("UPDATE game_deposit SET entry_id = %s WHERE id = %s", [stake.pk, deposit.pk])

    details = " ".join(_problems(verify_records()))

    assert f"deposit #{deposit.pk}: § 812a.7: it names ledger entry #{stake.pk}, a stake" in (
        details
    )
    assert f"ledger entry #{deposit.entry_id}" in details and "no deposit record backs it" in (
        details
    )


# Withdrawals (§ 812a.10) --------------------------------------------------------------------


def test_812a10_a_withdrawal_paid_without_its_event_is_reported(world, payments_a):
    account = world["account"]
    entry = _forge_entry(account, "withdrawal", -1_000)
    _sql(
        "INSERT INTO game_withdrawal (account_id, amount, status, requested_at, decided_at, "
        "decided_by_id, payout_reference, reason, entry_id) VALUES (%s, 1000, 'paid', "
        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, %s, 'wire 9', '', %s)",
        [account.pk, payments_a.pk, entry.pk],
    )

    (problem,) = verify_records().problems

    assert problem.area == "withdrawal"
    assert problem.subject == f"ledger entry #{entry.pk} (account #{account.pk}, withdrawal -1000)"
    assert problem.detail.startswith("§ 812a.10: no withdrawal.pay audit event records it")


def test_812a10_a_payout_without_a_paid_withdrawal_is_reported(world):
    account = world["account"]
    entry = _forge_entry(account, "withdrawal", -1_000)

    details = " ".join(_problems(verify_records()))

    subject = f"ledger entry #{entry.pk} (account #{account.pk}, withdrawal -1000)"
    assert f"{subject}: § 812a.10: no withdrawal backs it" in details
    assert f"{subject}: § 812a.10: no withdrawal.pay audit event records it" in details


def test_812a10_a_payout_whose_event_disagrees_is_reported(world):
    paid = Withdrawal.objects.get(status=WithdrawalStatus.PAID)
    _sql(
        "UPDATE game_ledgerentry SET amount = amount - 500, balance_after = balance_after - "
        "500 WHERE id = %s",
        [paid.entry_id],
        lift=("game_ledgerentry",),
    )
    _sql("UPDATE game_withdrawal SET amount = amount + 500 WHERE id = %s", [paid.pk])

    details = _problems(verify_records())

    assert any(
        f"ledger entry #{paid.entry_id}" in d
        and "§ 812a.10: its audit event" in d
        and "records another amount, balance" in d
        for d in details
    ), details


def test_812a10_what_an_account_holds_back_is_its_pending_withdrawals(world):
    account = world["account"]
    _sql("UPDATE game_gamingaccount SET held = 0 WHERE id = %s", [account.pk])

    (problem,) = verify_records().problems

    assert problem.subject.startswith(f"account #{account.pk} (player")
    assert problem.detail == (
        "§ 812a.10: it holds back 0 for withdrawals, its pending withdrawals add up to 2000"
    )


# Accounts per holder (§ 812a.4) and the carry-over -------------------------------------------


def test_812a4_a_stake_in_another_holders_account_is_reported(world, holder_b):
    other = wallet_top_up(player=world["player"], amount=100_000, holder=holder_b)
    stake = LedgerEntry.objects.filter(kind="stake", account=world["account"]).earliest("pk")
    _sql(
        "UPDATE game_ledgerentry SET account_id = %s WHERE id = %s",
        [other.pk, stake.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert (
        f"ledger entry #{stake.pk} (account #{other.pk}, stake {stake.amount:+d}): § 812a.4: "
        f"it is in account #{other.pk} with holder #{holder_b.pk}, its round "
        f"#{stake.round_id} was played at a table of holder #{world['account'].holder_id}"
    ) in details


def test_810a11_an_entry_in_another_players_account_is_reported(world):
    account = world["account"]
    deposit = LedgerEntry.objects.filter(kind="deposit", account=account).latest("pk")
    earlier = Wallet.objects.get(player=world["earlier"])
    _sql(
        "UPDATE game_ledgerentry SET wallet_id = %s WHERE id = %s",
        [earlier.pk, deposit.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert (
        f"§ 812a.7: it is in player {world['earlier'].pk}'s wallet, its account "
        f"#{account.pk} is player {world['player'].pk}'s"
    ) in details


@pytest.mark.clause("810a.11(a)", kind="related")
@pytest.mark.clause("810a.11", kind="proves")
def test_810a11_a_carry_over_that_does_not_add_up_is_reported(world):
    carried_in = LedgerEntry.objects.get(kind="carried_in")
    _sql(
        "UPDATE game_ledgerentry SET amount = amount + 900, balance_after = balance_after + 900 "
        "WHERE id = %s",
        [carried_in.pk],
        lift=("game_ledgerentry",),
    )
    _sql(
        "UPDATE game_gamingaccount SET balance = balance + 900 WHERE id = %s",
        [carried_in.account_id],
    )

    (problem,) = verify_records().problems

    assert problem.subject == f"wallet #{carried_in.wallet_id} (player {world['earlier'].pk})"
    assert problem.detail == "§ 810a.11: 20000 was carried out of it, its accounts received 20900"


@pytest.mark.clause("810a.11(a)", kind="related")
@pytest.mark.clause("810a.11", kind="proves")
def test_810a11_a_carry_over_leaves_the_single_wallet_at_zero(world):
    carried_out = LedgerEntry.objects.get(kind="carried_out")
    _sql(
        "UPDATE game_ledgerentry SET amount = amount + 100, balance_after = 100 WHERE id = %s",
        [carried_out.pk],
        lift=("game_ledgerentry",),
    )
    _sql("UPDATE game_wallet SET balance = 100 WHERE id = %s", [carried_out.wallet_id])

    details = " ".join(_problems(verify_records()))

    assert "§ 810a.11: it leaves the single wallet at 100; carrying it over leaves it at 0" in (
        details
    )
    assert "19900 was carried out of it, its accounts received 20000" in details
