"""Top-ups made before ``wallet_top_up`` wrote an audit event get one now (§ 811a.7).

``verify_records`` holds every top-up ledger entry to exactly one ``wallet.top_up`` event
naming it. A database from before top-ups were audited has top-up entries no event names;
this appends, in ledger-entry order, the event ``wallet_top_up`` writes for each (actor the
wallet's player, object the wallet, ``top_up_pictures``' before and after), dated now and
saying in its reason that it was recorded at upgrade and when the top-up was made. The
events are chained after the trail's head under the chain lock, and the head moves to the
last. Entries an event already names are left alone: on a fresh database, and on a second
run, it writes nothing.

A migration imports no code of the portal's apps, which keeps changing after it: what it
needs of them is copied here as it was when it was written (the event's hashing above all:
every event this writes is chained with it, so it must stay exactly the audit trail's).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, migrations, transaction
from django.db.models import BigIntegerField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

# As portal.game.services writes them; a migration keeps its own copy of what it writes.
TOP_UP_ACTION = "wallet.top_up"
TOP_UP_KIND = "top_up"
CHUNK = 2_000  # ledger entries read, and events inserted, at a time
# The player's name as the event records it: the username of Django's own user model.
PLAYER_NAME = "wallet__player__username"

# The audit chain as portal.audit writes it: the hashed fields, the hash before the first
# event, the lock every writer of the chain takes on PostgreSQL.
GENESIS_HASH = "0" * 64
HASHED_FIELDS = (
    "sequence",
    "occurred_at",
    "actor_id",
    "actor_username",
    "action",
    "object_type",
    "object_id",
    "object_version",
    "before",
    "after",
    "reason",
    "request_id",
    "prev_hash",
)
CHAIN_LOCK_KEY = 617_0811_7


def _instant_text(value: datetime) -> str:
    """An instant as every hashed record writes it: UTC, ISO 8601, microseconds."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _event_digest(fields: dict[str, Any]) -> str:
    """An audit event's hash: SHA-256 of canonical JSON (sorted keys, no spaces, UTF-8) of
    its hashed fields, the instant as text."""
    payload = {name: fields[name] for name in HASHED_FIELDS}
    payload["occurred_at"] = _instant_text(payload["occurred_at"])
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _lock_chain(connection) -> None:
    """No other writer appends to the chain until the transaction ends: PostgreSQL's
    transaction-scoped advisory lock; SQLite's IMMEDIATE transaction already holds the
    database's write lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])


def _pictures(entry_id: int, amount: int, balance_after: int) -> tuple[dict, dict]:
    """``top_up_pictures``: the balance the top-up found, and the entry it wrote."""
    before = {"balance": balance_after - amount}
    after = {"ledger_entry": entry_id, "amount": amount, "balance_after": balance_after}
    return before, after


def _reason(entry_id: int, made_at) -> str:
    return (
        f"Recorded at upgrade: top-up ledger entry #{entry_id} was made at "
        f"{_instant_text(made_at)}, before top-ups were audited (§ 811a.7)"
    )


def record_unaudited_top_ups(apps, schema_editor) -> None:
    AuditEvent = apps.get_model("audit", "AuditEvent")
    AuditHead = apps.get_model("audit", "AuditHead")
    LedgerEntry = apps.get_model("game", "LedgerEntry")
    using = schema_editor.connection.alias if schema_editor is not None else DEFAULT_DB_ALIAS
    with transaction.atomic(using=using):
        _lock_chain(connections[using])
        named = set(
            AuditEvent.objects.using(using)
            .filter(action=TOP_UP_ACTION)
            .annotate(entry=Cast(KT("after__ledger_entry"), BigIntegerField()))
            .exclude(entry=None)
            .values_list("entry", flat=True)
            .iterator(chunk_size=CHUNK)
        )
        last = (
            AuditEvent.objects.using(using)
            .order_by("-sequence")
            .values_list("sequence", "hash")
            .first()
        )
        sequence, prev_hash = last or (0, GENESIS_HASH)
        now = timezone.now()
        entries = (
            LedgerEntry.objects.using(using)
            .filter(kind=TOP_UP_KIND)
            .order_by("pk")
            .values_list(
                "pk",
                "wallet_id",
                "wallet__player_id",
                PLAYER_NAME,
                "amount",
                "balance_after",
                "created_at",
            )
        )
        written, after_pk = 0, 0
        while page := list(entries.filter(pk__gt=after_pk)[:CHUNK]):
            after_pk = page[-1][0]
            events = []
            for entry_id, wallet_id, player_id, player_name, amount, balance, made_at in page:
                if entry_id in named:
                    continue
                before, after = _pictures(entry_id, amount, balance)
                sequence += 1
                fields = {
                    "sequence": sequence,
                    "occurred_at": now,
                    "actor_id": player_id,
                    "actor_username": player_name,
                    "action": TOP_UP_ACTION,
                    "object_type": "wallet",
                    "object_id": str(wallet_id),
                    "object_version": None,
                    "before": before,
                    "after": after,
                    "reason": _reason(entry_id, made_at),
                    "request_id": "",
                    "prev_hash": prev_hash,
                }
                prev_hash = _event_digest(fields)
                events.append(AuditEvent(hash=prev_hash, **fields))
            AuditEvent.objects.using(using).bulk_create(events)
            written += len(events)
        if not written:
            return
        head = {"sequence": sequence, "hash": prev_hash}
        if not AuditHead.objects.using(using).filter(pk=1).update(**head):
            AuditHead.objects.using(using).create(pk=1, **head)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_chain_head"),
        ("game", "0005_period_indexes"),
    ]

    operations = [
        migrations.RunPython(record_unaudited_top_ups, migrations.RunPython.noop, elidable=False),
    ]
