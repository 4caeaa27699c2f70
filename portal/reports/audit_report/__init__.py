"""The audit report: what an auditor signs for a period of gaming days (reading:expected-win,
§ 811a.9). Its modules are laid out in the order the data flows, each layer reading only
those below it (an import contract holds it):

- ``scope`` (which rounds: a period of gaming days, per certificate holder) and ``values``
  (how the report keys groups and odds, names a player, writes exact figures);
- ``reading``: the ORM's and PostgreSQL's COPY readers of rounds, bets and ledger entries;
- ``resettlement``: the one pass over every bet, and what it finds;
- ``figures``: the sums, hold, reconciliation and charts' data;
- ``sections``: the document's sections;
- ``document``: the report made from them (``audit_report``).
"""

from portal.reports.audit_report.document import (
    DEFAULT_WIN_THRESHOLD,
    DEFINITION_VERSION,
    TITLE,
    audit_report,
)

__all__ = ["DEFAULT_WIN_THRESHOLD", "DEFINITION_VERSION", "TITLE", "audit_report"]
