"""Nobody acts on their own money. A member of staff may also play (a second role beside
Player's); as staff they then never pay or refuse their own withdrawal (§ 812a.10), record a
deposit into their own account (§ 812a.7(a)), propose a void (§ 617a.6) or an adjustment
(§ 812a.7(a)(9)) of a round they played, nor decide one (four-eyes: the round's player is
one of its authors).

Each refusal is the service's, so it holds on the pages, through the API and in the admin
alike: a 403 (or the admin's message) with the clause, and nothing written. The same person
acting on another player's money is not refused."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages

from portal.access.roles import Role, forget
from portal.core.errors import NotPermitted
from portal.game.corrections import messages as correction_msg
from portal.game.corrections.services import (
    correction_approve,
    correction_propose,
    correction_reject,
)
from portal.game.models import (
    AccountStatus,
    Deposit,
    DepositMethod,
    GamingAccount,
    LedgerKind,
    Round,
    RoundCorrection,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money import messages as money_msg
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.deposits import deposit_record
from portal.game.money.services.withdrawals import (
    withdrawal_pay,
    withdrawal_refuse,
    withdrawal_request,
)
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.account_helpers import money
from tests.portal.game.conftest import play_round
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

DEPOSITED = 50_000
ASKED = 20_000
REASON = "The draw repeated a segment of the wheel: a malfunction"
NOTICE = "We have credited $2.50 to your account for a split paid short."
FOUR_EYES = "§ 617a.6: a void is decided by someone other than who proposed it, and never by"

OWN_VOID = correction_msg.OWN_ROUND.format(clause="§ 617a.6", kind="a void")
OWN_ADJUSTMENT = correction_msg.OWN_ROUND.format(clause="§ 812a.7(a)(9)", kind="an adjustment")


def player_and(username: str, role: Role | None = None, holder=None):
    """A player (made as every test's player is) who also holds ``role`` (a second Django
    group) for ``holder``, read afresh."""
    user = make_user(username, Role.PLAYER)
    if role is not None:
        user.groups.add(Group.objects.get_or_create(name=role.value)[0])
    if holder is not None:
        user.profile.holder = holder
        user.profile.save()
    forget(user)
    return user


@pytest.fixture
def playing_root(db):
    """A player who is also a superuser (the admin is the superusers')."""
    root = player_and("playing_root")
    root.is_staff = root.is_superuser = True
    root.save()
    return root


@contextmanager
def nothing_written():
    """Every account, limit, withdrawal, ledger entry, deposit, audit event (sign-ins left
    out) and void or adjustment is as it was."""
    before = money(), list(RoundCorrection.objects.order_by("pk").values("pk", "status"))
    yield
    after = money(), list(RoundCorrection.objects.order_by("pk").values("pk", "status"))
    assert after == before


def api_refusal(answer) -> str:
    assert answer.status_code == 403, answer.content
    return answer.json()["detail"]


# Who: staff who also play, each with money at holder A ---------------------------------


@pytest.fixture
def cashier(holder_a):
    """Payments staff of holder A who also play there, with $500 in their account there."""
    cashier = player_and("cashier", Role.PAYMENTS, holder_a)
    wallet_top_up(player=cashier, amount=DEPOSITED, holder=holder_a)
    return cashier


@pytest.fixture
def own_account(cashier, holder_a) -> GamingAccount:
    return GamingAccount.objects.get(player=cashier, holder=holder_a)


@pytest.fixture
def own_withdrawal(cashier, own_account) -> Withdrawal:
    return withdrawal_request(player=cashier, account_id=own_account.pk, amount=ASKED)


@pytest.fixture
def others_account(other_player, holder_a) -> GamingAccount:
    """Another player's account at holder A ($500 in it)."""
    return GamingAccount.objects.get(player=other_player, holder=holder_a)


@pytest.fixture
def others_withdrawal(other_player, others_account) -> Withdrawal:
    return withdrawal_request(player=other_player, account_id=others_account.pk, amount=ASKED)


@pytest.fixture
def playing_supervisor(holder_a):
    """A supervisor of holder A who also plays at its tables."""
    return player_and("playing_supervisor", Role.SUPERVISOR, holder_a)


@pytest.fixture
def playing_officer(db):
    """A compliance officer who also plays."""
    return player_and("playing_officer", Role.COMPLIANCE)


def played_by(player, offering, holder, key: str) -> Round:
    """Ten straights of $2.00 on 0–9 by ``player``, the wheel on 3."""
    wallet_top_up(player=player, amount=10_000, holder=holder)
    return Round.objects.get(pk=play_round(player, offering, key).round.pk)


@pytest.fixture
def own_round(playing_supervisor, live_offering, holder_a) -> Round:
    return played_by(playing_supervisor, live_offering, holder_a, "own-money-supervisor")


@pytest.fixture
def others_round(player, live_offering, holder_a) -> Round:
    return played_by(player, live_offering, holder_a, "own-money-player")


def propose(actor, round_obj, kind: str) -> RoundCorrection:
    extra = {"amount": 250, "notice": NOTICE} if kind == "adjustment" else {}
    return correction_propose(actor=actor, round_id=round_obj.pk, kind=kind, reason=REASON, **extra)


# Withdrawals (§ 812a.10): the service -------------------------------------------------------


def test_812a10_payments_staff_may_not_pay_their_own_withdrawal(cashier, own_withdrawal):
    with nothing_written(), pytest.raises(NotPermitted) as refused:
        withdrawal_pay(actor=cashier, withdrawal_id=own_withdrawal.pk, payout_reference="ACH 1")

    assert refused.value.message == money_msg.OWN_WITHDRAWAL
    own_withdrawal.refresh_from_db()
    assert own_withdrawal.status == WithdrawalStatus.PENDING


def test_812a10_payments_staff_may_not_refuse_their_own_withdrawal(cashier, own_withdrawal):
    with nothing_written(), pytest.raises(NotPermitted) as refused:
        withdrawal_refuse(actor=cashier, withdrawal_id=own_withdrawal.pk, reason="Not today")

    assert refused.value.message == money_msg.OWN_WITHDRAWAL


def test_812a10_a_superuser_who_plays_may_not_pay_their_own_withdrawal(playing_root, holder_a):
    account = wallet_top_up(player=playing_root, amount=DEPOSITED, holder=holder_a)
    own = withdrawal_request(player=playing_root, account_id=account.pk, amount=ASKED)

    with nothing_written(), pytest.raises(NotPermitted, match="§ 812a.10: you may not pay"):
        withdrawal_pay(actor=playing_root, withdrawal_id=own.pk, payout_reference="ACH 1")


def test_812a10_payments_staff_who_play_still_pay_and_refuse_another_players_withdrawals(
    cashier, other_player, others_account, others_withdrawal
):
    paid = withdrawal_pay(
        actor=cashier, withdrawal_id=others_withdrawal.pk, payout_reference="ACH 2"
    )
    second = withdrawal_request(player=other_player, account_id=others_account.pk, amount=1_000)
    refused = withdrawal_refuse(actor=cashier, withdrawal_id=second.pk, reason="Bring photo ID")

    assert (paid.status, paid.decided_by) == (WithdrawalStatus.PAID, cashier)
    assert (refused.status, refused.decided_by) == (WithdrawalStatus.REFUSED, cashier)
    others_account.refresh_from_db()
    assert (others_account.balance, others_account.held) == (50_000 - ASKED, 0)


# Withdrawals: the payments pages ------------------------------------------------------------


def test_812a10_payments_staff_may_not_pay_their_own_withdrawal_on_the_payments_page(
    login, cashier, own_withdrawal
):
    with nothing_written():
        answer = login(cashier).post(
            f"/play/payments/withdrawals/{own_withdrawal.pk}/",
            {"action": "pay", "payout_reference": "ACH 1"},
        )

    assert answer.status_code == 403
    assert money_msg.OWN_WITHDRAWAL in text(answer)


def test_812a10_payments_staff_may_not_refuse_their_own_withdrawal_on_the_payments_page(
    login, cashier, own_withdrawal
):
    with nothing_written():
        answer = login(cashier).post(
            f"/play/payments/withdrawals/{own_withdrawal.pk}/",
            {"action": "refuse", "reason": "Not today"},
        )

    assert answer.status_code == 403
    assert money_msg.OWN_WITHDRAWAL in text(answer)


def test_812a10_payments_staff_who_play_still_pay_another_players_withdrawal_on_the_page(
    login, cashier, others_withdrawal
):
    answer = login(cashier).post(
        f"/play/payments/withdrawals/{others_withdrawal.pk}/",
        {"action": "pay", "payout_reference": "ACH 3"},
    )

    assert answer.status_code == 302
    others_withdrawal.refresh_from_db()
    assert (others_withdrawal.status, others_withdrawal.decided_by) == ("paid", cashier)


# Withdrawals: the API -----------------------------------------------------------------------


def test_812a10_payments_staff_may_not_pay_their_own_withdrawal_through_the_api(
    api_as, cashier, own_withdrawal
):
    with nothing_written():
        answer = api_as(cashier).post(
            f"/api/withdrawals/{own_withdrawal.pk}/pay/", {"payout_reference": "ACH 1"}, "json"
        )

    assert api_refusal(answer) == money_msg.OWN_WITHDRAWAL


def test_812a10_payments_staff_may_not_refuse_their_own_withdrawal_through_the_api(
    api_as, cashier, own_withdrawal
):
    with nothing_written():
        answer = api_as(cashier).post(
            f"/api/withdrawals/{own_withdrawal.pk}/refuse/", {"reason": "Not today"}, "json"
        )

    assert api_refusal(answer) == money_msg.OWN_WITHDRAWAL


# Withdrawals: the admin ---------------------------------------------------------------------


def test_812a10_the_admin_has_no_way_to_pay_or_refuse_a_withdrawal(client, playing_root, holder_a):
    """The admin shows withdrawals and accounts and moves no money: a superuser who plays
    finds there no action on their own request, and a change is refused."""
    account = wallet_top_up(player=playing_root, amount=DEPOSITED, holder=holder_a)
    own = withdrawal_request(player=playing_root, account_id=account.pk, amount=ASKED)
    client.force_login(playing_root)

    with nothing_written():
        listed = client.get("/admin/game/withdrawal/")
        changed = client.post(f"/admin/game/withdrawal/{own.pk}/change/", {"status": "paid"})
        acted = client.post(
            "/admin/game/withdrawal/",
            {"action": "workflow_pay", "_selected_action": [own.pk]},
            follow=True,
        )

    assert listed.status_code == 200 and 'name="action"' not in text(listed)
    assert changed.status_code == 403
    assert acted.status_code == 200
    own.refresh_from_db()
    assert own.status == WithdrawalStatus.PENDING


# Deposits made at the holder (§ 812a.7(a)): the service -------------------------------------


@pytest.mark.parametrize("method", [DepositMethod.CASH, DepositMethod.PROMOTIONAL])
def test_812a7_a_payments_staff_may_not_record_a_deposit_into_their_own_account(
    cashier, own_account, method
):
    with nothing_written(), pytest.raises(NotPermitted) as refused:
        deposit_record(
            actor=cashier,
            account_id=own_account.pk,
            amount=20_000,
            method=method,
            reference="Cage receipt 0042",
        )

    assert refused.value.message == money_msg.OWN_DEPOSIT
    own_account.refresh_from_db()
    assert own_account.balance == DEPOSITED


def test_812a7_a_payments_staff_who_play_still_record_a_deposit_into_another_players_account(
    cashier, others_account
):
    deposit = deposit_record(
        actor=cashier,
        account_id=others_account.pk,
        amount=20_000,
        method=DepositMethod.PROMOTIONAL,
        reference="Promo 7",
    )

    assert (deposit.made_by, deposit.entry.kind) == (cashier, LedgerKind.DEPOSIT)
    others_account.refresh_from_db()
    assert others_account.balance == 70_000


# Deposits: the account page -----------------------------------------------------------------


def test_812a7_a_payments_staff_may_not_record_a_deposit_into_their_own_account_on_its_page(
    login, cashier, own_account
):
    with nothing_written():
        answer = login(cashier).post(
            f"/play/players/{own_account.pk}/",
            {"action": "deposit", "amount": "200.00", "method": "cash", "reference": "Cage 1"},
        )

    assert answer.status_code == 403
    assert money_msg.OWN_DEPOSIT in text(answer)


def test_812a7_a_payments_staff_who_play_still_record_another_players_deposit_on_its_page(
    login, cashier, others_account
):
    answer = login(cashier).post(
        f"/play/players/{others_account.pk}/",
        {"action": "deposit", "amount": "200.00", "method": "cash", "reference": "Cage 2"},
    )

    assert answer.status_code == 302
    assert Deposit.objects.get(account=others_account, made_by=cashier).amount == 20_000


# Deposits: the API --------------------------------------------------------------------------


def test_812a7_a_payments_staff_may_not_record_a_deposit_into_their_own_account_through_the_api(
    api_as, cashier, own_account
):
    with nothing_written():
        answer = api_as(cashier).post(
            f"/api/accounts/{own_account.pk}/deposits/",
            {"amount": 20_000, "method": "promotional", "reference": "Promo 8"},
            "json",
        )

    assert api_refusal(answer) == money_msg.OWN_DEPOSIT


# Deposits: the admin ------------------------------------------------------------------------


def test_812a7_a_the_admin_has_no_way_to_record_a_deposit(client, playing_root, holder_a):
    """Deposits and accounts are look only in the admin: a superuser who plays can record
    no deposit there, into their own account or any."""
    account = wallet_top_up(player=playing_root, amount=DEPOSITED, holder=holder_a)
    client.force_login(playing_root)
    form = {"account": account.pk, "amount": 20_000, "method": "cash", "reference": "r"}

    with nothing_written():
        added = client.post("/admin/game/deposit/add/", form)
        changed = client.post(f"/admin/game/gamingaccount/{account.pk}/change/", {"balance": 1})
        listed = client.get("/admin/game/deposit/")

    assert (added.status_code, changed.status_code) == (403, 403)
    assert listed.status_code == 200 and 'name="action"' not in text(listed)


# Proposing a void (§ 617a.6) or an adjustment (§ 812a.7(a)(9)): the service ------------------


@pytest.mark.parametrize("who", ["playing_supervisor", "playing_officer"])
def test_617a6_staff_may_not_propose_a_void_of_a_round_they_played(
    request, who, live_offering, holder_a
):
    staff = request.getfixturevalue(who)
    round_obj = played_by(staff, live_offering, holder_a, f"own-void-{who}")

    with nothing_written(), pytest.raises(NotPermitted) as refused:
        propose(staff, round_obj, "void")

    assert refused.value.message == OWN_VOID


def test_812a7_a_9_a_supervisor_may_not_propose_an_adjustment_of_a_round_they_played(
    playing_supervisor, own_round
):
    with nothing_written(), pytest.raises(NotPermitted) as refused:
        propose(playing_supervisor, own_round, "adjustment")

    assert refused.value.message == OWN_ADJUSTMENT


@pytest.mark.parametrize("who", ["playing_supervisor", "playing_officer"])
def test_617a6_staff_who_play_still_propose_a_void_of_another_players_round(
    request, who, others_round
):
    staff = request.getfixturevalue(who)

    proposed = propose(staff, others_round, "void")

    assert (proposed.proposed_by, proposed.status) == (staff, "proposed")


# Proposing: the round's page ----------------------------------------------------------------


def test_617a6_a_supervisor_may_not_propose_a_void_of_their_own_round_on_its_page(
    login, playing_supervisor, own_round
):
    with nothing_written():
        answer = login(playing_supervisor).post(
            f"/play/rounds/{own_round.pk}/", {"action": "void", "reason": REASON}
        )

    assert answer.status_code == 403
    assert OWN_VOID in text(answer)


def test_812a7_a_9_a_supervisor_may_not_propose_an_adjustment_of_their_own_round_on_its_page(
    login, playing_supervisor, own_round
):
    form = {
        "action": "adjustment",
        "direction": "credit",
        "amount": "2.50",
        "reason": "Dispute upheld: the split paid short",
        "notice": NOTICE,
    }
    with nothing_written():
        answer = login(playing_supervisor).post(f"/play/rounds/{own_round.pk}/", form)

    assert answer.status_code == 403
    assert OWN_ADJUSTMENT in text(answer)


def test_617a6_a_supervisor_who_plays_still_proposes_a_void_of_another_players_round_on_its_page(
    login, playing_supervisor, others_round
):
    answer = login(playing_supervisor).post(
        f"/play/rounds/{others_round.pk}/", {"action": "void", "reason": REASON}
    )

    proposed = RoundCorrection.objects.get(round=others_round)
    assert answer.status_code == 302
    assert answer["Location"] == f"/play/corrections/{proposed.pk}/"
    assert proposed.proposed_by == playing_supervisor


# Proposing: the API -------------------------------------------------------------------------


def test_617a6_a_supervisor_may_not_propose_a_void_of_their_own_round_through_the_api(
    api_as, playing_supervisor, own_round
):
    body = {"round": own_round.pk, "kind": "void", "reason": REASON}
    with nothing_written():
        answer = api_as(playing_supervisor).post("/api/corrections/", body, format="json")

    assert api_refusal(answer) == OWN_VOID


def test_617a6_a_supervisor_who_plays_proposes_another_players_void_through_the_api(
    api_as, playing_supervisor, own_round, others_round
):
    """As staff they see the corrections of their holder's rounds beside their own: the
    proposal is answered with what was stored, and listed with theirs."""
    client = api_as(playing_supervisor)
    body = {"round": others_round.pk, "kind": "void", "reason": REASON}
    answer = client.post("/api/corrections/", body, format="json")

    assert answer.status_code == 201, answer.content
    proposed = RoundCorrection.objects.get()
    assert answer.json()["id"] == proposed.pk
    listed = {row["id"] for row in client.get("/api/corrections/").json()["results"]}
    assert proposed.pk in listed


def test_812a7_a_9_a_supervisor_may_not_propose_an_adjustment_of_their_own_round_through_the_api(
    api_as, playing_supervisor, own_round
):
    body = {"round": own_round.pk, "kind": "adjustment", "reason": REASON}
    body |= {"amount": 250, "notice": NOTICE}
    with nothing_written():
        answer = api_as(playing_supervisor).post("/api/corrections/", body, format="json")

    assert api_refusal(answer) == OWN_ADJUSTMENT


# Proposing: the admin -----------------------------------------------------------------------


def test_617a6_the_admin_has_no_way_to_propose_a_correction(client, playing_root, live_offering):
    """Voids and adjustments are proposed on the portal and through the API only; in the
    admin a superuser who plays can propose none, of their own round or any."""
    round_obj = played_by(playing_root, live_offering, live_offering.holder, "own-money-admin")
    client.force_login(playing_root)
    form = {"round": round_obj.pk, "kind": "void", "reason": REASON}

    with nothing_written():
        added = client.post("/admin/game/roundcorrection/add/", form)
        changed = client.post(f"/admin/game/round/{round_obj.pk}/change/", {"outcome": 4})

    assert (added.status_code, changed.status_code) == (403, 403)


# Deciding a correction of one's own round: four-eyes (the round's player is an author) ------


@pytest.fixture
def void_of_own_round(own_round, officer) -> RoundCorrection:
    """The playing supervisor's round, a void of it proposed by a compliance officer."""
    return propose(officer, own_round, "void")


def test_617a6_a_supervisor_may_not_decide_a_void_of_a_round_they_played(
    playing_supervisor, void_of_own_round
):
    with nothing_written():
        with pytest.raises(NotPermitted, match=FOUR_EYES):
            correction_approve(actor=playing_supervisor, correction_id=void_of_own_round.pk)
        with pytest.raises(NotPermitted, match=FOUR_EYES):
            correction_reject(
                actor=playing_supervisor, correction_id=void_of_own_round.pk, reason="No"
            )

    assert RoundCorrection.objects.get(pk=void_of_own_round.pk).status == "proposed"


def test_617a6_a_supervisor_may_not_decide_a_void_of_their_own_round_on_its_page(
    login, playing_supervisor, void_of_own_round
):
    with nothing_written():
        answer = login(playing_supervisor).post(
            f"/play/corrections/{void_of_own_round.pk}/", {"step": "approve", "reason": ""}
        )

    assert answer.status_code == 403
    assert FOUR_EYES in text(answer)


def test_617a6_a_supervisor_may_not_decide_a_void_of_their_own_round_through_the_api(
    api_as, playing_supervisor, void_of_own_round
):
    with nothing_written():
        answer = api_as(playing_supervisor).post(
            f"/api/corrections/{void_of_own_round.pk}/approve/", {}, format="json"
        )

    assert FOUR_EYES in api_refusal(answer)


def test_617a6_the_admin_refuses_a_superuser_deciding_a_void_of_their_own_round_with_a_message(
    client, playing_root, officer, live_offering
):
    round_obj = played_by(playing_root, live_offering, live_offering.holder, "own-money-admin-void")
    void = propose(officer, round_obj, "void")
    client.force_login(playing_root)

    with nothing_written():
        answer = client.post(
            "/admin/game/roundcorrection/",
            {
                "action": "workflow_approve",
                "_selected_action": [void.pk],
                "apply": "1",
                "reason": "Mine",
            },
            follow=True,
        )

    assert answer.status_code == 200
    [message] = [str(m) for m in get_messages(answer.wsgi_request)]
    assert message.startswith(f"void of round {round_obj.pk}: {FOUR_EYES}")


# The account's status (§ 812a.6, § 812a.12) ------------------------------------------------


def test_812a12_staff_may_not_reopen_or_suspend_their_own_account(cashier, own_account, officer):
    account_set_status(
        actor=officer, account_id=own_account.pk, status=AccountStatus.SUSPENDED, reason="Checks"
    )
    with nothing_written(), pytest.raises(NotPermitted) as refused:
        account_set_status(
            actor=cashier, account_id=own_account.pk, status=AccountStatus.OPEN, reason="Done"
        )
    assert refused.value.message == money_msg.OWN_STATUS
    own_account.refresh_from_db()
    assert own_account.status == AccountStatus.SUSPENDED


def test_812a12_staff_who_play_still_suspend_another_players_account(cashier, others_account):
    account_set_status(
        actor=cashier, account_id=others_account.pk, status=AccountStatus.SUSPENDED, reason="KYC"
    )
    others_account.refresh_from_db()
    assert others_account.status == AccountStatus.SUSPENDED
