"""BENCH/TEST DATA ONLY: a large approvals history, so the expiry report can be timed at scale.

Writes with ``bulk_create``, bypassing the compliance services for speed: no audit events,
no availability log, no artwork, no four-eyes or date checks beyond the database's own
constraints (one approved version per series, expiry after the effective date and never
after the sunset). Holders and users go through their services. Optional rounds are fake
game records: not drawn, without bets or ledger entries, in no wallet's hash chain.
Never run it on a database whose records matter: like every generator, it is a command of
the demo app, installed only where JINZI_DEMO=1 (never in production).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

import jinzi
import portal
from portal.access.roles import Role
from portal.accounts.services import holder_create, staff_user_create
from portal.compliance.models import SUNSET, ListedGame, Offering, OfferingStatus, RecordStatus
from portal.core.hashing import GENESIS_HASH
from portal.core.padates import day_starts, pa_today
from portal.game.models import Round
from portal.reports.expiry.world import KINDS

S = RecordStatus
EFFECTIVE = datetime.date(2025, 7, 1)
BATCH = 500


def _content(kind: str, j: int) -> dict:
    if kind == "layout":
        return {"title": f"Bench layout {j}", "wheel_order": list(jinzi.STANDARD_ORDER)}
    if kind == "paytable":
        return {"name": f"Bench paytable {j}", "odds": jinzi.Paytable.minimum().as_dict()}
    return {"title": f"Bench rules {j}"}


def _decide(record, *, j: int, kind: str, current: bool, officer, manager, today) -> None:
    """The offering's version (``current``) is approved, expired, lapsed-but-approved or
    withdrawn by turns; earlier versions are superseded."""
    decided_at = day_starts(EFFECTIVE) - datetime.timedelta(days=30 - record.version)
    expiry = min(SUNSET, today + datetime.timedelta(days=(j * 37) % 400 + 1))
    status = S.APPROVED if current else S.SUPERSEDED
    if current and kind != "paytable":  # paytables carry no dates
        if j % 13 == 0:
            status, expiry = S.EXPIRED, today - datetime.timedelta(days=10)
        elif j % 11 == 0:  # lapsed, the expiry job not yet run: the report flags it
            expiry = today - datetime.timedelta(days=3)
        elif j % 17 == 0 and kind == "layout":
            status = S.WITHDRAWN
    record.status = status
    record.submitted_by, record.submitted_at = manager, decided_at - datetime.timedelta(days=1)
    record.decided_by, record.decided_at = officer, decided_at
    if kind != "paytable":
        record.effective_date, record.expiry_date = EFFECTIVE, expiry
    if kind == "layout":
        record.reference_number = f"BGO-BENCH-{j}-{record.version}"


def _open(record, *, kind: str, manager, today) -> None:
    """An amendment left open: a layout submitted past its review date, or a draft (a
    rules draft whose expiry date has passed, so it can no longer be approved)."""
    if kind == "layout":
        record.status = S.SUBMITTED
        record.submitted_by = manager
        record.submitted_at = day_starts(today - datetime.timedelta(days=20))
        record.review_due = today - datetime.timedelta(days=5)
    elif kind == "rules_submission":
        record.effective_date, record.expiry_date = EFFECTIVE, today - datetime.timedelta(days=1)


def _people(tag: str, holders: int):
    password = secrets.token_urlsafe(16)
    officer = staff_user_create(
        actor=None, username=f"bench-officer-{tag}", password=password, role=Role.COMPLIANCE
    )
    owners = []
    for i in range(1, holders + 1):
        holder = holder_create(
            actor=None, name=f"Bench holder {tag}-{i}", licence_number=f"BENCH-{tag}-{i}"
        )
        manager = staff_user_create(
            actor=None,
            username=f"bench-manager-{tag}-{i}",
            password=password,
            role=Role.MANAGER,
            holder=holder,
        )
        owners.append((holder, manager))
    return officer, owners


def _rounds(tag: str, count: int, tables: list[Offering], now) -> int:
    """Fake rounds on live tables over the last 30 days (inside every approval)."""
    if not count or not tables:
        return 0
    player = staff_user_create(
        actor=None,
        username=f"bench-player-{tag}",
        password=secrets.token_urlsafe(16),
        role=Role.PLAYER,
    )
    odds = jinzi.Paytable.minimum().as_dict()
    prev, batch = GENESIS_HASH, []
    for i in range(1, count + 1):
        o = tables[i % len(tables)]
        started = now - datetime.timedelta(seconds=(i * 7919) % (30 * 86400) + 60)
        outcome = i % 13
        returned = 2400 if outcome == 3 else (100 if outcome == 0 else 0)
        digest = hashlib.sha256(f"bench-{tag}-{i}".encode()).hexdigest()
        batch.append(
            Round(
                player=player,
                offering=o,
                rules_submission=o.rules_submission,
                rules_version=o.rules_submission.version,
                layout=o.layout,
                layout_version=o.layout.version,
                paytable=o.paytable,
                paytable_version=o.paytable.version,
                paytable_odds=odds,
                wheel_order=list(jinzi.STANDARD_ORDER),
                game_name=jinzi.GAME_NAME,
                software_version=jinzi.__version__,
                portal_version=portal.__version__,
                idempotency_key=f"bench-{i}",
                request_fingerprint=digest,
                started_at=started,
                bets_closed_at=started + datetime.timedelta(seconds=1),
                ended_at=started + datetime.timedelta(seconds=2),
                rng_raw=outcome,
                rng_method="bench data: not drawn",
                outcome=outcome,
                total_staked=200,
                total_returned=returned,
                balance_before=1_000_000,
                balance_after=1_000_000 - 200 + returned,
                sequence=i,
                prev_hash=prev,
                hash=digest,
            )
        )
        prev = digest
        if len(batch) == BATCH * 4:
            Round.objects.bulk_create(batch)
            batch = []
    Round.objects.bulk_create(batch)
    return count


@transaction.atomic
def generate(
    *, offerings: int = 1000, versions: int = 10_000, holders: int = 4, rounds: int = 0
) -> dict[str, int]:
    """Create the bench data; returns how many of each it made."""
    if offerings < 1 or holders < 1 or versions < 3 * offerings:
        raise CommandError("need at least one offering and holder, and 3 versions an offering")
    today, now, tag = pa_today(), timezone.now(), uuid.uuid4().hex[:6]
    officer, owners = _people(tag, holders)
    series_count = 3 * offerings
    extra, spare = divmod(versions - series_count, series_count)
    built = {kind: [] for kind in KINDS}
    current = {}
    s = 0
    for j in range(offerings):
        holder, manager = owners[j % holders]
        for kind, model in KINDS.items():
            n = 1 + extra + (s < spare)
            s += 1
            amended = n >= 2 and j % 10 == 0  # the last version is an open amendment
            series = uuid.uuid4()
            for v in range(1, n + 1):
                record = model(holder=holder, series=series, version=v, created_by=manager)
                for field, value in _content(kind, j).items():
                    setattr(record, field, value)
                if amended and v == n:
                    _open(record, kind=kind, manager=manager, today=today)
                else:
                    is_current = v == (n - 1 if amended else n)
                    _decide(
                        record,
                        j=j,
                        kind=kind,
                        current=is_current,
                        officer=officer,
                        manager=manager,
                        today=today,
                    )
                    if is_current:
                        current[j, kind] = record
                built[kind].append((j, record))
    for kind, model in KINDS.items():
        model.objects.bulk_create([record for _, record in built[kind]], batch_size=BATCH)
    ListedGame.objects.bulk_create(
        [
            ListedGame(
                submission=rules,
                layout=current[j, "layout"],
                paytable=current[j, "paytable"],
                chip_unit=100,
                min_wager=100,
                max_wager=50_000,
                max_round_stake=200_000,
            )
            for j, rules in built["rules_submission"]
        ],
        batch_size=BATCH,
    )
    tables = []
    for j in range(offerings):
        holder, manager = owners[j % holders]
        tables.append(
            Offering(
                holder=holder,
                name=f"Bench table {tag}-{j}",
                rules_submission=current[j, "rules_submission"],
                layout=current[j, "layout"],
                paytable=current[j, "paytable"],
                status=OfferingStatus.RETIRED if j % 19 == 0 else OfferingStatus.ACTIVE,
                created_by=manager,
            )
        )
    Offering.objects.bulk_create(tables, batch_size=BATCH)
    live = [o for j, o in enumerate(tables) if j % 19 and j % 17 and j % 13 and j % 11]
    return {
        "holders": holders,
        "offerings": offerings,
        "versions": sum(len(records) for records in built.values()),
        "rounds": _rounds(tag, rounds, live, now),
    }


class Command(BaseCommand):
    help = (
        "BENCH/TEST DATA ONLY, never on a database whose records matter: creates N offerings "
        "and M layout, paytable and rules submission versions across a few certificate "
        "holders with bulk_create, bypassing the compliance services (no audit events, no "
        "availability log, no four-eyes), and optionally R fake rounds, so the expiry report "
        "can be timed at scale."
    )

    def add_arguments(self, parser):
        parser.add_argument("--offerings", type=int, default=1000)
        parser.add_argument("--versions", type=int, default=10_000)
        parser.add_argument("--holders", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=0)

    def handle(self, *args, **options):
        made = generate(
            offerings=options["offerings"],
            versions=options["versions"],
            holders=options["holders"],
            rounds=options["rounds"],
        )
        self.stdout.write("Bench data: " + ", ".join(f"{k} {v:,}" for k, v in made.items()))
