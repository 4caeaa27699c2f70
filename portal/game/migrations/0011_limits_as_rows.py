"""The player's limits (§ 814a.2) become rows of their own, ``AccountLimit``, from the JSON the
account kept them in: ``limits`` ({"deposit_day": 5000, …}: those in force) and
``pending_limits`` ({"loss_week": {"value": 20000 or null, "from": "<ISO instant>"}}: the
raises waiting for the player's confirmation). Nothing is lost: every limit in force becomes
a row in force with its amount, and every raise waiting a row waiting until its "from"
instant, with its amount or none (a raise to no limit at all). The next migration removes
the JSON fields.

When a limit came into force was never stored beside it, so each row's ``in_force_from`` is
found in the audit trail (the historical ``AuditEvent``): the account's ``account.limit``
events in order, and the one whose ``after.limits`` first shows the current value, after
the last that showed another or none, is when it took effect. Where no event shows it (a
limit set before the trail recorded limits, or a trail that does not reach it), it is the
account's ``updated_at``: its last change, no earlier than the limit's.

A value the rows cannot hold (a kind not among the eight, an amount that is not a whole
number from 1 to its kind's maximum, a raise without its instant) stops the upgrade, naming
the account and the limit: the table's constraints now hold these rules, and nothing is
dropped quietly.

Backwards, the JSON is rebuilt from the rows: the amounts in force by kind, and each raise as
{"value", "from": its instant in ISO 8601, UTC}; ``in_force_from``, which the JSON never
held, is let go.

A migration imports no code of the portal's apps: the kinds and maximums are written as
they are.
"""

import datetime
from collections import defaultdict

import django.db.models.deletion
from django.db import migrations, models

KINDS = (
    "deposit_day",
    "deposit_week",
    "deposit_month",
    "loss_day",
    "loss_week",
    "loss_month",
    "wager",
    "time_day",
)
MAX_LIMIT, MAX_MINUTES = 100_000_000, 24 * 60
LIMIT_ACTION, ACCOUNT_OBJECT = "account.limit", "player_account"


def in_force_since(events, kind: str, value: int) -> datetime.datetime | None:
    """When ``value`` became the ``kind`` limit in force: the first of the last run of the
    account's ``account.limit`` events, (occurred_at, after) in sequence order, whose
    ``after.limits`` shows it; None when the newest event does not."""
    since = None
    for occurred_at, after in events:
        shown = ((after or {}).get("limits") or {}).get(kind)
        since = (since or occurred_at) if shown == value else None
    return since


def _checked(account_id: int, kind: str, value, *, waiting: bool) -> int | None:
    maximum = MAX_MINUTES if kind == "time_day" else MAX_LIMIT
    if kind in KINDS and (
        (value is None and waiting) or (type(value) is int and 1 <= value <= maximum)
    ):
        return value
    raise RuntimeError(
        f"account #{account_id}: its {'raise' if waiting else 'limit'} {kind!r} of {value!r} "
        f"is not one § 814a.2 allows (a kind among {', '.join(KINDS)}; a whole number from "
        f"1 to {maximum}); correct it before upgrading"
    )


def _instant(account_id: int, kind: str, waiting) -> datetime.datetime:
    try:
        instant = datetime.datetime.fromisoformat(waiting["from"])
    except (TypeError, KeyError, ValueError):
        instant = None
    if instant is None or instant.tzinfo is None:
        raise RuntimeError(
            f"account #{account_id}: its raise {kind!r} has no instant with a zone to wait "
            f"until ({waiting!r}); correct it before upgrading"
        )
    return instant


def limits_to_rows(apps, schema_editor):
    alias = schema_editor.connection.alias
    GamingAccount = apps.get_model("game", "GamingAccount")
    AccountLimit = apps.get_model("game", "AccountLimit")
    AuditEvent = apps.get_model("audit", "AuditEvent")
    accounts = GamingAccount.objects.using(alias).order_by("pk")
    rows = []
    for account in accounts.only("pk", "limits", "pending_limits", "updated_at").iterator(
        chunk_size=500
    ):
        limits, pending = account.limits or {}, account.pending_limits or {}
        events = []
        if limits:
            events = AuditEvent.objects.using(alias).filter(
                action=LIMIT_ACTION, object_type=ACCOUNT_OBJECT, object_id=str(account.pk)
            )
            events = list(events.order_by("sequence").values_list("occurred_at", "after"))
        for kind, value in limits.items():
            rows.append(
                AccountLimit(
                    account_id=account.pk,
                    kind=kind,
                    amount=_checked(account.pk, kind, value, waiting=False),
                    in_force_from=in_force_since(events, kind, value) or account.updated_at,
                )
            )
        for kind, waiting in pending.items():
            value = waiting.get("value") if isinstance(waiting, dict) else waiting
            rows.append(
                AccountLimit(
                    account_id=account.pk,
                    kind=kind,
                    amount=_checked(account.pk, kind, value, waiting=True),
                    pending_until=_instant(account.pk, kind, waiting),
                )
            )
    AccountLimit.objects.using(alias).bulk_create(rows, batch_size=500)


def rows_to_limits(apps, schema_editor):
    alias = schema_editor.connection.alias
    GamingAccount = apps.get_model("game", "GamingAccount")
    AccountLimit = apps.get_model("game", "AccountLimit")
    limits, pending = defaultdict(dict), defaultdict(dict)
    rows = AccountLimit.objects.using(alias).order_by("account_id", "kind")
    for account_id, kind, amount, until in rows.values_list(
        "account_id", "kind", "amount", "pending_until"
    ):
        if until is None:
            limits[account_id][kind] = amount
        else:
            instant = until.astimezone(datetime.UTC).isoformat()
            pending[account_id][kind] = {"value": amount, "from": instant}
    for account_id in sorted(limits.keys() | pending.keys()):
        # update(), not save(): the account's updated_at stays as it was.
        GamingAccount.objects.using(alias).filter(pk=account_id).update(
            limits=limits[account_id], pending_limits=pending[account_id]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_chain_head"),
        ("game", "0010_round_corrections"),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountLimit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("deposit_day", "daily deposit limit"),
                            ("deposit_week", "weekly deposit limit"),
                            ("deposit_month", "monthly deposit limit"),
                            ("loss_day", "daily spend limit"),
                            ("loss_week", "weekly spend limit"),
                            ("loss_month", "monthly spend limit"),
                            ("wager", "largest single wager"),
                            ("time_day", "daily time limit"),
                        ],
                        max_length=16,
                    ),
                ),
                (
                    "amount",
                    models.BigIntegerField(
                        blank=True,
                        help_text="Cents, or minutes for the daily time limit; blank only on a raise to no limit at all.",
                        null=True,
                    ),
                ),
                (
                    "in_force_from",
                    models.DateTimeField(
                        blank=True,
                        help_text="The instant it took effect; blank while it waits.",
                        null=True,
                    ),
                ),
                (
                    "pending_until",
                    models.DateTimeField(
                        blank=True,
                        help_text="A raise waiting: the end of the period it was asked in, from which the player may confirm it. Blank on a limit in force.",
                        null=True,
                    ),
                ),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="limit_rows",
                        to="game.gamingaccount",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", list(KINDS))),
                        name="limit_kind_known",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("amount__isnull", True), ("amount__gt", 0), _connector="OR"
                        ),
                        name="limit_amount_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("amount__isnull", True),
                            models.Q(("amount__lte", MAX_MINUTES), ("kind", "time_day")),
                            models.Q(
                                models.Q(("kind", "time_day"), _negated=True),
                                ("amount__lte", MAX_LIMIT),
                            ),
                            _connector="OR",
                        ),
                        name="limit_amount_within_maximum",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("pending_until__isnull", False),
                            ("amount__isnull", False),
                            _connector="OR",
                        ),
                        name="limit_in_force_has_an_amount",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("in_force_from__isnull", False), ("pending_until__isnull", True)
                            ),
                            models.Q(
                                ("in_force_from__isnull", True), ("pending_until__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="limit_in_force_or_waiting",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("pending_until__isnull", True)),
                        fields=("account", "kind"),
                        name="one_limit_in_force_per_kind",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("pending_until__isnull", False)),
                        fields=("account", "kind"),
                        name="one_raise_waiting_per_kind",
                    ),
                ],
            },
        ),
        migrations.RunPython(limits_to_rows, rows_to_limits),
    ]
