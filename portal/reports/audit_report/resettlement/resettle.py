"""The audit report's one pass over every bet: independent re-settlement, each round's exact
moments, and each round's place in its player's hash chain. ``resettle`` makes it: on
PostgreSQL the columnar pass (``columnar_pass``), elsewhere the reference pass
(``reference_pass``), the definition the columnar one is held to; what either finds is a
``findings.Pass``. Only the figures, the problems found and each player's last round are
kept.
"""

from __future__ import annotations

from collections.abc import Callable

from portal.reports.audit_report.reading import copy_out
from portal.reports.audit_report.resettlement.columnar_pass import columnar_pass
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.finishing import finish
from portal.reports.audit_report.resettlement.reference_pass import reference_pass
from portal.reports.audit_report.scope import Scope


def resettle(
    scope: Scope, progress: Callable[[int], None] | None = None, *, part: bool = False
) -> Pass:
    """The pass over the scope; ``progress(rounds done)`` as it goes. The same findings
    whichever pass reads. ``part``: the scope is one part of a period, joined later
    (``finishing.joined``); otherwise the pass is finished here."""
    if copy_out.available():
        found = columnar_pass(scope, progress, part=part)
    else:
        found = reference_pass(scope, progress, part=part)
    if not part:
        finish(found)
    return found
