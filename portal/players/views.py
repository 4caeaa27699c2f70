"""The players' pages: registration (§ 812a.2) and what follows it, the player file with its
verification (§ 812a.2(c)), the players waiting for it, and self-exclusion (§ 815a.3).

The identity shows only on the player's own page, to the player, their holders' payments
staff, compliance officers and auditors, and each showing is audited; lists name players
by username and id only.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from portal.access.policy import Action, denial
from portal.access.roles import Role, has_role, holder_id_of
from portal.core.errors import NotFound
from portal.core.pages import domain_errors
from portal.game.models import GamingAccount, Wallet
from portal.game.money import standing
from portal.game.pages import Posted, player_of, run
from portal.players import messages as msg
from portal.players.forms import RegisterForm, SelfExcludeForm, VerifyForm
from portal.players.models import PlayerFile, VerificationMethod
from portal.players.services.exclusion import in_force, self_exclusion_request
from portal.players.services.registration import player_register
from portal.players.services.verification import (
    identity_read,
    identity_verify,
    may_see_identity,
    may_verify,
    player_file_or_404,
)

WAITING_SHOWN = 200


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    """A person registers and opens their first account (§ 812a.2, § 812a.4)."""
    if request.user.is_authenticated:
        return redirect("game:account")
    posted = Posted("register", RegisterForm(request.POST or None))
    registered: list[PlayerFile] = []
    if request.method == "POST":

        def call(data: dict) -> str:
            registered.append(
                player_register(
                    username=data["username"],
                    password=data["password"],
                    email=data["email"],
                    holder_id=data["holder"],
                    given_names=data["given_names"],
                    surname=data["surname"],
                    date_of_birth=data["date_of_birth"],
                    address=data["address"],
                    telephone=data["telephone"],
                    ssn_last4=data["ssn_last4"],
                )
            )
            return "registered"

        run(posted, call)
        if registered:
            login(
                request,
                registered[0].player,
                backend="django.contrib.auth.backends.ModelBackend",
            )
            return redirect("players:welcome")
    return render(request, "players/register.html", {"form": posted.form}, status=posted.status)


@login_required
@require_safe
def welcome(request: HttpRequest) -> HttpResponse:
    """After registration: what happens next, and the protections to set up now
    (§ 812a.3(a)(3): a second factor; § 814a.1(e)(4): limits)."""
    player = player_of(request)
    player_file = PlayerFile.objects.filter(player=player).first()
    return render(request, "players/welcome.html", {"player_file": player_file})


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def identity(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's file: their identity (each reading audited) and its verification."""
    form = VerifyForm(request.POST or None)
    status = 200
    if request.method == "POST":
        player_file = player_file_or_404(pk)
        if not may_see_identity(request.user, player_file):
            raise NotFound(msg.NO_SUCH_PLAYER.format(id=pk))
        if not may_verify(request.user, player_file):
            raise PermissionDenied(
                msg.OWN_IDENTITY if request.user.pk == pk else msg.VERIFIERS_ONLY
            )
        posted = run(
            Posted("verify", form),
            lambda data: (
                identity_verify(
                    actor=request.user,
                    player_id=pk,
                    method=data["method"],
                    document_reference=data["document_reference"],
                )
                and "verified"
            ),
        )
        if posted.done:
            messages.success(request, "The identity is recorded as verified.")
            return redirect("players:identity", pk=pk)
        status = posted.status
    player_file, details = identity_read(actor=request.user, player_id=pk)
    context = {
        "player_file": player_file,
        "details": details,
        "method_label": VerificationMethod(player_file.verification_method).label
        if player_file.verification_method
        else "",
        "accounts": GamingAccount.objects.filter(player_id=pk).select_related("holder"),
        "may_verify": not player_file.verified and may_verify(request.user, player_file),
        "form": form,
        "own": request.user.pk == player_file.player_id,
    }
    return render(request, "players/identity.html", context, status=status)


@login_required
@require_safe
def waiting(request: HttpRequest) -> HttpResponse:
    """Players whose identity waits for verification: the holder's own (payments staff),
    or every holder's (compliance officers). Named by username and id only."""
    user = request.user
    officer = has_role(user, Role.COMPLIANCE) or user.is_superuser
    if not officer and denial(user, Action.PAY_OUT) is not None:
        raise PermissionDenied(denial(user, Action.PAY_OUT))
    files = PlayerFile.objects.filter(verified_at__isnull=True).select_related("player")
    if not officer:
        files = files.filter(player__gaming_accounts__holder_id=holder_id_of(user))
    files = files.exclude(player=user).order_by("registered_at", "pk")[:WAITING_SHOWN]
    return render(request, "players/waiting.html", {"files": files})


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def exclude(request: HttpRequest) -> HttpResponse:
    """The player excludes themselves from every holder (§ 815a.3), after confirming."""
    player = player_of(request)
    posted = Posted("exclude", SelfExcludeForm(request.POST or None))
    if request.method == "POST":
        run(
            posted,
            lambda data: (
                self_exclusion_request(
                    player=player, period=data["period"], confirmed=data["confirmed"]
                )
                and "excluded"
            ),
        )
        if posted.done:
            messages.success(request, "Your self-exclusion is in force at every casino.")
            return redirect("players:exclude")
    now = timezone.now()
    wallet = Wallet.objects.filter(player=player).first()
    context = {
        "form": posted.form,
        "excluded": wallet is not None and standing.is_excluded(wallet, at=now),
        "wallet": wallet,
        "exclusions": in_force(player.pk, at=now),
    }
    return render(request, "players/exclude.html", context, status=posted.status)
