"""The audit report's detail: one row per bet of the period, streamed (CSV, XLSX and
Parquet only). Each row carries its round's state after the voids and adjustments decided
before the report's cutoff, in the words the round lists use (``STATE_WORDS``): "Complete"
as settled, "Void" (§ 617a.6: its bets listed as recorded, counted apart from play,
reading:voids-and-adjustments; a void outweighs an adjustment) or "Adjusted"
(§ 812a.7(a)(9)).

Millions of rows never sit in memory: the rows are made as the writer asks for them, each
time a file is written. ``detail_rows`` returns them as ``DetailRows``: iterated, they come
from the same two cursors the reference pass walks (``round_cursors``), each bet's house
edge that of its spot at its stake, as paid (returns rounded up, reading:round-up), worked
out once per distinct odds, spot and stake of the file. That is the reference, and the
route on SQLite. On PostgreSQL the CSV and Parquet writers take the faster routes
``DetailRows`` offers (``write_csv``, ``record_batches``): the same rows made by the database
and streamed by COPY (``reading.detail_copy``), which fall back to the reference where they
cannot promise the same values.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

import jinzi
from portal.core.player_refs import player_ref
from portal.game.corrections.presenters import STATE_WORDS
from portal.reports.audit_report.figures.spots import Edges
from portal.reports.audit_report.reading import detail_copy
from portal.reports.audit_report.reading.columns import (
    DETAIL_BET_COLUMNS,
    DETAIL_ROUND_COLUMNS,
    names,
)
from portal.reports.audit_report.reading.round_cursors import rounds_with_bets
from portal.reports.audit_report.scope import Scope
from portal.reports.document import column

_ROUND_NAMES = names(DETAIL_ROUND_COLUMNS)

COLUMNS = [
    column("round", "Round id", "integer"),
    column("sequence", "Player's round", "integer"),
    column("player", "Player"),
    column("holder", "Certificate holder"),
    column("offering", "Offering"),
    column("rules", "Rules submission (id v)"),
    column("layout", "Layout (id v)"),
    column("paytable", "Paytable (id v)"),
    column("odds", "Odds (to 1)"),
    column("started", "Started", "datetime"),
    column("bets_closed", "Bets closed", "datetime"),
    column("ended", "Ended", "datetime"),
    column("session", "Session"),
    column("software", "Software"),
    column("rng_raw", "RNG raw value", "integer"),
    column("rng_method", "RNG method"),
    column("outcome", "Outcome", "integer"),
    column("colour", "Colour"),
    column("spot", "Spot"),
    column("stake", "Stake", "money"),
    column("returned", "Returned", "money"),
    column("win", "Win (stake − returned)", "money"),
    column("edge", "House edge", "percent"),
    column("balance_before", "Balance before", "money"),
    column("balance_after", "Balance after", "money"),
    column("hash", "Round hash"),
    column("state", "Round state"),
]


class DetailRows:
    """The detail's rows of ``scope``: iterated, lists in ``COLUMNS`` order (the reference
    path); nothing is read before a writer asks."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def __iter__(self) -> Iterator[list]:
        return _rows(self.scope)

    def write_csv(self, out: BinaryIO) -> bool:
        """The rows as ``write_csv`` writes them, straight to ``out`` from a COPY; False
        (nothing written) where the writer must iterate instead."""
        return detail_copy.copy_csv(self.scope, out)

    def record_batches(self, schema, rows: int) -> Iterator | None:
        """The rows as Arrow record batches of ``schema`` (a field per column, in order),
        ``rows`` rows each, typed from a COPY; None where the writer must iterate."""
        return detail_copy.record_batches(self.scope, schema, rows)


def detail_rows(scope: Scope) -> DetailRows:
    """The rows, as lists in ``COLUMNS`` order, with the faster routes of PostgreSQL."""
    return DetailRows(scope)


def _rows(scope: Scope) -> Iterator[list]:
    colours: dict[tuple, str] = {}
    edges = Edges()
    for row, bets in rounds_with_bets(scope, DETAIL_ROUND_COLUMNS, DETAIL_BET_COLUMNS):
        r = dict(zip(_ROUND_NAMES, row, strict=True))
        holder_pk, offering = scope.offerings[r["offering_id"]]
        wheel_key = (tuple(r["wheel_order"]), r["first_colour"], r["outcome"])
        if wheel_key not in colours:
            wheel = jinzi.Wheel.of(r["wheel_order"], r["first_colour"])
            colours[wheel_key] = wheel.color(r["outcome"]).value
        head = [
            r["id"],
            r["sequence"],
            player_ref(r["player_id"]),
            scope.holders[holder_pk].name,
            offering,
            f"{r['rules_submission_id']} v{r['rules_version']}",
            f"{r['layout_id']} v{r['layout_version']}",
            f"{r['paytable_id']} v{r['paytable_version']}",
        ]
        middle = [
            r["started_at"].isoformat(),
            r["bets_closed_at"].isoformat() if r["bets_closed_at"] else None,
            r["ended_at"].isoformat(),
            r["session_id"],
            r["software_identity"],
            r["rng_raw"],
            r["rng_method"],
            r["outcome"],
            colours[wheel_key],
        ]
        tail = [r["balance_before"], r["balance_after"], r["hash"], round_state(scope, r["id"])]
        odds = r["paytable_odds"]
        for _, _, spot, kind, stake, returned in bets:
            yield [
                *head,
                str(odds.get(kind, "")),
                *middle,
                spot,
                stake,
                returned,
                stake - returned,
                _edge(edges, odds, spot, stake),
                *tail,
            ]


def round_state(scope: Scope, round_id: int) -> str:
    """The round's state as of the report's cutoff, in the round lists' words: § 617a.6, a
    void round's bets are listed as recorded and marked void; § 812a.7(a)(9), an adjusted
    round's are marked adjusted; any other round is complete, as settled."""
    if round_id in scope.voided:
        return STATE_WORDS["void"]
    return STATE_WORDS["adjusted" if round_id in scope.adjusted else "complete"]


def _edge(edges: Edges, odds: dict, spot: str, stake: int) -> float | None:
    try:
        return float(edges.of(odds, spot, stake))
    except (jinzi.JinziError, KeyError):
        return None  # the re-settlement lists the round
