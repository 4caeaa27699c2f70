"""Game records in the admin: look only. Money moves through the game services alone."""

from django.contrib import admin

from portal.core.admin import LookOnlyAdmin, LookOnlyInline
from portal.game.models import Bet, LedgerEntry, Round, Wallet


@admin.register(Wallet)
class WalletAdmin(LookOnlyAdmin):
    list_display = ("player", "balance", "rounds_played", "updated_at")
    list_select_related = ("player",)
    search_fields = ("player__username",)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(LookOnlyAdmin):
    list_display = ("pk", "wallet", "kind", "amount", "balance_after", "round", "created_at")
    list_filter = ("kind",)
    list_select_related = ("wallet__player",)


class BetInline(LookOnlyInline):
    model = Bet


@admin.register(Round)
class RoundAdmin(LookOnlyAdmin):
    list_display = (
        "pk",
        "player",
        "offering",
        "outcome",
        "total_staked",
        "total_returned",
        "ended_at",
    )
    list_filter = ("offering",)
    list_select_related = ("player", "offering")
    search_fields = ("player__username", "idempotency_key", "hash")
    inlines = [BetInline]


@admin.register(Bet)
class BetAdmin(LookOnlyAdmin):
    list_display = ("round", "position", "spot", "stake", "returned")
