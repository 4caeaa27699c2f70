"""The mutation score of each engine file, from ``mutmut results --all true`` on stdin.

``make mutation`` pipes mutmut's list of mutants into this script, which prints one row
per file (mutants, killed, survived, anything else, score) as a Markdown table, then the
surviving mutants of each file. A survivor must be explained in the page given as the
first argument (docs/mutation.md), where each is named in backquotes: any survivor the
page does not name, and any mutant left unchecked, makes the exit status 1.

    mutmut results --all true | python tests/jinzi/mutation_scores.py docs/mutation.md
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

# "    jinzi.settlement.x_check_stake__mutmut_3: survived"
LINE = re.compile(r"^\s*(?P<name>[\w.ǁ]+__mutmut_\d+): (?P<status>.+?)\s*$")
NAMED = re.compile(r"`([\w.ǁ]+__mutmut_\d+)`")
# A mutant that runs forever is caught by the time limit: as good as killed.
CAUGHT = {"killed", "timeout"}


@dataclass
class FileScore:
    path: str
    statuses: Counter = field(default_factory=Counter)
    survivors: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    @property
    def killed(self) -> int:
        return sum(self.statuses[status] for status in CAUGHT)

    @property
    def unchecked(self) -> int:
        return self.total - self.killed - self.statuses["survived"]

    @property
    def score(self) -> float:
        return 100 * self.killed / self.total if self.total else 100.0


def file_of(mutant: str) -> str:
    """``jinzi.settlement.x_settle__mutmut_1`` → ``jinzi/settlement.py``."""
    module = mutant.rpartition(".")[0]
    return module.replace(".", "/") + ".py"


def scores(lines: Iterable[str]) -> list[FileScore]:
    by_file: dict[str, FileScore] = {}
    for line in lines:
        match = LINE.match(line)
        if match is None:
            continue
        name, status = match["name"], match["status"]
        path = file_of(name)
        score = by_file.setdefault(path, FileScore(path))
        score.statuses[status] += 1
        if status == "survived":
            score.survivors.append(name)
    return sorted(by_file.values(), key=lambda s: s.path)


def table(files: list[FileScore]) -> str:
    rows = [
        "| file | mutants | killed | survived | not run | score |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    total = FileScore("all", sum((f.statuses for f in files), Counter()))
    for f in [*files, total]:
        name = f"`{f.path}`" if f is not total else "**all**"
        rows.append(
            f"| {name} | {f.total:,} | {f.killed:,} | {f.statuses['survived']:,} "
            f"| {f.unchecked:,} | {f.score:.1f} % |"
        )
    return "\n".join(rows)


def explained(page: Path) -> set[str]:
    return set(NAMED.findall(page.read_text(encoding="utf-8")))


def report(files: list[FileScore], known: set[str]) -> tuple[str, bool]:
    """The printed report, and whether every survivor is explained and every mutant run."""
    lines = [table(files), ""]
    unexplained = []
    for f in files:
        if not f.survivors:
            continue
        lines.append(f"Surviving in {f.path}:")
        for name in f.survivors:
            mark = "listed" if name in known else "NOT LISTED"
            lines.append(f"  {name}  ({mark})")
            if name not in known:
                unexplained.append(name)
    unchecked = sum(f.unchecked for f in files)
    if unexplained:
        lines.append(
            f"{len(unexplained)} surviving mutant(s) are not listed in the mutation page: "
            "kill them with a test, or list them there with the reason they cannot be killed."
        )
    if unchecked:
        lines.append(f"{unchecked} mutant(s) were not run to a verdict (no tests, suspicious, …).")
    if not files:
        lines.append("No mutants found: run `mutmut run` first.")
    return "\n".join(lines), bool(files) and not unexplained and not unchecked


def main(argv: list[str]) -> int:
    known = explained(Path(argv[1])) if len(argv) > 1 else set()
    text, ok = report(scores(sys.stdin), known)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
