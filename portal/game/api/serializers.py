"""What the game API reads (a round's bets, a top-up) and answers (a round, the wallet).

The bodies are read strictly (no unknown field, none missing), but each value is handed to
the services as given: whether a wager, a stake or a table is legal is theirs and
``jinzi``'s to say, citing § 617b.8, so their messages are the ones a client sees.
Amounts are minor units (cents); instants are UTC, as the rounds are kept.
"""

from __future__ import annotations

import datetime

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

import jinzi
from portal.api.fields import AsGiven, StrictInput
from portal.game import presenters
from portal.game.models import Round, RoundStatus


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


class RoundOut(serializers.Serializer):
    """A settled round as § 810a.11 asks it kept (amounts in minor units, times UTC)."""

    id = serializers.IntegerField()
    offering = serializers.IntegerField()
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
    balance_before = serializers.IntegerField()
    balance_after = serializers.IntegerField()
    sequence = serializers.IntegerField()
    hash = serializers.CharField()

    def to_representation(self, instance) -> dict:
        """A round as ``presenters.round_data`` shows it (the game page and the replay show
        the same data), read through the fields above: a key they do not declare is not
        sent, and one they declare must be there. Given a ``Round``, its bets are its own;
        a caller holding them in order passes ``round_data(round, bets)`` instead."""
        if isinstance(instance, Round):
            instance = presenters.round_data(instance)
        return super().to_representation(instance)


class LedgerEntryOut(serializers.Serializer):
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


# One wallet, not a list of them, though GET /api/wallet/ is the viewset's "list" route.
@extend_schema_serializer(many=False, component_name="Wallet")
class WalletAccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    holder = serializers.IntegerField(source="holder_id")
    holder_name = serializers.CharField(source="holder.name")
    balance = serializers.IntegerField(help_text="Minor units (cents).")
    held = serializers.IntegerField(help_text="Held for pending withdrawals.")
    available = serializers.IntegerField(help_text="What play may use: balance less held.")
    status = serializers.CharField()


class WalletOut(serializers.Serializer):
    balance = serializers.IntegerField(help_text="Minor units (cents), over every account.")
    currency = serializers.CharField()
    accounts = WalletAccountOut(many=True, help_text="One per certificate holder (§ 812a.4).")
    entries = LedgerEntryOut(many=True, help_text="The latest 20, newest first.")
