"""What a report run's page says in words: its parameters ("Win threshold $10,000.00",
"As of 1 December 2026") and its figures, read from what the run stored (its parameters and
its JSON document). Nothing here works a figure out again: the document carries the totals,
the band, the flags and the counts; this only words them."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from portal.compliance.models import Offering
from portal.core.money import dollars
from portal.reports.models import ReportRun

ALL_HOLDERS = "all certificate holders"
ALL_OFFERINGS = "all offerings"
PERIOD_DASH = "–"  # an en dash between the first and the last day

# The hold check's flag (``jinzi.hold_check``), as the page says it.
HOLD_VERDICTS = {
    "": "inside the band",
    "ok": "inside the band",
    "review": "outside the band (beyond ± 1.96 SD): flagged for review",
    "exception": "an exception (beyond ± 3.29 SD)",
    "low volume": "low volume (under 1,000 rounds): reported, not judged",
}


def long_date(value: str | datetime.date | None) -> str:
    """``"2026-12-01"`` → ``"1 December 2026"``; text that is not a date is shown as it is."""
    if value in (None, ""):
        return ""
    try:
        day = value if isinstance(value, datetime.date) else datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{day.day} {day:%B %Y}"


def decimal_dollars(cents_text: Any) -> str:
    """A decimal figure in cents ("92.3077") as dollars to the cent ("$0.92")."""
    try:
        cents = Decimal(str(cents_text))
    except InvalidOperation:
        return str(cents_text)
    return dollars(int(cents.quantize(Decimal(1))))


def percent(fraction: float | None, places: int = 2) -> str:
    """A share (0.2688) as a percentage ("26.88%"); "—" when there is none."""
    if fraction is None:
        return "—"
    return f"{fraction * 100:,.{places}f}%"


def offering_names(runs) -> dict[int, str]:
    """The names of the offerings ``runs`` are narrowed to, in one query."""
    wanted = {run.parameters.get("offering") for run in runs if run.parameters}
    wanted.discard(None)
    return dict(Offering.objects.filter(pk__in=wanted).values_list("pk", "name"))


def parameter_lines(run: ReportRun, names: dict[int, str] | None = None) -> list[str]:
    """The run's parameters in words, in a fixed order; ``names``: offering names already
    read (``offering_names``), else the run's offering is looked up."""
    parameters = run.parameters or {}
    lines = []
    if "as_of" in parameters:
        lines.append(f"As of {long_date(parameters['as_of'])}")
    if "day" in parameters:
        lines.append(f"Gaming day {long_date(parameters['day'])}")
    if "start" in parameters or "end" in parameters:
        start, end = long_date(parameters.get("start")), long_date(parameters.get("end"))
        if start == end:
            lines.append(f"Period: {start}")
        else:
            lines.append(f"Period: {start} {PERIOD_DASH} {end}")
    if "holder" in parameters:
        holder = run.holder.name if run.holder_id and run.holder else ALL_HOLDERS
        lines.append(f"Holder: {holder}")
    if "offering" in parameters:
        offering = parameters["offering"]
        if not offering:
            name = None
        elif names is not None:
            name = names.get(offering)
        else:
            name = Offering.objects.filter(pk=offering).values_list("name", flat=True).first()
        lines.append(f"Offering: {name or ALL_OFFERINGS}")
    if parameters.get("win_threshold") is not None:
        lines.append(f"Win threshold {dollars(parameters['win_threshold'])}")
    if parameters.get("submission") is not None:
        lines.append(f"Rules submission {parameters['submission']}")
    known = {"as_of", "day", "start", "end", "holder", "offering", "win_threshold", "submission"}
    for name in sorted(set(parameters) - known):
        lines.append(f"{name.replace('_', ' ').capitalize()}: {parameters[name]}")
    return lines


def band_verdict(totals: dict[str, Any]) -> str:
    """The period's win W against its expected band, in the run page's words (what an email
    about the run says too): "low volume (under 1,000 rounds): reported, not judged; W is
    inside the band (z = 0.808)"."""
    band = totals.get("band") or {}
    flag = totals.get("flag") or ""
    verdict = HOLD_VERDICTS.get(flag, flag)
    if flag == "low volume" and "inside" in band:
        verdict += "; W is " + ("inside" if band["inside"] else "outside") + " the band"
    z = totals.get("z")
    if z is not None:
        verdict += f" (z = {z})"
    return verdict


def run_figures(document: dict[str, Any] | None) -> dict[str, Any] | None:
    """The figures the run's page shows, read from its stored document; None when there is
    no document to read (the run has not succeeded)."""
    if not document:
        return None
    if document.get("report") == "audit" and isinstance(document.get("totals"), dict):
        return _audit_figures(document)
    return {"kind": "counts", "counts": _section_counts(document)}


def _audit_figures(document: dict[str, Any]) -> dict[str, Any]:
    totals = document["totals"]
    band = totals.get("band") or {}
    flag = totals.get("flag") or ""
    rows = [
        ("Rounds", f"{totals['rounds']:,}"),
        ("Bets", f"{totals['bets']:,}"),
        ("Distinct players", f"{totals['players']:,}"),
        ("Handle (H)", dollars(totals["handle"])),
        ("Returned", dollars(totals["returned"])),
        ("Win (W = H − returned)", dollars(totals["win"])),
        ("Hold (W / H)", percent(totals.get("hold"))),
        ("Expected win (E)", decimal_dollars(totals["expected_win"])),
        ("Expected hold (E / H)", percent(totals.get("expected_hold"))),
        ("Standard deviation of W (SD)", decimal_dollars(totals["win_sd"])),
    ]
    if band:
        rows.append(
            (
                f"Expected band (E ± {band['z']} SD)",
                f"{decimal_dollars(band['low'])} to {decimal_dollars(band['high'])}"
                f" (hold {percent(band.get('hold_low'))} to {percent(band.get('hold_high'))})",
            )
        )
    rows.append(("Against the band", band_verdict(totals)))

    flags = []
    if flag in ("review", "exception"):
        flags.append(f"Hold: {HOLD_VERDICTS[flag]}")
    if flag == "low volume":
        flags.append("Hold: low volume, under 1,000 rounds")
    flagged_groups = [g for g in document.get("groups") or [] if g.get("flag")]
    if flagged_groups:
        flags.append(f"Summary rows flagged: {len(flagged_groups):,}")
    if document.get("chi_square_alarm"):
        flags.append(f"Outcomes: chi-square p = {document.get('chi_square_p')}, below 0.01")
    odd = document.get("odd_rng_rounds") or 0
    if odd:
        flags.append(f"Rounds not drawn by the OS CSPRNG: {odd:,}")

    exceptions = _titled_counts(document.get("exceptions"))
    routine = _titled_counts(document.get("routine"))
    resettlement = document.get("resettlement") or {}
    reconciliation = document.get("reconciliation") or {}
    return {
        "kind": "audit",
        "rows": rows,
        "flags": flags,
        "exceptions": exceptions,
        "exception_count": f"{sum(count for _, count in exceptions):,}",
        "routine": routine,
        "routine_count": f"{sum(count for _, count in routine):,}",
        "resettlement": _resettled(resettlement),
        "reconciled": bool(reconciliation.get("ok")),
    }


def _titled_counts(parts: list[dict[str, Any]] | None) -> list[tuple[str, int]]:
    """Each section's title and the rows it lists, as the document counted them."""
    return [(part["title"], part["count"]) for part in parts or []]


def _resettled(resettlement: dict[str, Any]) -> str:
    checked, found = resettlement.get("checked", 0), resettlement.get("discrepancy_count", 0)
    bets = "bet" if checked == 1 else "bets"
    discrepancies = "discrepancy" if found == 1 else "discrepancies"
    return f"{checked:,} {bets} settled again, {found:,} {discrepancies}"


def _section_counts(document: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Each section's title, the rows it lists and how many of them carry a flag."""
    counts = []
    for section in document.get("sections") or []:
        if section.get("streamed"):
            listed, flagged = section.get("row_count", 0), 0
        else:
            rows = [r for r in section.get("rows") or [] if r.get("row_type") == "detail"]
            flag_keys = [c["key"] for c in section.get("columns") or [] if c["type"] == "flag"]
            listed = len(rows)
            flagged = sum(
                1 for r in rows if any(r.get(k) not in (None, "", "ok") for k in flag_keys)
            )
        counts.append((section.get("title", ""), listed, flagged))
    return counts
