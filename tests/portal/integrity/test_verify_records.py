"""``verify_records``: the rows beside the chains say what the trail says (§ 811a.7, § 810a.11).

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
from portal.game.models import LedgerEntry, Wallet
from portal.integrity.records import verify_records
from tests.portal.factories import (
    MINIMUM_ODDS,
    approved_offering,
    make_layout,
    make_paytable,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

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
def world(manager_a, officer, holder_a, funded_player):
    """A live table with rounds played on it, an amended and superseded paytable, a
    rejected layout, a draft, a retired table, and top-ups."""
    offering = approved_offering(manager_a, officer, holder_a)
    for n in range(3):
        play_round(funded_player, offering, f"world-round-{n}", outcome=n)
    wallet_top_up(player=funded_player, amount=5_000)
    draft = paytable_amend(actor=manager_a, paytable=offering.paytable)
    draft = paytable_update(
        actor=manager_a, paytable=draft, odds={**MINIMUM_ODDS, "split": "51/10"}
    )
    draft = paytable_submit(actor=manager_a, paytable=draft)
    paytable_approve(actor=officer, paytable=draft)
    rejected = layout_submit(
        actor=manager_a, layout=make_layout(manager_a, holder_a, title="Rejected")
    )
    layout_reject(actor=officer, layout=rejected, reason="artwork unreadable")
    second = approved_offering(manager_a, officer, holder_a, name="Table 2")
    offering_retire(actor=manager_a, offering=second, reason="closing the room")
    return {
        "offering": offering,
        "player": funded_player,
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
    assert report.checked["top-ups"] == 2  # the fixture's and the world's
    assert report.checked["wallets"] == 1
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
    wallet = Wallet.objects.get(player=world["player"])
    entry = _forge_top_up(wallet, 90_000)

    (problem,) = verify_records().problems

    assert problem.area == "top-up"
    assert problem.subject == f"ledger entry #{entry} (wallet #{wallet.pk}, top-up +90000)"
    assert "no wallet.top_up audit event records this top-up" in problem.detail


def test_811a7_a_top_up_event_that_disagrees_with_its_entry_is_caught(world):
    """An entry whose audit event says another amount (the event written first, honestly,
    then the entry swapped in SQL): the amount and balance are named."""
    wallet = Wallet.objects.get(player=world["player"])
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
    wallet = Wallet.objects.get(player=world["player"])
    first = LedgerEntry.objects.filter(wallet=wallet).earliest("pk")
    _sql(
        "UPDATE game_ledgerentry SET balance_after = balance_after + 2 WHERE id = %s",
        [first.pk],
        lift=("game_ledgerentry",),
    )

    details = " ".join(_problems(verify_records()))

    assert f"wallet #{wallet.pk}: § 810a.11: ledger entry #{first.pk} says the balance is" in (
        details
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
    world, manager_a, officer, holder_a
):
    table = approved_offering(manager_a, officer, holder_a, name="Table 3")
    with CaptureQueriesContext(connection) as small:
        assert verify_records().ok
    for n in range(5):
        play_round(world["player"], table, f"more-round-{n}")
        wallet_top_up(player=world["player"], amount=1_000)
        make_paytable(manager_a, holder_a, name=f"More {n}")

    with CaptureQueriesContext(connection) as large:
        report = verify_records()

    assert report.ok and report.checked["rounds"] == 8
    # 19 reads: 9 for the records, 10 for the money.
    assert len(large) == len(small) == 19


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

    assert events.count() == LedgerEntry.objects.filter(kind="top_up").count() == 2
