"""The player's account pages (Chapter 812a): balances per holder, movements, deposits,
withdrawals, limits and a pause (§ 814a.2). Statements (§ 812a.11) are ``statements``'.

Each form posts to the account page, naming what it does (``action``); the view reads
the form, calls the service and either goes back to the page with what was done, or shows
the page again with the refusal on the form and the refusal's status (400, 404, 409).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from portal.compliance.models import CertificateHolder, RecordStatus, TermsAndConditions
from portal.core.forms import ServiceForm
from portal.core.money import dollars
from portal.core.pages import domain_errors
from portal.game.models import GamingAccount, Wallet, Withdrawal, WithdrawalStatus
from portal.game.money import presenters, statements
from portal.game.money.forms import (
    CancelForm,
    ConfirmLimitForm,
    DepositForm,
    LimitForm,
    PauseForm,
    SessionChoicesForm,
    WithdrawForm,
)
from portal.game.money.limits import when
from portal.game.money.services.deposits import demo_enabled, deposit_make
from portal.game.money.services.limit_changes import limit_confirm, limit_set, pause_play
from portal.game.money.services.withdrawals import withdrawal_cancel, withdrawal_request
from portal.game.pages import Posted, player_of, posted_action, run
from portal.game.sessions.lifecycle import ended_at
from portal.game.sessions.notice import session_choices_set
from portal.game.sessions.signals import session_before_this

MOVEMENTS_SHOWN = 10


def _holders():
    return CertificateHolder.objects.order_by("name")


def _accounts(player) -> list[GamingAccount]:
    return list(GamingAccount.objects.with_limits().filter(player=player).select_related("holder"))


def _deposit(request, player) -> Posted:
    form = DepositForm(request.POST, holders=_holders(), auto_id="deposit_%s")

    def call(data):
        deposit = deposit_make(
            player=player,
            holder_id=data["holder"],
            amount=data["amount"],
            method=data["method"],
            reference=data["reference"],
        )
        holder = deposit.account.holder.name
        return f"Deposited {dollars(deposit.amount)} into your account with {holder}."

    return run(Posted("deposit", form), call)


def _withdraw(request, player) -> Posted:
    form = WithdrawForm(request.POST, accounts=_accounts(player), auto_id="withdraw_%s")

    def call(data):
        withdrawal = withdrawal_request(
            player=player, account_id=data["account"], amount=data["amount"]
        )
        return (
            f"Withdrawal of {dollars(withdrawal.amount)} requested: it is held from play "
            f"until {withdrawal.account.holder.name} pays it."
        )

    return run(Posted("withdraw", form), call)


def _cancel(request, player) -> Posted:
    form = CancelForm(request.POST, auto_id="cancel_%s")

    def call(data):
        withdrawal = withdrawal_cancel(player=player, withdrawal_id=data["withdrawal"])
        return f"Withdrawal of {dollars(withdrawal.amount)} cancelled; the money is free to play."

    return run(Posted("cancel", form), call)


def _account_id(request) -> int | None:
    value = request.POST.get("account", "")
    return int(value) if value.isdigit() and len(value) < 12 else None


def _limit(request, player) -> Posted:
    account_id = _account_id(request)
    form = LimitForm(request.POST, auto_id=f"limit{account_id}_%s")

    def call(data):
        change = limit_set(
            player=player, account_id=data["account"], kind=data["kind"], value=data["value"]
        )
        label = change.kind.label.capitalize()
        shown = change.kind.shown(change.value)
        if change.applied:
            return f"{label} set to {shown}, from now."
        return (
            f"{label} of {shown} waits for the current period to end: confirm it "
            f"from {when(change.effective_from)}."
        )

    return run(Posted("limit", form, account_id=account_id), call)


def _confirm(request, player) -> Posted:
    account_id = _account_id(request)
    form = ConfirmLimitForm(request.POST, auto_id=f"confirm{account_id}_%s")

    def call(data):
        change = limit_confirm(player=player, account_id=data["account"], kind=data["kind"])
        return f"{change.kind.label.capitalize()} is now {change.kind.shown(change.value)}."

    return run(Posted("confirm", form, account_id=account_id), call)


def _pause(request, player) -> Posted:
    account_id = _account_id(request)
    form = PauseForm(request.POST, auto_id=f"pause{account_id}_%s")

    def call(data):
        length = {data["unit"]: data["length"]}
        account = pause_play(player=player, account_id=data["account"], **length)
        return (
            f"Your play with {account.holder.name} is suspended until {when(account.paused_until)}."
        )

    return run(Posted("pause", form, account_id=account_id), call)


def _sessions(request, player) -> Posted:
    form = SessionChoicesForm(request.POST, auto_id="sessions_%s")

    def call(data):
        wallet = session_choices_set(
            player=player,
            notice_minutes=data["notice_minutes"],
            tell_every_access=data["tell_every_access"],
        )
        told = "you are told of" if wallet.tell_every_access else "you are not told of"
        return (
            f"Your time and money played are shown every {wallet.notice_minutes} minutes; "
            f"{told} each sign-in to your account."
        )

    return run(Posted("sessions", form), call)


PLAYER_ACTIONS = {
    "deposit": _deposit,
    "withdraw": _withdraw,
    "cancel": _cancel,
    "limit": _limit,
    "confirm": _confirm,
    "pause": _pause,
    "sessions": _sessions,
}


@dataclass
class AccountView:
    """One of the player's accounts with what its part of the page shows and asks."""

    account: GamingAccount
    status: str
    paused: str
    limits: list
    pending: list
    movements: list
    limit_form: ServiceForm
    pause_form: ServiceForm


def _account_views(player, accounts, failed: Posted | None) -> list[AccountView]:
    now = timezone.now()
    pending: dict[int, list[Withdrawal]] = {a.pk: [] for a in accounts}
    for withdrawal in Withdrawal.objects.filter(
        account__in=accounts, status=WithdrawalStatus.PENDING
    ).order_by("requested_at", "pk"):
        pending[withdrawal.account_id].append(withdrawal)
    shown = []
    for account in accounts:
        mine = failed if failed is not None and failed.account_id == account.pk else None
        limit_form = LimitForm(initial={"account": account.pk}, auto_id=f"limit{account.pk}_%s")
        pause_form = PauseForm(
            initial={"account": account.pk, "unit": "hours"}, auto_id=f"pause{account.pk}_%s"
        )
        if mine is not None and mine.action == "limit":
            limit_form = mine.form
        if mine is not None and mine.action == "pause":
            pause_form = mine.form
        shown.append(
            AccountView(
                account=account,
                status=presenters.status_words(account, now),
                paused=when(account.paused_until)
                if account.paused_until and account.paused_until > now
                else "",
                limits=presenters.limit_rows(account, now),
                pending=[(w, now - w.requested_at) for w in pending[account.pk]],
                movements=statements.latest_movements(account, MOVEMENTS_SHOWN),
                limit_form=limit_form,
                pause_form=pause_form,
            )
        )
    return shown


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def account(request: HttpRequest) -> HttpResponse:
    """The player's accounts, one per holder (§ 812a.4), and what they may do with them."""
    player = player_of(request)
    failed = None
    if request.method == "POST":
        action = posted_action(request, PLAYER_ACTIONS)
        posted = PLAYER_ACTIONS[action](request, player)
        if posted.status == 200:
            messages.success(request, posted.done)
            return redirect("game:account")
        failed = posted
    accounts = _accounts(player)
    wallet = Wallet.objects.filter(player=player).first()
    forms = {
        "deposit": DepositForm(holders=_holders(), auto_id="deposit_%s"),
        "withdraw": WithdrawForm(accounts=accounts, auto_id="withdraw_%s"),
        "sessions": SessionChoicesForm(
            initial={
                "notice_minutes": wallet.notice_minutes if wallet else 60,
                "tell_every_access": wallet.tell_every_access if wallet else False,
            },
            auto_id="sessions_%s",
        ),
    }
    if failed is not None and failed.action in forms:
        forms[failed.action] = failed.form
    previous, now = session_before_this(request), timezone.now()
    context = {
        "accounts": _account_views(player, accounts, failed),
        "deposit_form": forms["deposit"],
        "withdraw_form": forms["withdraw"],
        "failed": failed,
        "previous_session": previous,
        "previous_ended": ended_at(previous, now) if previous is not None else None,
        "sessions_form": forms["sessions"],
        "demo_method": demo_enabled(),
        # § 812a.5: the holders' terms in force this player has yet to accept (one query).
        "terms_to_accept": list(
            TermsAndConditions.objects.filter(status=RecordStatus.APPROVED)
            .exclude(acknowledgements__player=player)
            .select_related("holder")
            .order_by("holder__name")
        ),
    }
    return render(request, "game/account.html", context, status=failed.status if failed else 200)
