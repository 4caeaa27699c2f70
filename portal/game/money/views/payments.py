"""The holder's side of players' accounts: the payments queue (§ 812a.10), each withdrawal
to pay or refuse, the holder's player accounts, and one account's page where deposits made
at the holder are recorded (§ 812a.7(a)) and the account suspended (§ 812a.12), recorded
as self-excluded (§ 812a.6) or reopened.

Each holder's staff see only its accounts (``policy.visible_accounts``); compliance and
auditors see every holder's. Another holder's account or withdrawal is, to them, not there.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action, may
from portal.core.money import dollars
from portal.core.pages import domain_errors, paginate
from portal.game.models import AccountStatus, Deposit, GamingAccount, Withdrawal, WithdrawalStatus
from portal.game.money import messages as msg
from portal.game.money import presenters, statements
from portal.game.money.forms import PayForm, RecordDepositForm, RefuseForm, StatusForm
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.deposits import deposit_record
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_refuse
from portal.game.pages import Posted, posted_action, run

RECENT_DECIDED = 20
MOVEMENTS_SHOWN = 25


def _withdrawal_rows():
    return Withdrawal.objects.select_related("account__player", "account__holder", "decided_by")


def _withdrawals(user):
    return policy.visible_accounts(user, _withdrawal_rows())


# The payments queue -------------------------------------------------------------------------


@login_required
@require_safe
@domain_errors
def payments(request: HttpRequest) -> HttpResponse:
    """Pending withdrawals, oldest first, with their age; then the latest decided."""
    policy.require(request.user, Action.PAY_OUT)
    now = timezone.now()
    visible = _withdrawals(request.user)
    pending = visible.filter(status=WithdrawalStatus.PENDING).order_by("requested_at", "pk")
    decided = visible.exclude(status=WithdrawalStatus.PENDING).order_by("-decided_at", "-pk")
    context = {
        "pending": [(w, now - w.requested_at) for w in pending],
        "decided": list(decided[:RECENT_DECIDED]),
        "pay_form": PayForm(auto_id=False),
        "refuse_form": RefuseForm(auto_id=False),
    }
    return render(request, "payments/queue.html", context)


def _seen_by_staff(user, rows, pk: int, missing: str):
    """The row ``pk`` of ``rows`` (accounts, or rows with an account) if ``user`` sees its
    holder's player accounts; another holder's is not there (404)."""
    policy.require(user, Action.VIEW_PLAYER_ACCOUNTS)
    return visible_or_404(
        user, rows, pk, action=None, within=policy.visible_accounts, missing=missing
    )


def _visible_withdrawal(user, pk: int) -> Withdrawal:
    return _seen_by_staff(user, _withdrawal_rows(), pk, msg.NO_SUCH_WITHDRAWAL)


def _pay(request, withdrawal) -> Posted:
    def call(data):
        paid = withdrawal_pay(
            actor=request.user,
            withdrawal_id=withdrawal.pk,
            payout_reference=data["payout_reference"],
        )
        return f"Withdrawal {paid.pk} of {dollars(paid.amount)} recorded as paid."

    return run(Posted("pay", PayForm(request.POST, auto_id="pay_%s")), call)


def _refuse(request, withdrawal) -> Posted:
    def call(data):
        refused = withdrawal_refuse(
            actor=request.user, withdrawal_id=withdrawal.pk, reason=data["reason"]
        )
        return (
            f"Withdrawal {refused.pk} of {dollars(refused.amount)} refused; the hold is released."
        )

    return run(Posted("refuse", RefuseForm(request.POST, auto_id="refuse_%s")), call)


WITHDRAWAL_ACTIONS = {"pay": _pay, "refuse": _refuse}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def withdrawal(request: HttpRequest, pk: int) -> HttpResponse:
    """One withdrawal: its account and, while it is pending, paying or refusing it."""
    found = _visible_withdrawal(request.user, pk)
    forms = {"pay": PayForm(auto_id="pay_%s"), "refuse": RefuseForm(auto_id="refuse_%s")}
    status = 200
    if request.method == "POST":
        action = posted_action(request, WITHDRAWAL_ACTIONS)
        posted = WITHDRAWAL_ACTIONS[action](request, found)
        if posted.status == 200:
            messages.success(request, posted.done)
            return redirect("game:payments")
        forms[action], status = posted.form, posted.status
        found = _visible_withdrawal(request.user, pk)
    context = {
        "withdrawal": found,
        "account": found.account,
        "age": timezone.now() - found.requested_at,
        "may_pay": may(request.user, Action.PAY_OUT, found.account),
        "pay_form": forms["pay"],
        "refuse_form": forms["refuse"],
    }
    return render(request, "payments/withdrawal.html", context, status=status)


# The holder's player accounts ---------------------------------------------------------------


@login_required
@require_safe
@domain_errors
def player_accounts(request: HttpRequest) -> HttpResponse:
    """The holder's players' accounts (every holder's for compliance and auditors)."""
    policy.require(request.user, Action.VIEW_PLAYER_ACCOUNTS)
    accounts = policy.visible_accounts(
        request.user, GamingAccount.objects.select_related("player", "holder")
    ).order_by("holder__name", "player__username", "pk")
    search = request.GET.get("q", "").strip()[:150]
    if search:
        named = Q(player__username__icontains=search)
        accounts = accounts.filter(named | Q(player__pk=int(search)) if search.isdigit() else named)
    chosen = request.GET.get("status", "")
    if chosen in AccountStatus.values:
        accounts = accounts.filter(status=chosen)
    context = {
        "page": paginate(request, accounts),
        "search": search,
        "chosen": chosen,
        "statuses": AccountStatus.choices,
    }
    return render(request, "payments/player_accounts.html", context)


def _visible_account(user, pk: int) -> GamingAccount:
    accounts = GamingAccount.objects.select_related("player", "holder")
    return _seen_by_staff(user, accounts, pk, msg.NO_SUCH_ACCOUNT)


def _record_deposit(request, account) -> Posted:
    def call(data):
        deposit = deposit_record(
            actor=request.user,
            account_id=account.pk,
            amount=data["amount"],
            method=data["method"],
            reference=data["reference"],
        )
        return f"Deposit of {dollars(deposit.amount)} ({deposit.get_method_display()}) recorded."

    form = RecordDepositForm(request.POST, auto_id="deposit_%s")
    return run(Posted("deposit", form), call)


def _set_status(request, account) -> Posted:
    def call(data):
        changed = account_set_status(
            actor=request.user, account_id=account.pk, status=data["status"], reason=data["reason"]
        )
        return f"The account is now: {changed.get_status_display().lower()}."

    return run(Posted("status", StatusForm(request.POST, auto_id="status_%s")), call)


ACCOUNT_ACTIONS = {"deposit": _record_deposit, "status": _set_status}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def player_account(request: HttpRequest, pk: int) -> HttpResponse:
    """One player's account with the holder, for its staff: balance, movements, deposits
    and withdrawals; recording a deposit made at the holder and restricting the account."""
    account = _visible_account(request.user, pk)
    forms = {
        "deposit": RecordDepositForm(auto_id="deposit_%s"),
        "status": StatusForm(initial={"status": account.status}, auto_id="status_%s"),
    }
    status = 200
    if request.method == "POST":
        action = posted_action(request, ACCOUNT_ACTIONS)
        posted = ACCOUNT_ACTIONS[action](request, account)
        if posted.status == 200:
            messages.success(request, posted.done)
            return redirect("game:player-account", account.pk)
        forms[action], status = posted.form, posted.status
        account = _visible_account(request.user, pk)
    user = request.user
    context = {
        "account": account,
        "status_words": presenters.status_words(account, timezone.now()),
        "movements": statements.latest_movements(account, MOVEMENTS_SHOWN),
        "withdrawals": account.withdrawals.select_related("decided_by").order_by("-pk")[:25],
        "deposits": Deposit.objects.filter(account=account)
        .select_related("made_by")
        .order_by("-pk")[:25],
        "may_pay": may(user, Action.PAY_OUT, account),
        "may_restrict": may(user, Action.RESTRICT_ACCOUNTS, account),
        # Its rounds open for whoever may look them up: staff who see every round, and
        # the holder's supervisors (who void and adjust them).
        "rounds_linked": may(user, Action.VIEW_ROUNDS) or may(user, Action.CORRECT_ROUNDS, account),
        "deposit_form": forms["deposit"],
        "status_form": forms["status"],
    }
    return render(request, "payments/player_account.html", context, status=status)
