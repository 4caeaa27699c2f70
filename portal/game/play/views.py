"""The game pages: the tables, a table to play at, and game recall; for auditors, every
round and the round chains' verification. A round's record and replay say whether it was
voided or adjusted (§ 617a.6, § 812a.7(a)(9)); its record is where a void or an adjustment
is proposed, by whoever may correct the rounds of its holder (the decision is on the
correction's own page, ``portal.game.corrections.views``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_safe

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action, may
from portal.audit.chain import stored_head
from portal.compliance.selectors import jinzi_listing, offering_is_live, offerings_with_parts
from portal.core.lists import csv_download, filtered_page, wants_csv
from portal.core.pages import PAGE_SIZE, domain_errors
from portal.core.replica import reads_from_replica
from portal.game import retention
from portal.game.chain import heads_digest
from portal.game.corrections.forms import AdjustmentForm, FindingForm, VoidForm
from portal.game.corrections.selectors import (
    may_see_corrections,
    round_corrections,
    with_corrections,
)
from portal.game.corrections.services import correction_propose, payout_finding_record
from portal.game.models import CorrectionKind, GamingAccount, PayoutFinding
from portal.game.money.play_state import refusals_by_holder
from portal.game.pages import Posted, player_of, posted_action, run
from portal.game.play import presenters, selectors
from portal.game.play.filtersets import RECENT_GAMES_COLUMNS, PlayerRoundFilter, RoundFilter
from portal.game.play.replay import replay_data
from portal.game.rounds import round_data, rounds_with_detail
from portal.game.sessions.lifecycle import NO_SESSION, SessionEnded
from portal.game.sessions.notice import notice_acknowledge, pending_notice
from portal.game.sessions.signals import session_of_request


@login_required
@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    player = player_of(request)
    now = timezone.now()
    found = list(selectors.open_tables())
    holders = list({offering.holder_id: offering.holder for offering, _ in found}.values())
    # Where the player may not play now, why: said before they open the table.
    refused = refusals_by_holder(player, holders, at=now)
    rows = [
        (
            offering,
            liveness,
            presenters.closed_sentence(offering, liveness, at=now),
            refused.get(offering.holder_id, ""),
        )
        for offering, liveness in found
    ]
    return render(request, "game/tables.html", {"tables": rows})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def table(request: HttpRequest, pk: int) -> HttpResponse:
    """A table to play at; a POST acknowledges the notice of time and money played that the
    next round waits on (§ 814a.1), and comes back here."""
    player = player_of(request)
    offering = offerings_with_parts().filter(pk=pk).first()
    if offering is None:
        raise Http404("no such table")
    session = session_of_request(request)
    if request.method == "POST":
        return _acknowledge(request, player, session, offering)
    listing = jinzi_listing(offering.rules_submission)
    now = timezone.now()
    liveness = offering_is_live(offering, at=now, listing=listing)
    wheel = offering.layout.wheel()
    # Why this player may not bet here now (betting is then not offered), or "".
    refused = refusals_by_holder(player, [offering.holder], at=now).get(offering.holder_id, "")
    context = {
        "offering": offering,
        "liveness": liveness,
        # Why it is closed, in one plain sentence (the reasons are for staff's pages).
        "closed": presenters.closed_sentence(offering, liveness, at=now, listing=listing),
        "listing": listing,
        # § 812a.4: the table is played from the player's account with its holder.
        "account": GamingAccount.objects.filter(player=player, holder=offering.holder).first(),
        "recent": selectors.recent_rounds(player, 5),
        "columns": RECENT_GAMES_COLUMNS,
        "refused": refused,
        # The notice the next round waits on, if one is due (§ 814a.1): shown first.
        "notice": pending_notice(session, at=now) if not refused else None,
    }
    if liveness.live and listing is not None and not refused:
        cells = presenters.table_cells(wheel)
        context.update(
            grid_cells=[c for c in cells if c.shape != "outside" or c.row != 11],
            outside_cells=[c for c in cells if c.shape == "outside" and c.row == 11],
            segments=presenters.wheel_segments(wheel),
            chips=presenters.chip_values(listing.chip_unit, listing.max_wager),
            pays=presenters.what_bets_pay(
                offering.paytable.to_domain(), wheel, max(listing.min_wager, listing.chip_unit)
            ),
        )
    return render(request, "game/table.html", context)


def _acknowledge(request, player, session, offering) -> HttpResponse:
    number = request.POST.get("number", "")
    if session is None:
        raise SessionEnded(NO_SESSION)
    notice_acknowledge(
        player=player, session=session, number=int(number) if number.isdigit() else number
    )
    messages.success(request, "Thank you. You may play on.")
    return redirect("game:table", offering.pk)


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    """Every game of the player's (§ 810a.11 recall), filtered, sorted, a page or a CSV."""
    player = player_of(request)
    games = PlayerRoundFilter.for_page(request, selectors.player_rounds(player))
    if wants_csv(request) and games.is_valid():
        return csv_download(games.qs, games.columns, "my-games")
    page, status = filtered_page(request, games)
    context = {
        "filter": games,
        "columns": games.columns,
        "page": page,
        "accounts": GamingAccount.objects.filter(player=player).select_related("holder"),
    }
    return render(request, "game/history.html", context, status=status)


# The approved records a round was played under, named by title on its player pages.
_ROUND_RECORDS = ("rules_submission", "layout", "paytable")


def _may_look_up_rounds(user) -> bool:
    """A player their own rounds; compliance, auditors and superusers any; a holder's
    supervisors their holder's (they correct them)."""
    return (
        may(user, Action.PLAY) or may(user, Action.VIEW_ROUNDS) or may(user, Action.CORRECT_ROUNDS)
    )


def _visible_round(request: HttpRequest, pk: int):
    """The round ``pk`` if the user may look it up (else 404; 403 for a role that looks up
    no round), with whether any void or adjustment names it."""
    if not _may_look_up_rounds(request.user):
        raise PermissionDenied("your role may not look up game rounds")
    # The three records the round names come with it (their titles, no query each), and
    # the table's holder (whose staff correct it).
    rounds = with_corrections(rounds_with_detail()).select_related(
        *_ROUND_RECORDS, "offering__holder"
    )
    return visible_or_404(request.user, rounds, pk, action=None, within=selectors.visible_rounds)


def _corrections_context(request: HttpRequest, round_obj) -> dict:
    """What the round's pages say of its voids and adjustments, in plain words."""
    user = request.user
    return {
        "corrections": round_corrections(round_obj),
        "mine": round_obj.player_id == user.pk,
        "corrections_linked": may_see_corrections(user),
    }


# What the round page's forms propose, by the ``action`` each posts.
PROPOSALS = {"void": CorrectionKind.VOID, "adjustment": CorrectionKind.ADJUSTMENT}


PROPOSAL_FORMS = {CorrectionKind.VOID: VoidForm, CorrectionKind.ADJUSTMENT: AdjustmentForm}


def _proposal_form(kind: CorrectionKind, data=None, findings=()):
    extra = {"findings": findings} if kind == CorrectionKind.ADJUSTMENT else {}
    return PROPOSAL_FORMS[kind](data, auto_id=f"{kind.value}_%s", **extra)


def _findings(round_obj) -> list:
    return list(PayoutFinding.objects.filter(round=round_obj).select_related("found_by"))


def _record_finding(request: HttpRequest, round_obj) -> Posted:
    def call(data) -> str:
        finding = payout_finding_record(
            actor=request.user, round_id=round_obj.pk, text=data["text"]
        )
        return f"Finding no. {finding.pk} recorded: an adjustment may rest on it."

    return run(Posted("finding", FindingForm(request.POST, auto_id="finding_%s")), call)


def _propose(
    request: HttpRequest, round_obj, kind: CorrectionKind, findings
) -> tuple[Posted, int | None]:
    """Read the form and propose; the proposal's id when it was made."""
    made: list[int] = []

    def call(data) -> str:
        proposed = correction_propose(
            actor=request.user,
            round_id=round_obj.pk,
            kind=kind.value,
            reason=data["reason"],
            amount=data.get("amount"),
            notice=data.get("notice", ""),
            finding_id=data.get("finding"),
        )
        made.append(proposed.pk)
        return (
            f"{kind.label} of round {round_obj.pk} proposed: someone else approves or rejects it."
        )

    posted = run(Posted(kind.value, _proposal_form(kind, request.POST, findings)), call)
    return posted, (made[0] if made else None)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The round's record, with its voids and adjustments above it. POST: propose one
    (``action`` names which), for whoever may correct the rounds of the round's holder:
    proposed, the page goes to the proposal; refused, this page answers with the refusal
    on the form and its status (400, 403, 404, 409), and nothing is written."""
    round_obj = _visible_round(request, pk)
    holder_id = round_obj.offering.holder_id
    may_correct = may(request.user, Action.CORRECT_ROUNDS, holder_id=holder_id)
    findings = _findings(round_obj) if may_correct else []
    forms = {name: _proposal_form(kind, findings=findings) for name, kind in PROPOSALS.items()}
    forms["finding"] = FindingForm(auto_id="finding_%s")
    failed, status = "", 200
    if request.method == "POST" and request.POST.get("action") == "finding":
        posted = _record_finding(request, round_obj)
        if posted.status == 200:
            messages.success(request, posted.done)
            return redirect("game:round", round_obj.pk)
        forms["finding"], failed, status = posted.form, "finding", posted.status
    elif request.method == "POST":
        policy.require(request.user, Action.CORRECT_ROUNDS, holder_id=holder_id)
        action = posted_action(request, PROPOSALS)
        posted, proposed = _propose(request, round_obj, PROPOSALS[action], findings)
        if proposed is not None:
            messages.success(request, posted.done)
            return redirect("game:correction", proposed)
        forms[action], failed, status = posted.form, action, posted.status
    context = {
        "round": round_obj,
        "data": round_data(round_obj),
        "records": presenters.round_records(round_obj),
        "odds_shown": presenters.recorded_odds(round_obj.paytable_odds),
        **_corrections_context(request, round_obj),
        "may_correct": may_correct,
        # A compliance officer records payout findings on it (reading:adjustment-grounds).
        "may_find": may(request.user, Action.DECIDE) and round_obj.player_id != request.user.pk,
        "findings": findings,
        "finding_form": forms["finding"],
        "void_form": forms["void"],
        "adjustment_form": forms["adjustment"],
        "failed": failed,
    }
    return render(request, "game/round.html", context, status=status)


def _replay_page(request: HttpRequest, round_obj, *, latest: bool) -> HttpResponse:
    return render(
        request,
        "game/replay.html",
        {
            "round": round_obj,
            "data": replay_data(round_obj),
            # The banner says "your previous game" only when it is the viewer's own latest.
            "latest": latest,
            "records": presenters.round_records(round_obj),
            **_corrections_context(request, round_obj),
        },
    )


@login_required
@require_GET
def replay_last(request: HttpRequest) -> HttpResponse:
    """§ 810a.11(a): the signed-in player's previous game, replayed from its record."""
    player = player_of(request)
    # ``recent_rounds(player, 1)`` with the three records the page names.
    last = (
        with_corrections(rounds_with_detail())
        .select_related(*_ROUND_RECORDS)
        .filter(player=player)
        .order_by("-sequence")
        .first()
    )
    if last is None:
        return render(request, "game/replay.html", {"round": None})
    return _replay_page(request, last, latest=True)


@login_required
@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Any round's replay, to whoever may look it up (as ``round_detail``)."""
    round_obj = _visible_round(request, pk)
    mine = round_obj.player_id == request.user.pk  # only then is "latest" asked (a query)
    return _replay_page(request, round_obj, latest=mine and selectors.is_latest_round(round_obj))


@login_required
@require_safe
@domain_errors
@reads_from_replica
def round_list(request: HttpRequest) -> HttpResponse:
    """Every round, filtered (§ 810a.11's records, for those who may see every round; a
    holder's supervisors list their holder's, which they correct); each links to its full
    record and says whether it was voided or adjusted. A filter value it cannot read is a
    400, shown inline."""
    if not may(request.user, Action.CORRECT_ROUNDS):
        policy.require(request.user, Action.VIEW_ROUNDS)
    rounds = RoundFilter.for_page(request, selectors.staff_rounds(request.user))
    if wants_csv(request) and rounds.is_valid():
        return csv_download(rounds.qs, rounds.columns, "game-rounds")
    page, status = filtered_page(request, rounds)
    context = {
        "filter": rounds,
        "columns": rounds.columns,
        "page": page,
        "may_verify": may(request.user, Action.VIEW_AUDIT),
    }
    return render(request, "game/staff_rounds.html", context, status=status)


@login_required
@require_safe
@domain_errors
def verify_rounds(request: HttpRequest) -> HttpResponse:
    """``verify_round_chain`` as a page (§ 810a.11, § 811a.7), with the heads to keep outside
    the system: each player's round-chain head, their digest (as the audit report prints
    it) and the audit trail's head. The heads are read in the snapshot the check walks, so
    they are the heads it verified."""
    policy.require(request.user, Action.VIEW_AUDIT)
    # The snapshot ``verify_stored`` itself takes, opened here so the heads shown are read
    # in it too (inside it, ``verify_stored`` reads the same view).
    with retention.snapshot():
        report = retention.verify_stored()
        heads = selectors.round_chain_heads()
        audit_head = stored_head()
    digest = heads_digest({head.player_id: (head.sequence, head.hash) for head in heads})
    context = {
        "report": report,
        "heads": Paginator(heads, PAGE_SIZE).get_page(request.GET.get("page")),
        "digest": digest,
        "audit_head": audit_head,
        "at": timezone.now(),
    }
    return render(request, "game/verify_rounds.html", context)
