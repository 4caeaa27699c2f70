"""Game records in the admin: look only. Money moves through the game services alone.

Amounts are stored as integer cents and shown as dollars ($12.50), in the lists and on
each record's page, by the same function as the portal's ``dollars`` filter. The voids and
adjustments of rounds are decided with actions, one per step of their workflow, each
calling its service (four-eyes included) and reporting a refusal as a message.
"""

from django.contrib import admin, messages
from django.template.response import TemplateResponse

from portal.access.workflow import Reason, Step
from portal.compliance.admin import ReasonForm
from portal.compliance.models import Offering
from portal.core.admin import LookOnlyAdmin, LookOnlyInline
from portal.core.errors import DomainError
from portal.core.money import dollars
from portal.game.corrections.services import SERVICES
from portal.game.corrections.workflow import WORKFLOW
from portal.game.models import (
    AccountLimit,
    Bet,
    Deposit,
    GamingAccount,
    LedgerEntry,
    LimitKind,
    Round,
    RoundCorrection,
    Wallet,
    Withdrawal,
)


def _in_dollars(field: str):
    @admin.display(description=field.replace("_", " "), ordering=field)
    def show(self, obj) -> str:
        return dollars(getattr(obj, field))

    show.__name__ = f"{field}_in_dollars"
    return show


class MoneyFields:
    """Shows the model fields named in ``money_fields`` as dollars.

    Each gets a ``<field>_in_dollars`` column, used in ``list_display`` and put in the
    field's place on the record's page.
    """

    money_fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for field in cls.money_fields:
            setattr(cls, f"{field}_in_dollars", _in_dollars(field))
        shown = [f"{field}_in_dollars" for field in cls.money_fields]
        cls.readonly_fields = (
            *cls.readonly_fields,
            *(name for name in shown if name not in cls.readonly_fields),
        )

    def get_fields(self, request, obj=None):
        shown = {f"{field}_in_dollars" for field in self.money_fields}
        fields = [name for name in super().get_fields(request, obj) if name not in shown]
        return [f"{name}_in_dollars" if name in self.money_fields else name for name in fields]


class OfferingListFilter(admin.RelatedFieldListFilter):
    """Offerings by name and holder: two holders may each run a "Table 1"."""

    def field_choices(self, field, request, model_admin):
        offerings = Offering.objects.select_related("holder").order_by("name", "holder__name")
        return [
            (offering.pk, f"{offering.name} ({offering.holder.name})") for offering in offerings
        ]


@admin.register(Wallet)
class WalletAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("balance",)
    list_display = ("player", "balance_in_dollars", "rounds_played", "updated_at")
    list_select_related = ("player",)
    search_fields = ("player__username",)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("amount", "balance_after")
    list_display = (
        "pk",
        "wallet",
        "account",
        "kind",
        "amount_in_dollars",
        "balance_after_in_dollars",
        "round",
        "created_at",
    )
    list_filter = ("kind", "account__holder")
    list_select_related = ("wallet__player", "account__holder")


class BetInline(MoneyFields, LookOnlyInline):
    model = Bet
    money_fields = ("stake", "returned")


@admin.register(Round)
class RoundAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("total_staked", "total_returned", "balance_before", "balance_after")
    list_display = (
        "pk",
        "player",
        "offering",
        "outcome",
        "total_staked_in_dollars",
        "total_returned_in_dollars",
        "ended_at",
    )
    list_filter = (("offering", OfferingListFilter),)
    list_select_related = ("player", "offering")
    search_fields = ("player__username", "idempotency_key", "hash")
    inlines = [BetInline]


@admin.register(Bet)
class BetAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("stake", "returned")
    list_display = ("round", "position", "spot", "stake_in_dollars", "returned_in_dollars")


# The player's accounts with each holder (Chapter 812a): look only, as the game records are;
# money moves through ``portal.game.money.services`` alone, each movement audited.


class AccountLimitInline(LookOnlyInline):
    """The account's limits (§ 814a.2): those in force and the raises waiting, each amount
    in dollars or minutes as the player reads it. Only the player sets them."""

    model = AccountLimit
    fields = ("kind", "amount_shown", "in_force_from", "pending_until")
    readonly_fields = fields

    @admin.display(description="amount")
    def amount_shown(self, obj) -> str:
        return LimitKind(obj.kind).shown(obj.amount)


@admin.register(GamingAccount)
class GamingAccountAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("balance", "held")
    list_display = (
        "pk",
        "player",
        "holder",
        "balance_in_dollars",
        "held_in_dollars",
        "status",
        "paused_until",
        "opened_at",
    )
    list_filter = ("holder", "status")
    list_select_related = ("player", "holder")
    search_fields = ("player__username",)
    inlines = [AccountLimitInline]


@admin.register(Deposit)
class DepositAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("amount",)
    list_display = (
        "pk",
        "account",
        "amount_in_dollars",
        "method",
        "reference",
        "made_by",
        "made_at",
    )
    list_filter = ("account__holder", "method")
    list_select_related = ("account__player", "account__holder", "made_by")
    search_fields = ("account__player__username", "reference")


@admin.register(Withdrawal)
class WithdrawalAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("amount",)
    list_display = (
        "pk",
        "account",
        "amount_in_dollars",
        "status",
        "requested_at",
        "decided_at",
        "decided_by",
        "payout_reference",
    )
    list_filter = ("account__holder", "status")
    list_select_related = ("account__player", "account__holder", "decided_by")
    search_fields = ("account__player__username", "payout_reference")


# Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds: proposed on the
# portal or through the API, decided here by a second person as there.


def _decision_description(step: Step) -> str:
    with_reason = ", with reason" if step.reason is Reason.REQUIRED else ""
    four_eyes = " (four-eyes)" if step.four_eyes else ""
    return f"{step.label}{with_reason}{four_eyes}"


def _decision_action(step: Step):
    """The admin action of one step of the corrections' workflow, on every selected one:
    a reason is asked first (the service says when it is required), then each is decided
    by its service; a refusal is reported and leaves that one as it was."""
    service = SERVICES[step.verb]

    def action(modeladmin, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(
                request,
                "admin/compliance/workflow_action.html",
                {
                    **modeladmin.admin_site.each_context(request),
                    "title": _decision_description(step),
                    "form": form,
                    "records": queryset,
                    "action": request.POST.get("action"),
                    "opts": modeladmin.model._meta,
                },
            )
        for correction in queryset:
            try:
                decided = service(
                    actor=request.user,
                    correction_id=correction.pk,
                    reason=form.cleaned_data["reason"],
                )
            except DomainError as exc:
                modeladmin.message_user(request, f"{correction}: {exc.message}", messages.ERROR)
            else:
                modeladmin.message_user(request, f"{decided}: {step.done}")
        return None

    action.__name__ = f"workflow_{step.verb}"
    return admin.action(description=_decision_description(step))(action)


@admin.register(RoundCorrection)
class RoundCorrectionAdmin(MoneyFields, LookOnlyAdmin):
    money_fields = ("amount", "credited", "debited", "uncollected")
    actions = [_decision_action(step) for step in WORKFLOW.posted_steps]
    list_display = (
        "pk",
        "round",
        "kind",
        "status",
        "amount_in_dollars",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
    )
    list_filter = ("kind", "status")
    list_select_related = ("round", "proposed_by", "decided_by")
