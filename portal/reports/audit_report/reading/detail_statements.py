"""The audit report's detail on PostgreSQL, its fixed SQL: the rows the database makes and
COPY streams (``detail_copy`` binds the values and reads them), for the CSV file (the very
bytes the Python path makes, ``CSV_SQL``) and for the Parquet file (plain typed values,
``TYPED_SQL``).

Each round's own cells are worked out once (the rounds in id order behind ``OFFSET 0``),
its bets read in order per round (a ``LATERAL`` index scan), so the rows come out in the
order they are sorted by with no sort of the whole. Dates are written as
``datetime.isoformat()`` writes a UTC time, text that a spreadsheet would run as a formula
gets ``safe_cell``'s quote, a blank is a NULL (COPY writes an empty string as ``""``, the
csv module as nothing). A stake's edge where fractional odds make its return round up is
added up here from the lookups ``detail_copy`` binds, exactly as ``jinzi.settle`` rounds it
(a ceiling division), and 100 × that edge rounded to 3 places half-even in whole numbers.
The statements are fixed; their values are bound by psycopg's adapters
(``copy_out.bound``).
"""

from __future__ import annotations

from portal.core.player_refs import PLAYER_PREFIX
from portal.reports.audit_report.reading.columns import DETAIL_BET_COLUMNS, DETAIL_ROUND_COLUMNS
from portal.reports.audit_report.reading.statements import BETS, ROUNDS

# The scope's rounds, as ``Scope.q`` picks them: those of the scope's offerings, each
# started within its holder's span of instants (looked up by the offering's place in the
# bound arrays), with an id no higher than the last stored when the report began. The
# outer bounds of every span let the planner use the index on the start and count well.
_PLACE = "array_position({offering_ids}::bigint[], r.offering_id)"
_SCOPE = f"""
    FROM {ROUNDS} r
    WHERE r.offering_id = ANY({{offering_ids}}::bigint[])
        AND r.started_at >= {{earliest}}::timestamptz AND r.started_at < {{latest}}::timestamptz
        AND r.started_at >= ({{offering_firsts}}::timestamptz[])[{_PLACE}]
        AND r.started_at < ({{offering_ends}}::timestamptz[])[{_PLACE}]
        AND r.id <= {{last_round}}
"""

# Each distinct recorded odds, wheel and first colour, with the most a round staked on them.
DISTINCT_SQL = f"""
    SELECT r.paytable_odds::text AS odds, r.wheel_order::text AS wheel,
           r.first_colour AS first_colour, MAX(r.total_staked) AS most_staked
    {_SCOPE}
    GROUP BY r.paytable_odds, r.wheel_order, r.first_colour
"""

# ``datetime.isoformat()`` of a UTC time: microseconds only when there are some.
_ISO = (
    "to_char({0} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE WHEN "
    "to_char({0}, 'US') = '000000' THEN '' ELSE to_char({0}, '.US') END || '+00:00'"
)
_EPOCH_US = "(extract(epoch FROM {0}) * 1000000)::bigint"
_SAFE = "CASE WHEN left({0}, 1) IN ('=', '+', '-', '@') THEN '''' || {0} ELSE NULLIF({0}, '') END"
_WHEEL = "array_position({wheel_keys}::jsonb[], jsonb_build_array(r.first_colour, r.wheel_order))"
_TIMES = ("started_at", "bets_closed_at", "ended_at")


def _rounds(cells: str, wheel: str, names: tuple[str, str]) -> str:
    """The scope's rounds in id order, each with its cells worked out once (``cells``),
    its colour (``wheel``: the bound array it is read from), its holder's and offering's
    names (``names``: the bound arrays), and the place of its odds in ``odds_values``."""
    holder, offering = names
    return f"""
    SELECT r.id, r.balance_before, r.balance_after, {cells},
           ({{{wheel}}}::text[])[({_WHEEL} - 1) * 13 + r.outcome + 1] AS colour,
           ({{{holder}}}::text[])[{_PLACE}] AS holder,
           ({{{offering}}}::text[])[{_PLACE}] AS offering,
           r.id = ANY({{voided}}::bigint[]) AS void,
           r.id = ANY({{adjusted}}::bigint[]) AS adjusted,
           array_position({{odds_values}}::jsonb[], r.paytable_odds) AS odds_id
    {_SCOPE}
    ORDER BY r.id
    OFFSET 0
    """


def _round_cells(instant: str, text: str) -> str:
    """A round's own cells: its instants through ``instant``, its free texts through
    ``text`` (each a format with one place for the column)."""
    return ", ".join(
        [
            "r.sequence",
            f"'{PLAYER_PREFIX}' || r.player_id AS player",  # as ``player_ref`` names a player
            "r.rules_submission_id || ' v' || r.rules_version AS rules",
            "r.layout_id || ' v' || r.layout_version AS layout",
            "r.paytable_id || ' v' || r.paytable_version AS paytable",
            *(f"{instant.format(f'r.{name}')} AS {name}" for name in _TIMES),
            f"{text.format('r.session_id')} AS session_id",
            f"{text.format('r.software_identity')} AS software_identity",
            "r.rng_raw",
            f"{text.format('r.rng_method')} AS rng_method",
            "r.outcome",
            f"{text.format('r.hash')} AS hash",
        ]
    )


_CSV_ROUND_CELLS = _round_cells(_ISO, _SAFE)
_TYPED_ROUND_CELLS = _round_cells(_EPOCH_US, "{}")


def _bets(cells: str) -> str:
    """The bets of each round, in order (a ``LATERAL`` index scan), each with ``cells``:
    the rows in round and position order with no sort of the whole."""
    return f"""
    CROSS JOIN LATERAL (
        SELECT b.position, {cells}
        FROM {BETS} b
        WHERE b.round_id = r.id
        ORDER BY b.position
        OFFSET 0
    ) b
    ORDER BY r.id, b.position
"""


# The bets' cells, each with its places in the lookups: its kind's odds cell at
# (odds − 1) × kinds + kind, its spot's edge at (odds − 1) × 52 + spot.
_BETS = _bets(
    """b.spot, b.stake, b.returned,
               (r.odds_id - 1) * {kind_count} + array_position({kind_kinds}::text[], b.kind)
                   AS kind_at,
               (r.odds_id - 1) * 52 + ({spot_places}::jsonb ->> b.spot)::int AS spot_at"""
)


def _spot_at(name: str, kind: str = "bigint") -> str:
    """The bet's spot's value in the lookup ``name``."""
    return f"({{spot_{name}}}::{kind}[])[b.spot_at]"


# An even stake on a spot whose returns round up: what it is paid over the 13 outcomes.
_PAID = " + ".join(
    f"{_spot_at(f'c{n}')} * ((b.stake * {_spot_at(f'n{n}')} + {_spot_at(f'd{n}')} - 1)"
    f" / {_spot_at(f'd{n}')})"
    for n in (1, 2)
).join("()")
_ROUNDED = f"{_spot_at('rounds', 'bool')} AND b.stake >= 2 AND b.stake % 2 = 0"
# 13 × stake × edge = 13 × stake − paid; its percent × 1,000, half-even, in integers.
_EDGE_X13S = f"(13 * b.stake - {_PAID})"
_SCALED = f"(abs({_EDGE_X13S}) * 100000)"
_MILLI = (
    f"({_SCALED} / (13 * b.stake) + CASE"
    f" WHEN 2 * ({_SCALED} % (13 * b.stake)) > 13 * b.stake THEN 1"
    f" WHEN 2 * ({_SCALED} % (13 * b.stake)) < 13 * b.stake THEN 0"
    f" ELSE ({_SCALED} / (13 * b.stake)) % 2 END)"
)
_PERCENT = (
    f"CASE WHEN {_spot_at('percents', 'text')} IS NULL THEN NULL WHEN {_ROUNDED} THEN"
    f" CASE WHEN {_EDGE_X13S} < 0 THEN '-' ELSE '' END"
    f" || ({_MILLI} / 1000)::text || '.' || lpad(({_MILLI} % 1000)::text, 3, '0')"
    f" ELSE {_spot_at('percents', 'text')} END"
)
_KIND = "({{kind_{0}}}::text[])[b.kind_at]"
# The round's state, in the words ``sections.detail.round_state`` gives it (bound): a void
# outweighs an adjustment.
_STATE = (
    "CASE WHEN r.void THEN {state_void} WHEN r.adjusted THEN {state_adjusted}"
    " ELSE {state_complete} END"
)

CSV_SQL = f"""
    COPY (
    SELECT r.id, r.sequence, r.player, r.holder, r.offering, r.rules, r.layout, r.paytable,
           {_KIND.format("cells")}, r.started_at, r.bets_closed_at, r.ended_at,
           r.session_id, r.software_identity, r.rng_raw, r.rng_method,
           r.outcome, r.colour, {_SAFE.format("b.spot")}, b.stake, b.returned,
           b.stake - b.returned, {_PERCENT}, r.balance_before, r.balance_after, r.hash,
           {_STATE}
    FROM ({_rounds(_CSV_ROUND_CELLS, "wheel_cells", ("holder_cells", "offering_cells"))}) r
    {_BETS}
    ) TO STDOUT (FORMAT csv)
"""

# The same rows' recorded values as they are (the columns the detail's reference rows read,
# ``DETAIL_ROUND_COLUMNS`` and the bets' own values of ``DETAIL_BET_COLUMNS``), nothing
# worked out: the yardstick a bench holds the CSV route to.
_BET_VALUES = DETAIL_BET_COLUMNS[2:]  # after the bet's round id and position
BARE_SQL = f"""
    COPY (
    SELECT {", ".join(f"r.{name}" for name, _ in DETAIL_ROUND_COLUMNS)},
           {", ".join(f"b.{name}" for name, _ in _BET_VALUES)}
    FROM (SELECT r.* {_SCOPE} ORDER BY r.id OFFSET 0) r
    {_bets(", ".join(f"b.{name}" for name, _ in _BET_VALUES))}
    ) TO STDOUT (FORMAT csv)
"""

# The Parquet's columns, plain, in the detail's order: text as it is, times in microseconds
# since the epoch, the edge as an exact fraction (the columns ``EDGE_PARTS``) that the
# reader divides.
EDGE_PARTS = ("edge_numerator", "edge_denominator")
TYPED_SQL = f"""
    COPY (
    SELECT r.id, r.sequence, r.player, r.holder, r.offering, r.rules, r.layout, r.paytable,
           COALESCE({_KIND.format("values")}, ''), r.started_at, r.bets_closed_at,
           r.ended_at, r.session_id, r.software_identity, r.rng_raw, r.rng_method, r.outcome,
           r.colour, b.spot,
           b.stake, b.returned, b.stake - b.returned,
           CASE WHEN {_spot_at("percents", "text")} IS NULL THEN NULL
                WHEN {_ROUNDED} THEN {_EDGE_X13S} ELSE {_spot_at("numerators")} END,
           CASE WHEN {_spot_at("percents", "text")} IS NULL THEN NULL
                WHEN {_ROUNDED} THEN 13 * b.stake ELSE {_spot_at("denominators")} END,
           r.balance_before, r.balance_after, r.hash, {_STATE}
    FROM ({_rounds(_TYPED_ROUND_CELLS, "wheel_colours", ("holder_names", "offering_names"))}) r
    {_BETS}
    ) TO STDOUT (FORMAT csv)
"""
