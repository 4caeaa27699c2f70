"""Playing a round and moving money: the only code that writes game records."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from prometheus_client import Counter

import jinzi
from portal.access.policy import Action, require
from portal.compliance.models import CertificateHolder
from portal.compliance.selectors import offering_is_live
from portal.core.errors import Conflict, NotFound, Unavailable, ValidationFailed
from portal.core.money import dollars
from portal.core.software import running_identity
from portal.core.validation import MAX_ID
from portal.core.version import PORTAL_VERSION
from portal.game.chain import round_digest
from portal.game.models import Bet, LedgerKind, Round, RoundStatus
from portal.game.money import limits, standing, terms
from portal.game.money.selectors import wallet_for
from portal.game.money.services.accounts import open_to_play_and_deposit
from portal.game.play import messages as msg
from portal.game.play import store
from portal.game.play.wagers import PlacedWager, check_limits, parse_wagers
from portal.game.sessions import lifecycle, notice
from portal.software.selectors import not_approved_reason

_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
# /metrics (docs/operations.md, Metrics): rounds settled, by the holder whose table it was
# (a handful of series; never the player). Counted in memory, or in gunicorn's multiprocess
# folder, once the round is committed: no query is added to the round.
ROUNDS_SETTLED = Counter(
    "jinzi_rounds_settled", "Rounds settled and committed, by certificate holder.", ["holder"]
)


def _fingerprint(offering_id, placed) -> str:
    body = [offering_id, sorted((p.wager.spot, p.stake) for p in placed)]
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()


class TableClosed(Conflict):
    """A bet on a table that is not live now: the message gives every reason (for staff and
    scripts); the offering, its liveness and the instant let a page or the API say it to the
    player in one plain sentence (``presenters.closed_sentence``)."""

    def __init__(self, offering, liveness, *, at) -> None:
        super().__init__(msg.CLOSED.format(reasons="; ".join(liveness.reasons)))
        self.offering, self.liveness, self.at = offering, liveness, at


@dataclass(frozen=True)
class PlayedRound:
    round: Round
    bets: list[Bet]  # in position order
    replayed: bool  # a retry answered with the round its key already played


@dataclass(frozen=True)
class _Request:
    player: object
    session_id: int
    offering_id: int
    placed: list[PlacedWager]
    idempotency_key: str
    fingerprint: str
    rng: object

    @property
    def key(self) -> dict:
        return {"player_id": self.player.pk, "idempotency_key": self.idempotency_key}

    @property
    def read_key(self) -> dict:
        return self.key | {"session_id": self.session_id}


@limits.tells_limit_reached
def round_play(
    *, player, session: int, offering_id, wagers, idempotency_key, rng=None
) -> PlayedRound:
    """Stake, draw and settle one round in one transaction, in the player's ``session``
    (its id; § 812a.9(a)(5)), which must be running.

    A retried request with the same idempotency key and wagers gets the round it already
    played, never a second one. While the game software running is not approved
    (§ 461a.4) no round is played (``Unavailable``, 503). Every refusal happens before any
    money moves. The wallet's row lock, taken by the first read, serialises this player's
    rounds (no overdraft, one chain); ``portal.game.play.store`` reads and writes.
    """
    require(player, Action.PLAY)
    if not isinstance(idempotency_key, str) or not _KEY.match(idempotency_key):
        raise ValidationFailed.on("idempotency_key", msg.KEY_INVALID)
    if type(offering_id) is not int:
        raise ValidationFailed.on("offering", "offering is the id of a table (a whole number)")
    if not 0 < offering_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_OFFERING.format(id=offering_id))
    if type(session) is not int or not 0 < session <= MAX_ID:
        raise lifecycle.SessionEnded(lifecycle.NO_SESSION)
    placed = parse_wagers(wagers)
    request = _Request(
        player,
        session,
        offering_id,
        placed,
        idempotency_key,
        _fingerprint(offering_id, placed),
        rng,
    )
    connection = store.connection_for_rounds()
    played = _play_locked(connection, request)
    if played is None:  # the player's first round: create the wallet, then play
        wallet_for(player)
        played = _play_locked(connection, request)
    if isinstance(played, PlayedRound):
        return played
    previous_id, previous_fingerprint = played
    if previous_fingerprint != request.fingerprint:
        raise Conflict(msg.KEY_REUSED.format(key=idempotency_key))
    return PlayedRound(
        Round.objects.select_related("player", "offering").get(pk=previous_id),
        list(Bet.objects.filter(round_id=previous_id).order_by("position")),
        replayed=True,
    )


def _play_locked(connection, request: _Request) -> PlayedRound | tuple[int, str] | None:
    """Under the wallet's lock: the round played now, or (id, fingerprint) of the round
    already played under the request's key; None if the player has no wallet yet."""
    rounds = store.rounds_for(connection)
    with transaction.atomic(using=connection.alias):
        inputs = rounds.read(offering_id=request.offering_id, **request.read_key)
        if inputs is None:
            return None
        previous = inputs.previous
        if previous is None and inputs.moved_while_waiting:
            # Another round of this player was committed while this request waited for the
            # lock: it may be this very request, sent twice. Look again before any check
            # or draw, so a retry is answered with its round, never with an error.
            previous = rounds.played_under(**request.key)
        if previous is not None:
            return previous
        played = _settle(rounds, request, inputs)
        if played is None:  # the write's last guard found the key taken, and wrote nothing
            return rounds.played_under(**request.key)
        settled = ROUNDS_SETTLED.labels(holder=str(played.round.offering.holder_id))
        transaction.on_commit(settled.inc, using=connection.alias)
        return played


def _holder_name(offering) -> str:
    return CertificateHolder.objects.values_list("name", flat=True).get(pk=offering.holder_id)


def _settle(rounds, request: _Request, inputs) -> PlayedRound | None:
    wallet, offering, placed = inputs.wallet, inputs.offering, request.placed
    account, session = inputs.account, inputs.session
    started_at = timezone.now()
    # Only inside a running session (§ 812a.3(a)(6), § 812a.9(a)(5)).
    lifecycle.refuse_unless_open(session, at=started_at)
    if offering is None:
        raise NotFound(msg.NO_SUCH_OFFERING.format(id=request.offering_id))
    # § 461a.4: a round is offered only on game software the Board approved.
    if not inputs.software_approved:
        raise Unavailable(not_approved_reason())
    liveness = offering_is_live(
        offering, at=started_at, listing=inputs.listing, software_approved=inputs.software_approved
    )
    if not liveness.live:
        raise TableClosed(offering, liveness, at=started_at)
    # The player's standing (§ 812a.2, § 815a.4), read with the wallet it locked.
    standing.refuse_money_in(wallet, at=started_at)
    if account is None:  # § 812a.4: a holder's tables are played from its account
        holder = CertificateHolder.objects.get(pk=offering.holder_id)
        raise ValidationFailed.on("offering", msg.NO_ACCOUNT.format(holder=holder.name))
    if inputs.terms is not None and not inputs.terms.accepted:
        terms.refuse_unaccepted(inputs.terms, holder_name=_holder_name(offering))
    open_to_play_and_deposit(account)
    # The notice of time and money since sign-in waits to be read (§ 814a.1).
    notice.refuse_if_due(session, wallet.notice_minutes, at=started_at)
    total = check_limits(placed, inputs.listing)
    limits.check_round(
        account, [(p.wager.label, p.stake) for p in placed], at=started_at, session=session.pk
    )
    if total > account.available:
        if account.held:
            refusal = msg.INSUFFICIENT_HELD.format(
                total=dollars(total),
                available=dollars(account.available),
                held=dollars(account.held),
            )
        else:
            refusal = msg.INSUFFICIENT.format(total=total, balance=account.balance)
        raise ValidationFailed.on("wagers", refusal)

    # "No more bets" (§ 617b.8(e)): the wagers are fixed; now the RNG draws.
    bets_closed_at = timezone.now()
    draw = jinzi.draw(request.rng)
    paytable = offering.paytable.to_domain()
    wheel = offering.layout.wheel()
    table = jinzi.SettlementTable.for_(paytable, wheel)
    returns = table.settle_columns(
        draw.outcome, [p.wager.spot_index for p in placed], [p.stake for p in placed]
    )
    total_returned = sum(returns)
    ended_at = timezone.now()
    fields = {
        "player_id": request.player.pk,
        "offering_id": offering.pk,
        "rules_submission_id": offering.rules_submission_id,
        "rules_version": offering.rules_submission.version,
        "layout_id": offering.layout_id,
        "layout_version": offering.layout.version,
        "paytable_id": offering.paytable_id,
        "paytable_version": offering.paytable.version,
        "paytable_odds": paytable.as_dict(),
        "wheel_order": list(wheel.order),
        "first_colour": wheel.first.value,
        "game_name": jinzi.GAME_NAME,
        "software_version": jinzi.__version__,
        "idempotency_key": request.idempotency_key,
        "started_at": started_at,
        "bets_closed_at": bets_closed_at,
        "ended_at": ended_at,
        "rng_raw": draw.raw,
        "rng_method": draw.method,
        "outcome": draw.outcome,
        "total_staked": total,
        "total_returned": total_returned,
        "balance_before": account.balance,
        "balance_after": account.balance - total + total_returned,
        "sequence": wallet.rounds_played + 1,
        "prev_hash": wallet.chain_head,
        "status": RoundStatus.COMPLETE,
        "portal_version": PORTAL_VERSION,
        "session_id": str(session.public_id),
        # The game software it is played under (§ 461a.4, reading:software-approval).
        "software_identity": running_identity().digest,
    }
    bets = [
        {
            "position": position,
            "kind": p.wager.kind.value,
            "numbers": list(p.wager.numbers),
            "spot": p.wager.spot,
            "stake": p.stake,
            "returned": returned,
        }
        for position, (p, returned) in enumerate(zip(placed, returns, strict=True))
    ]
    round_obj = Round(
        request_fingerprint=request.fingerprint, hash=round_digest(fields, bets), **fields
    )
    entries = [
        {"kind": LedgerKind.STAKE, "amount": -total, "balance_after": account.balance - total}
    ]
    if total_returned:
        entries.append(
            {
                "kind": LedgerKind.RETURN,
                "amount": total_returned,
                "balance_after": round_obj.balance_after,
            }
        )
    account.balance = round_obj.balance_after
    account.updated_at = ended_at
    wallet.rounds_played = round_obj.sequence
    wallet.chain_head = round_obj.hash
    wallet.updated_at = ended_at
    session.last_activity_at = ended_at  # the round is the session's activity
    written = rounds.write(
        round_obj=round_obj,
        bets=bets,
        entries=entries,
        wallet=wallet,
        account=account,
        session=session,
    )
    if written is None:
        return None
    stored, stored_bets = written
    stored.player = request.player
    stored.offering = offering  # as read for the round: its answer names its holder
    return PlayedRound(stored, stored_bets, replayed=False)
