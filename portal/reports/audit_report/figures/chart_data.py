"""The audit report's charts, as data (``portal.reports.render.chart_drawing`` draws them).

- outcome frequency per number against the expected 1/13 of rounds, with the band a fair
  wheel keeps a number in 95 % of the time (binomial: ± 1.96 √(n · 1/13 · 12/13));
- daily hold % against the expected band (E/H ± 1.96 SD/H for the day's own bets);
- handle per gaming day.

Both bands are ``jinzi.fair_band``'s, as is the summary's band of the period's win.
"""

from __future__ import annotations

import math
from fractions import Fraction

import jinzi
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.scope import Scope


def outcome_chart(counts: list[int]) -> dict:
    total = sum(counts)
    p = 1 / jinzi.WHEEL_SIZE
    expected = total * p
    low, high = jinzi.fair_band(expected, math.sqrt(total * p * (1 - p)))
    return {
        "key": "outcomes",
        "title": "Outcome frequency against 1/13 of rounds",
        "type": "bars",
        "x_title": "Number",
        "y_title": "Rounds",
        "labels": [str(n) for n in jinzi.NUMBERS],
        "values": counts,
        "reference": {
            "label": "Expected (1/13 of rounds), 95 % band",
            "value": expected,
            "low": max(0.0, low),
            "high": high,
        },
    }


def daily_charts(scope: Scope, found: Pass) -> list[dict]:
    labels = [day.isoformat() for day in scope.days]
    holds, expected, low, high, handle = [], [], [], [], []
    for day in scope.days:
        acc = found.days.get(day)
        if acc is None or acc.handle == 0:
            holds.append(None)
            expected.append(None)
            low.append(None)
            high.append(None)
            handle.append(0)
            continue
        moments = acc.moments
        e = float(moments.expected_win / acc.handle)
        bottom, top = jinzi.fair_band(e, math.sqrt(moments.variance), acc.handle)
        holds.append(float(Fraction(acc.handle - acc.returned, acc.handle)))
        expected.append(e)
        low.append(bottom)
        high.append(top)
        handle.append(acc.handle)
    return [
        {
            "key": "daily_hold",
            "title": "Daily hold % against the expected band (E ± 1.96 SD)",
            "type": "band",
            "x_title": "Gaming day",
            "y_title": "Hold %",
            "percent": True,
            "labels": labels,
            "values": holds,
            "expected": expected,
            "low": low,
            "high": high,
        },
        {
            "key": "daily_handle",
            "title": "Handle per gaming day",
            "type": "bars",
            "x_title": "Gaming day",
            "y_title": "Handle (dollars)",
            "money": True,
            "labels": labels,
            "values": handle,
        },
    ]
