"""CI's clause traceability check, on the real tree.

It fails while any registered clause has no test, while code or a test cites a clause the
register does not hold (a typo such as "617b.8(h)"), or while a line marks a Reading
without naming it (``reading:<name>``). The message lists every problem with its place,
as ``manage.py clauses --check`` does.
"""

from __future__ import annotations

from portal.regulation.matrix import build_matrix


def test_every_registered_clause_is_tested_and_every_citation_is_registered():
    matrix = build_matrix()
    listed = "\n".join(f"{problem.kind}: {problem}" for problem in matrix.problems)
    assert not matrix.problems, f"{len(matrix.problems)} clause traceability problems:\n{listed}"
