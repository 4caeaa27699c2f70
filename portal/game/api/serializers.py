"""What the game API reads (a round's bets, a top-up, a deposit, a withdrawal, a limit, a
proposed void or adjustment and its decision) and answers (a round with its corrections, the
wallet, a player's accounts with the holders and their movements).

The bodies are read strictly (no unknown field, none missing), but each value is handed to
the services as given: whether a wager, a stake or a table is legal is theirs and
``jinzi``'s to say, citing § 617b.8, so their messages are the ones a client sees.
Amounts are minor units (cents); instants are UTC, as the rounds are kept.
"""

from __future__ import annotations

import datetime

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.fields import empty

import jinzi
from portal.api.fields import AsGiven, StrictInput, WholeNumberField
from portal.game import presenters
from portal.game.corrections import STATE_WORDS, correction_data, state_of
from portal.game.limits import UNKNOWN_KIND, LimitKind
from portal.game.models import (
    AccountStatus,
    CorrectionKind,
    CorrectionStatus,
    DepositMethod,
    Round,
    RoundCorrection,
    RoundStatus,
    WithdrawalStatus,
)


class GivenInteger(AsGiven, serializers.IntegerField):
    pass


class GivenText(AsGiven, serializers.CharField):
    pass


class GivenChoice(AsGiven, serializers.ChoiceField):
    pass


class GivenList(AsGiven, serializers.ListField):
    pass


class UtcInstantField(serializers.DateTimeField):
    """An instant in ISO 8601, in UTC (``+00:00``), as a round's record gives its times."""

    def to_representation(self, value) -> str:
        return value.astimezone(datetime.UTC).isoformat()


class WagerIn(StrictInput):
    """One wager: its kind, the numbers it covers where the kind names them, its stake."""

    kind = GivenChoice(choices=[(k, k) for k in jinzi.WAGER_KINDS])
    numbers = GivenList(child=serializers.IntegerField(), required=False)
    stake = GivenInteger(help_text="Minor units (cents); even, a chip multiple.")


class RoundIn(StrictInput):
    """One round's wagers at one table; the key makes a retried request safe."""

    offering = GivenInteger()
    idempotency_key = GivenText(help_text="8–64 of A-Z a-z 0-9 - _; one per bet.")
    wagers = WagerIn(many=True)


@extend_schema_serializer(component_name="TopUp")
class TopUpInput(StrictInput):
    """Demo credit (a deposit by the demo method) into the player's account with a holder,
    in minor units (cents). ``holder`` may be left out where only one holder exists."""

    amount = GivenInteger()
    holder = GivenInteger(required=False)


class WagerOut(serializers.Serializer):
    kind = serializers.CharField()
    numbers = serializers.ListField(child=serializers.IntegerField())
    spot = serializers.CharField()
    label = serializers.CharField()
    stake = serializers.IntegerField()
    returned = serializers.IntegerField()


def _enum_schema(choices) -> dict:
    return {
        "type": "string",
        "enum": [value for value, _ in choices],
        "description": "\n".join(f"* `{value}` - {label}" for value, label in choices),
    }


# "kind" and "status" are the names of other fields with other values: each set of values is
# one named schema component, so no enum is renamed after a hash.
@extend_schema_field(_enum_schema(CorrectionKind.choices), component_name="CorrectionKindEnum")
class CorrectionKindField(AsGiven, serializers.ChoiceField):
    """Read as given (the service names both kinds, with their clauses); answered as is."""

    def __init__(self, **kwargs) -> None:
        super().__init__(choices=CorrectionKind.choices, **kwargs)


@extend_schema_field(_enum_schema(CorrectionStatus.choices), component_name="CorrectionStatusEnum")
class CorrectionStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=CorrectionStatus.choices, **kwargs)


ROUND_STATES = tuple(STATE_WORDS.items())  # complete, void, adjusted


@extend_schema_field(_enum_schema(ROUND_STATES), component_name="RoundStateEnum")
class RoundStateField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=ROUND_STATES, **kwargs)


class CorrectionOut(serializers.Serializer):
    """A void (§ 617a.6) or an adjustment (§ 812a.7(a)(9)) of a settled round: who proposed
    it and why, who decided it, and what approving it moved (minor units, times UTC)."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = CorrectionKindField()
    status = CorrectionStatusField()
    amount = serializers.IntegerField(
        help_text="Minor units the player is owed (positive) or owes (negative): for a void, "
        "the round's stakes less its returns; for an adjustment, the difference."
    )
    reason = serializers.CharField(help_text="Why it was proposed.")
    notice = serializers.CharField(
        help_text="The notification the player was sent (§ 812a.7(a)(9)); may be blank for a void."
    )
    proposed_by = serializers.CharField(help_text="The proposer's username.")
    proposed_at = UtcInstantField()
    decided_by = serializers.CharField(
        allow_null=True, help_text="Who approved or rejected it; null while proposed."
    )
    decided_at = UtcInstantField(allow_null=True)
    decision_reason = serializers.CharField(help_text="Why it was decided so (may be blank).")
    credited = serializers.IntegerField(help_text="What approving it credited the account.")
    debited = serializers.IntegerField(help_text="What approving it took from the account.")
    uncollected = serializers.IntegerField(
        help_text="What the account could not cover (never the balance held for a pending "
        "withdrawal, never below zero)."
    )

    def to_representation(self, instance) -> dict:
        """Through ``corrections.correction_data``, as the pages show it; given a
        ``RoundCorrection`` (its people loaded), or what ``correction_data`` made of it."""
        if isinstance(instance, RoundCorrection):
            instance = correction_data(instance)
        return super().to_representation(instance)


class RoundOut(serializers.Serializer):
    """A settled round as § 810a.11 asks it kept (amounts in minor units, times UTC)."""

    id = serializers.IntegerField()
    offering = serializers.IntegerField()
    holder = serializers.IntegerField(
        help_text="The certificate holder whose table it was: the round was played from the "
        "player's account with it (§ 812a.4), whose balances are balance_before and "
        "balance_after."
    )
    player = serializers.CharField()
    game_name = serializers.CharField()
    software_version = serializers.CharField(help_text="The game engine's version.")
    portal_version = serializers.CharField(help_text="The portal's version (blank on old rounds).")
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    rules_submission = serializers.DictField(help_text="id and version")
    layout = serializers.DictField(help_text="id and version")
    paytable = serializers.DictField(help_text="id, version and odds")
    started_at = serializers.DateTimeField()
    bets_closed_at = serializers.DateTimeField(
        allow_null=True, help_text='"No more bets", before the draw (§ 617b.8(e)).'
    )
    ended_at = serializers.DateTimeField()
    rng = serializers.DictField(help_text="raw value and method")
    wheel = serializers.DictField(
        help_text="the order played, clockwise from 0, and the colour after 0 (§ 617b.8(c))"
    )
    outcome = serializers.IntegerField()
    outcome_colour = serializers.CharField()
    winning_spots = serializers.ListField(child=serializers.CharField())
    wagers = WagerOut(many=True)
    total_staked = serializers.IntegerField()
    total_returned = serializers.IntegerField()
    balance_before = serializers.IntegerField(help_text="The account's, before the stake.")
    balance_after = serializers.IntegerField(help_text="The account's, after the return.")
    sequence = serializers.IntegerField()
    hash = serializers.CharField()
    state = RoundStateField(
        help_text="What the round's record says it is now: complete (as settled), void or "
        "adjusted. Only an approved correction changes it; the round's own record is never "
        "changed."
    )
    corrections = CorrectionOut(
        many=True, help_text="Its voids and adjustments, oldest first, whatever their status."
    )

    def to_representation(self, instance) -> dict:
        """A round as ``presenters.round_data`` shows it (the game page and the replay show
        the same data), with the holder of its table and its corrections, read through the
        fields above: a key they do not declare is not sent, and one they declare must be
        there. Given a ``Round`` (its offering loaded), its bets are its own and its
        corrections are the context's ``corrections`` (``corrections_of`` the page's rounds,
        read once for them all); a caller holding them passes ``round_answer(...)`` instead."""
        if isinstance(instance, Round):
            found = self.context["corrections"]
            instance = round_answer(instance, corrections=found.get(instance.pk, ()))
        return super().to_representation(instance)


def round_answer(round_obj: Round, bets=None, *, corrections) -> dict:
    """``presenters.round_data``, the holder whose account the round was played from, and
    what its corrections (``corrections_of``'s, oldest first) make of it."""
    corrections = list(corrections)
    return presenters.round_data(round_obj, bets) | {
        "holder": round_obj.offering.holder_id,
        "state": state_of(corrections),
        "corrections": [correction_data(correction) for correction in corrections],
    }


class LedgerEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(
        help_text='"deposit", "withdrawal", "stake", "return"; on older entries "top_up", '
        '"carried_out" or "carried_in".'
    )
    account = serializers.IntegerField(
        source="account_id", allow_null=True, help_text="The holder account it moved."
    )
    amount = serializers.IntegerField(help_text="Minor units: negative for a stake.")
    balance_after = serializers.IntegerField()
    round = serializers.IntegerField(
        source="round_id", allow_null=True, help_text="The round, for stakes and returns."
    )
    at = UtcInstantField(source="created_at")


@extend_schema_serializer(component_name="WalletAccount")
class WalletAccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    holder = serializers.IntegerField(source="holder_id")
    holder_name = serializers.CharField(source="holder.name")
    balance = serializers.IntegerField(help_text="Minor units (cents).")
    held = serializers.IntegerField(help_text="Held for pending withdrawals.")
    available = serializers.IntegerField(help_text="What play may use: balance less held.")
    status = serializers.CharField()


# One wallet, not a list of them, though GET /api/wallet/ is the viewset's "list" route.
@extend_schema_serializer(many=False, component_name="Wallet")
class WalletOut(serializers.Serializer):
    balance = serializers.IntegerField(help_text="Minor units (cents), over every account.")
    currency = serializers.CharField()
    accounts = WalletAccountOut(many=True, help_text="One per certificate holder (§ 812a.4).")
    entries = LedgerEntryOut(many=True, help_text="The latest 20, newest first.")


# The player's accounts with the holders (Chapter 812a) ------------------------------------


class PendingLimitOut(serializers.Serializer):
    value = serializers.IntegerField(
        allow_null=True, help_text="The raised limit; null: no limit at all."
    )
    effective_from = serializers.CharField(
        source="from",
        help_text="The instant (ISO 8601) the current period ends, from which the player may "
        "confirm it.",
    )


@extend_schema_serializer(component_name="PlayerAccount")
class AccountOut(serializers.Serializer):
    """A player's interactive gaming account with one certificate holder (§ 812a.4)."""

    id = serializers.IntegerField()
    holder = serializers.IntegerField(source="holder_id")
    holder_name = serializers.CharField(source="holder.name")
    player = serializers.CharField(source="player.username", help_text="The player's username.")
    balance = serializers.IntegerField(help_text="Minor units (cents).")
    held = serializers.IntegerField(help_text="Held for pending withdrawals (§ 812a.10).")
    available = serializers.IntegerField(help_text="What play may use: balance less held.")
    # Its values are documented once, on the body that sets them (StatusIn).
    status = serializers.CharField(help_text="open, suspended or self_excluded.")
    status_reason = serializers.CharField(
        help_text="Why the holder suspended it or recorded a self-exclusion (§ 812a.12, "
        "§ 812a.6); blank while it was never restricted."
    )
    status_changed_at = UtcInstantField(allow_null=True)
    paused_until = UtcInstantField(
        allow_null=True, help_text="The player's own suspension of play, until (§ 814a.2)."
    )
    limits = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="The limits in force (§ 814a.2), by kind: cents, or minutes for time_day.",
    )
    pending_limits = serializers.DictField(
        child=PendingLimitOut(),
        help_text="Raises waiting for their period to end and the player to confirm them.",
    )
    opened_at = UtcInstantField()


class DepositIn(StrictInput):
    """The player's own deposit into their account with ``holder``, opening it if need be
    (§ 812a.7(a)); never credit (§ 812a.7(b))."""

    holder = GivenInteger(help_text="The certificate holder's id.")
    amount = GivenInteger(help_text="Minor units (cents).")
    method = GivenText(
        help_text="card, bank or prepaid (and demo on the demo portal); cash, cheque and "
        "promotional credit are recorded by the holder's payments staff."
    )
    reference = GivenText(
        required=False, help_text="The payment's reference (up to 100 characters)."
    )


class DepositRecordIn(StrictInput):
    """A deposit made at the holder, recorded by its payments staff (§ 812a.7(a))."""

    amount = GivenInteger(help_text="Minor units (cents).")
    method = GivenText(help_text="cash, cheque or promotional.")
    reference = GivenText(help_text="The receipt's or payment's reference.")


class DepositOut(serializers.Serializer):
    id = serializers.IntegerField()
    account = serializers.IntegerField(source="account_id")
    amount = serializers.IntegerField()
    method = serializers.ChoiceField(choices=DepositMethod.choices)
    reference = serializers.CharField()
    made_by = serializers.CharField(source="made_by.username")
    made_at = UtcInstantField()
    ledger_entry = serializers.IntegerField(source="entry_id")
    balance_after = serializers.IntegerField(source="entry.balance_after")


class WithdrawIn(StrictInput):
    amount = GivenInteger(help_text="Minor units (cents), at most the available balance.")


class WithdrawalOut(serializers.Serializer):
    """A request to be paid from an account (§ 812a.10)."""

    id = serializers.IntegerField()
    account = serializers.IntegerField(source="account_id")
    holder = serializers.IntegerField(source="account.holder_id")
    holder_name = serializers.CharField(source="account.holder.name")
    player = serializers.CharField(source="account.player.username")
    amount = serializers.IntegerField()
    status = serializers.ChoiceField(choices=WithdrawalStatus.choices)
    requested_at = UtcInstantField()
    age_seconds = serializers.SerializerMethodField(
        help_text="How long a pending request has waited; null once decided."
    )
    decided_at = UtcInstantField(allow_null=True)
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True)
    payout_reference = serializers.CharField()
    reason = serializers.CharField(help_text="Why it was refused (blank otherwise).")
    ledger_entry = serializers.IntegerField(source="entry_id", allow_null=True)

    def get_age_seconds(self, withdrawal) -> int | None:
        if withdrawal.status != WithdrawalStatus.PENDING:
            return None
        return int((self.context["now"] - withdrawal.requested_at).total_seconds())


class PayIn(StrictInput):
    payout_reference = GivenText(help_text="The payout's reference (up to 100 characters).")


class ReasonIn(StrictInput):
    reason = GivenText(help_text="Kept with the record and shown to the player.")


class LimitKindField(GivenChoice):
    """A limit's kind: a string is handed to ``limits`` as given (its message names every
    kind); anything else is refused here with the same message."""

    def __init__(self, **kwargs) -> None:
        super().__init__(choices=[(k.value, k.label) for k in LimitKind], **kwargs)

    def run_validation(self, data=empty):
        if data is not empty and not isinstance(data, str):
            kinds = ", ".join(k.label for k in LimitKind)
            raise serializers.ValidationError(UNKNOWN_KIND.format(kinds=kinds))
        return super().run_validation(data)


class LimitIn(StrictInput):
    """One responsible-gaming limit (§ 814a.2): lower takes effect at once; higher, or null
    (no limit), once the current period has ended and the player confirms it."""

    kind = LimitKindField()
    value = GivenInteger(allow_null=True, help_text="Cents (minutes for time_day); null: no limit.")


# Its values are documented once, on LimitIn (an enum in two bodies has no one name).
@extend_schema_field(OpenApiTypes.STR)
class ConfirmedKindField(LimitKindField):
    pass


class LimitConfirmIn(StrictInput):
    kind = ConfirmedKindField(help_text="The kind of limit whose raise to confirm (as LimitIn's).")


class LimitChangeOut(serializers.Serializer):
    kind = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)
    applied = serializers.BooleanField(
        help_text="False: waiting for the period's end and the player's confirmation."
    )
    effective_from = UtcInstantField()
    account = AccountOut()


class PauseIn(StrictInput):
    """The player's own suspension of play and deposits with the holder (§ 814a.2): hours
    or days, one of them."""

    hours = GivenInteger(required=False, help_text="1 to 720.")
    days = GivenInteger(required=False, help_text="1 to 365.")


class StatusIn(StrictInput):
    """Suspend (§ 812a.12), record a self-exclusion from the Board's list (§ 812a.6), or
    reopen; always with the reason."""

    status = GivenChoice(choices=AccountStatus.choices)
    reason = GivenText()


# Voids and adjustments of settled rounds (§ 617a.6, § 812a.7(a)(9)) --------------------


class RoundCorrectionOut(CorrectionOut):
    """A void or an adjustment, with the account it moves: the player's with the holder
    whose table the round was played at (§ 812a.4)."""

    holder = serializers.IntegerField(help_text="The certificate holder whose table it was.")
    holder_name = serializers.CharField()
    player = serializers.CharField(help_text="The player's username.")

    def to_representation(self, instance) -> dict:
        if isinstance(instance, RoundCorrection):
            account = instance.account
            instance = correction_data(instance) | {
                "holder": account.holder_id,
                "holder_name": account.holder.name,
                "player": account.player.get_username(),
            }
        return super().to_representation(instance)


class CorrectionIn(StrictInput):
    """A void (§ 617a.6) or an adjustment (§ 812a.7(a)(9)) of a settled round, proposed
    with its reason; someone else approves or rejects it."""

    round = WholeNumberField(min_value=1, help_text="The round's id.")
    kind = CorrectionKindField()
    reason = GivenText(help_text="Why; kept with the record and shown to the player.")
    amount = GivenInteger(
        required=False,
        allow_null=True,
        help_text="Adjustments only: minor units (cents), positive to credit the player, "
        "negative to debit, not zero. A void's amount is the round's stakes less its returns.",
    )
    notice = GivenText(
        required=False,
        help_text="The notification the player is sent, kept as sent: required for an "
        "adjustment (§ 812a.7(a)(9)), optional for a void.",
    )


class DecisionIn(StrictInput):
    reason = GivenText(required=False, help_text="Why: required to reject, optional to approve.")
