"""The one ledger consistency check (``portal.game.ledger``, § 810a.11): what it holds each
entry and each balance to, and the words of each problem, whoever feeds it the entries (the
round chains' check, ``verify_records``, the audit report's account lines)."""

from __future__ import annotations

import pytest

from portal.game import ledger
from portal.game.chain import verify_ledgers
from portal.game.ledger import Entry, Ledgers, balance_problem, entry_problem, ledger_problems

pytestmark = pytest.mark.clause("810a.11", kind="related")

ACCOUNT, WALLET = ("account", 7), ("wallet", 3)
ROUND = (1_000, 200, 1_500)  # balance before, staked, balance after


def test_entries_that_keep_the_rule_have_no_problem():
    entries = [
        Entry(ACCOUNT, 1, "deposit", 1_000, 1_000),
        Entry(WALLET, 2, "top_up", 500, 500),  # another ledger, interleaved
        Entry(ACCOUNT, 4, "stake", -200, 800, 9, ROUND),
        Entry(ACCOUNT, 5, "return", 700, 1_500, 9, ROUND),
        Entry(WALLET, 6, "carried_out", -500, 0),
        Entry(ACCOUNT, 8, "void_stakes", 200, 1_700, 9, (0, 0, 0)),  # its correction's
    ]

    assert list(ledger_problems(entries)) == []


def test_an_entry_off_its_running_balance_is_named_with_both_balances():
    entries = [Entry(ACCOUNT, 1, "deposit", 1_000, 1_000), Entry(ACCOUNT, 2, "deposit", 5, 1_009)]

    (problem,) = ledger_problems(entries)

    assert (problem.ledger, problem.entry, problem.expected, problem.found) == (
        ACCOUNT,
        2,
        1_005,
        1_009,
    )
    assert problem.said() == (
        "ledger entry #2 says the balance is 1009, the entries up to it add up to 1005"
    )


def test_a_ledger_starts_at_its_opening_balance():
    opened = {ACCOUNT: 400, WALLET: None}
    entries = [Entry(ACCOUNT, 1, "deposit", 100, 500), Entry(WALLET, 2, "top_up", 100, 100)]

    assert list(ledger_problems(entries, opened)) == []
    ledgers = Ledgers(opened)
    ledgers.check(entries[0])
    assert (ledgers.total(ACCOUNT), ledgers.total(WALLET)) == (500, 0)


def test_a_stake_or_return_off_its_rounds_recorded_balance_is_named():
    stake = Entry(ACCOUNT, 4, "stake", -200, 800, 9, (1_003, 200, 1_503))
    returned = Entry(ACCOUNT, 5, "return", 700, 1_500, 9, (1_000, 200, 1_490))

    assert entry_problem(stake, 800).said() == (
        "ledger entry #4 leaves 800, its round #9 recorded a balance of 803"
    )
    assert entry_problem(returned, 1_500).said("it") == (
        "it leaves 1500, its round #9 recorded a balance of 1490"
    )


def test_the_running_balance_is_judged_before_the_round():
    stake = Entry(ACCOUNT, 4, "stake", -200, 801, 9, ROUND)

    assert entry_problem(stake, 800).words == ledger.RUNNING


def test_an_entry_naming_a_round_not_there_is_named():
    void = Entry(ACCOUNT, 4, "void_stakes", 200, 200, 987_654, None)

    assert entry_problem(void, 200).said() == (
        "ledger entry #4 names round 987654, which is not there"
    )


def test_a_carry_over_out_that_leaves_money_is_named():
    out = Entry(WALLET, 6, "carried_out", -400, 100)

    assert entry_problem(out, 100).said() == (
        "ledger entry #6 leaves the single wallet at 100; carrying it over leaves it at 0"
    )
    assert entry_problem(out, 100).said("it") == (
        "it leaves the single wallet at 100; carrying it over leaves it at 0"
    )


def test_a_balance_not_its_ledgers_sum_is_named():
    assert balance_problem(ACCOUNT, 900, 900) is None
    assert balance_problem(ACCOUNT, 950, 900).said() == (
        "account 7 holds 950, its ledger adds up to 900"
    )
    assert balance_problem(WALLET, 5, 0).said("it") == "it holds 5, its ledger adds up to 0"


def test_the_round_chains_check_reports_the_first_problem_with_its_ledger():
    entries = [
        (3, "deposit", 1_000, 1_000, None, 7, 1),
        (3, "stake", -200, 800, 9, 7, 2),
        (3, "return", 700, 1_490, 9, 7, 3),
    ]
    accounts = [(7, 1_490, 0)]
    deposits = [(11, 7, 1_000, 1)]

    report = verify_ledgers([(3, 0)], entries, {9: ROUND}, accounts, deposits)

    assert report.checked == 2
    assert report.problem == (
        "account 7: ledger entry #3 says the balance is 1490, the entries up to it add up to 1500"
    )
